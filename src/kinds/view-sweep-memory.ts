import { createHash } from 'node:crypto';
import type { ApiView } from '../domain/api-types.js';
import { APP_OWNABLE, type AppOwnable } from '../domain/app-owns.js';
import type { Domain } from '../domain/domains.js';
import { parseTarget } from '../domain/targets.js';
import type { AppliedFacts } from '../state/memory-applied.js';
import type { SweepMemory, ViewDigests } from '../state/sweep-memory.js';
import type { Live } from '../state/types.js';
import { canonicalJson } from './canonical.js';
import type { CreateChange, DeleteChange, UpdateChange, ViewSnapshot } from './changes.js';
import type { DriftDetails, StepSubject } from './kind.js';
import { normalizeSnapshot } from './normalize.js';

/**
 * What the sweep memory and the saved views tell each other: when a view's drift came
 * about (the memory keeps when it last saw each view, by id, its name, and a digest of
 * each of its other attributes), and what a view's landed write teaches the memory.
 */

type ViewChange = CreateChange | UpdateChange | DeleteChange;

/**
 * viewDriftWhen is `SweepMemoryAnswers.driftWhen` for the saved views: `since` is when the memory
 * last saw the view (by id; by name for a view to create again, whose id is gone, or
 * what the create carries from when it was deleted in the app), `already` when it saw
 * it as it is now, and for an update the live view's owner.
 */
export function viewDriftWhen(change: ViewChange, live: Live, memory: SweepMemory | undefined): DriftDetails {
  const since = viewSince(change, memory);
  const details: DriftDetails =
    since === undefined ? {} : { since, ...(seenSo(change, memory) ? { already: true as const } : {}) };
  if (change.action !== 'update') return details;
  const ownerId = (live.views[change.domain] ?? []).find((view) => view.viewId === change.id)?.ownerId;
  if (ownerId === undefined) return details;
  const ownerEmail = live.users?.find((user) => user.id === ownerId)?.email;
  return { ...details, ownerId, ...(ownerEmail === undefined ? {} : { ownerEmail }) };
}

/**
 * seenSo tells whether the memory saw the view as it is now: a view to delete that it
 * saw at all, a view updated whose every attribute the update writes was so when last
 * seen (the name as kept, the others by their digests; without digests, an old memory,
 * only a rename can tell). Then the change is older than its `since`: reported before
 * (the words say so; what is repaired does not change). An attribute the update leaves alone (the app's, or one already as the
 * manifests ask) may have changed since: it is not the drift.
 */
function seenSo(change: ViewChange, memory: SweepMemory | undefined): boolean {
  if (memory === undefined) return false;
  // A view prune would delete was already there when last seen: it was made before then.
  if (change.action === 'delete') return memory.views[change.target] !== undefined;
  if (change.action !== 'update') return false;
  const seen = memory.views[change.target];
  if (seen === undefined) return false;
  const written = new Set(change.patch.map((operation) => operation.path.split('/')[1] ?? ''));
  const live = seen.digests === undefined ? undefined : viewDigests(change.domain, change.before);
  return [...written].every((attribute) => {
    if (attribute === 'name') return seen.name === change.before.name;
    if (!isDigested(attribute) || live === undefined) return false;
    return seen.digests?.[attribute] === live[attribute];
  });
}

function isDigested(attribute: string): attribute is AppOwnable {
  return (APP_OWNABLE as readonly string[]).includes(attribute);
}

/**
 * viewDigests are the memory's digests of a view's attributes besides its name
 * (`ViewDigests`): each normalised as the plan compares it (`normalizeSnapshot`, so an
 * absent icon and a null one digest alike), in canonical JSON. Sixteen hex digits tell
 * two states of one attribute apart; the memory needs no more, and a thousand views
 * stay small.
 */
export function viewDigests(domain: Domain, view: ApiView | ViewSnapshot): ViewDigests {
  const snapshot = normalizeSnapshot(domain, view);
  const digest = (attribute: AppOwnable): string =>
    createHash('sha256')
      .update(canonicalJson(snapshot[attribute] ?? null))
      .digest('hex')
      .slice(0, 16);
  return { columns: digest('columns'), filters: digest('filters'), sort: digest('sort'), icon: digest('icon') };
}

function viewSince(change: ViewChange, memory: SweepMemory | undefined): string | undefined {
  // A view created again carries when the memory last saw it live (`deletedOutside`): the deletion came after.
  if (change.action === 'create' && change.deletedOutside !== undefined) return change.deletedOutside.lastSeen;
  if (memory === undefined) return undefined;
  const target = parseTarget(change.target);
  switch (target?.type) {
    case 'view':
      return memory.views[change.target]?.lastSeen;
    case 'new-view': {
      // A view to create again was last seen under its name (the id it had is gone).
      const seen = Object.values(memory.views)
        .filter((view) => view.domain === target.domain && view.name === target.name)
        .map((view) => view.lastSeen)
        .sort();
      return seen[seen.length - 1];
    }
    default:
      return undefined;
  }
}

/**
 * rememberView is `SweepMemoryAnswers.remember` for the saved views: a view created or updated is seen
 * under its name (an update's new one) and as written (the digests of `after`), a view
 * deleted is forgotten (the memory recalls views deleted in the app, not by viewctl).
 * Nothing without the view's id.
 */
export function rememberView(change: ViewChange, landed: StepSubject): Partial<AppliedFacts> {
  const { id } = landed;
  if (id === undefined) return {};
  switch (change.action) {
    case 'create':
      return {
        seen: [{ domain: change.domain, id, name: change.name, digests: viewDigests(change.domain, change.after) }],
      };
    case 'update':
      return {
        seen: [
          { domain: change.domain, id, name: change.after.name, digests: viewDigests(change.domain, change.after) },
        ],
      };
    case 'delete':
      return { deleted: [{ domain: change.domain, id }] };
  }
}
