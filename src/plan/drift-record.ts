import { sweepMemoryAnswers } from '../kinds/capabilities.js';
import { kindOf } from '../kinds/kinds.js';
import type { DriftDetails } from '../kinds/kind.js';
import type { Live } from '../state/types.js';
import type { SweepMemory } from '../state/sweep-memory.js';
import type { Change, PlanDrift } from './types.js';

/**
 * Who and when of a drifted change (README, "Drift: who, what, when"). The service
 * records neither editor nor time: a pinned list's change happened between its last
 * read and now, a view's between when it was last seen and now (the sweep memory's
 * dates); a view names its owner, a list its member (already on the change). Which
 * date and owner a change has is its kind's answer (`SweepMemoryAnswers.driftWhen`).
 */

/**
 * driftDetails are the details of one change with an origin, as its kind tells them
 * (`SweepMemoryAnswers.driftWhen`): `since` from the memory and `already` when the memory saw the
 * target as it is now (the change is then older than its `since`: reported before, not
 * repaired), and a view's owner; none when the kind knows nothing.
 */
export function driftDetails(change: Change, live: Live, memory: SweepMemory | undefined): DriftDetails {
  return sweepMemoryAnswers(kindOf(change)).driftWhen(change, live, memory);
}

/**
 * driftedRecord is the plan's `drifted`: the changes with an origin; with `lastApplied`
 * when the origins were judged against it; and, when it is older than the manifests
 * (`countsUnapplied`), the changes without one, merged since and not yet applied.
 */
export function driftedRecord(
  changes: readonly Change[],
  record: { lastApplied?: PlanDrift['lastApplied']; countsUnapplied?: boolean },
): PlanDrift {
  const drifted = changes.filter((change) => change.origin !== undefined).length;
  return {
    changes: drifted,
    ...(record.lastApplied === undefined ? {} : { lastApplied: record.lastApplied }),
    ...(record.countsUnapplied === true ? { unapplied: changes.length - drifted } : {}),
  };
}
