import { parseTarget } from '../domain/targets.js';
import type { AppliedFacts } from '../state/memory-applied.js';
import type { SweepMemory } from '../state/sweep-memory.js';
import type { Live } from '../state/types.js';
import type { CreateChange, DeleteChange, UpdateChange } from './changes.js';
import type { DriftDetails, StepSubject } from './kind.js';

/**
 * What the sweep memory and the saved views tell each other: when a view's drift came
 * about (the memory keeps when it last saw each view, by id, and its name), and what a
 * view's landed write teaches the memory. The memory keeps nothing of a view's other
 * attributes.
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
 * saw at all, a view renamed in the app that it saw under its live name (of the other
 * attributes it keeps nothing). Then the change is older than its `since`: reported
 * before, not repaired.
 */
function seenSo(change: ViewChange, memory: SweepMemory | undefined): boolean {
  if (memory === undefined) return false;
  // A view prune would delete was already there when last seen: it was made before then.
  if (change.action === 'delete') return memory.views[change.target] !== undefined;
  if (change.action === 'update' && change.patch.every((operation) => operation.path === '/name')) {
    return memory.views[change.target]?.name === change.before.name;
  }
  return false;
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
 * under its name (an update's new one), a view deleted is forgotten (the memory recalls
 * views deleted in the app, not by viewctl). Nothing without the view's id.
 */
export function rememberView(change: ViewChange, landed: StepSubject): Partial<AppliedFacts> {
  const { id } = landed;
  if (id === undefined) return {};
  switch (change.action) {
    case 'create':
      return { seen: [{ domain: change.domain, id, name: change.name }] };
    case 'update':
      return { seen: [{ domain: change.domain, id, name: change.after.name }] };
    case 'delete':
      return { deleted: [{ domain: change.domain, id }] };
  }
}
