import { parseTarget } from '../domain/targets.js';
import type { Live } from '../state/types.js';
import type { SweepMemory } from '../state/sweep-memory.js';
import type { Change, PlanDrift } from './types.js';

/**
 * Who and when of a drifted change (README, "Drift: who, what, when"). The service
 * records neither editor nor time: a pinned list's change happened between its last
 * read and now, a view's between when it was last seen and now (the sweep memory's
 * dates); a view names its owner, a list its member (already on the change).
 */

/** DriftDetails are what a change with an origin carries beside it: `since` (and `already`), and a view's owner. */
export interface DriftDetails {
  since?: string;
  already?: true;
  ownerId?: string;
  ownerEmail?: string;
}

/**
 * driftDetails are the details of one change with an origin: `since` from the memory
 * (a list's `lastRead`; a view's `lastSeen`, by id, or by name for a view to create
 * again) and `already` when the memory saw it as it is now, and for an update the live
 * view's owner (and email, when the plan read the users).
 */
export function driftDetails(change: Change, live: Live, memory: SweepMemory | undefined): DriftDetails {
  const since = sinceOf(change, memory);
  const details: DriftDetails = since === undefined ? {} : { since, ...(alreadySo(change, live, memory) ? { already: true as const } : {}) };
  if (change.action !== 'update') return details;
  const ownerId = (live.views[change.domain] ?? []).find((view) => view.viewId === change.id)?.ownerId;
  if (ownerId === undefined) return details;
  const ownerEmail = live.users?.find((user) => user.id === ownerId)?.email;
  return { ...details, ownerId, ...(ownerEmail === undefined ? {} : { ownerEmail }) };
}

/**
 * alreadySo tells whether the memory saw the target as it is now: a list holding the
 * same tabs in the same order, a view of the same name (of its other attributes the
 * memory keeps nothing), a view to delete that it saw at all. Then the change is older than its `since`: reported before,
 * not repaired.
 */
function alreadySo(change: Change, live: Live, memory: SweepMemory | undefined): boolean {
  if (memory === undefined) return false;
  if (change.action === 'pin') {
    const key = change.target.slice('pins:'.length);
    const held = memory.lists[key]?.viewIds;
    const now = live.pins[key]?.map((view) => view.viewId);
    return held !== undefined && now !== undefined && held.join('\u0000') === now.join('\u0000');
  }
  // A view prune would delete was already there when last seen: it was made before then.
  if (change.action === 'delete') return memory.views[change.target] !== undefined;
  if (change.action === 'update' && change.patch.every((operation) => operation.path === '/name')) {
    return memory.views[change.target]?.name === change.before.name;
  }
  return false;
}

function sinceOf(change: Change, memory: SweepMemory | undefined): string | undefined {
  // A view created again carries when the memory last saw it live (`deletedOutside`): the deletion came after.
  if (change.action === 'create' && change.deletedOutside !== undefined) return change.deletedOutside.lastSeen;
  if (memory === undefined) return undefined;
  const target = parseTarget(change.target);
  switch (target?.type) {
    case 'pins':
      return memory.lists[change.target.slice('pins:'.length)]?.lastRead;
    case 'view':
      return memory.views[change.target]?.lastSeen;
    case 'new-view': {
      // A view to create again was last seen under its name (the id it had is gone).
      const seen = Object.values(memory.views).filter((view) => view.domain === target.domain && view.name === target.name).map((view) => view.lastSeen).sort();
      return seen[seen.length - 1];
    }
    default:
      return undefined;
  }
}

/**
 * driftedRecord is the plan's `drifted`: the changes with an origin; with `lastApplied`
 * when the origins were judged against it; and, when it is older than the manifests
 * (`countsUnapplied`), the changes without one, merged since and not yet applied.
 */
export function driftedRecord(changes: readonly Change[], record: { lastApplied?: PlanDrift['lastApplied']; countsUnapplied?: boolean }): PlanDrift {
  const drifted = changes.filter((change) => change.origin !== undefined).length;
  return {
    changes: drifted,
    ...(record.lastApplied === undefined ? {} : { lastApplied: record.lastApplied }),
    ...(record.countsUnapplied === true ? { unapplied: changes.length - drifted } : {}),
  };
}
