import { driftGroups, type DriftGroup } from '../plan/drift-causes.js';
import { CHANGE_ORIGINS, type Change, type ChangeOrigin, type Plan } from '../plan/types.js';
import { unappliedHeading } from './drift-words.js';
import { originHeading } from './format.js';
import { reviewEntries, type ReviewEntry } from './review-entries.js';

/** PlanSection is the changes of one origin as the text and markdown plans show them. */
export interface PlanSection {
  /** Undefined for the pull request's own changes. */
  origin: ChangeOrigin | undefined;
  /** The origin's heading (`originHeading`), or for the pull request's own the sweep's `unappliedHeading`, when it has one. */
  heading: string | undefined;
  /** The pull request's own changes, a line or row per cause; none for an origin. */
  entries: ReviewEntry[];
  /** The changes with an origin, which are drift, grouped by cause. */
  drift: DriftGroup[];
}

/**
 * planSections splits a plan for the text and markdown plans: the pull request's own
 * changes first, then those it did not ask for (`--base REF`, the sweep), one section
 * per origin in `CHANGE_ORIGINS` order, each keeping the plan's order; empty sections
 * are left out.
 */
export function planSections(plan: Plan): PlanSection[] {
  return byOrigin(plan.changes).map(({ origin, changes }) => ({
    origin,
    heading: origin === undefined ? unappliedHeading(plan) : originHeading(plan, origin, changes),
    entries: origin === undefined ? reviewEntries(changes) : [],
    drift: driftGroups(changes, plan.changes),
  }));
}

/** byOrigin groups changes by origin, the pull request's own first; empty groups are left out. */
function byOrigin(changes: readonly Change[]): { origin: ChangeOrigin | undefined; changes: Change[] }[] {
  return [undefined, ...CHANGE_ORIGINS]
    .map((origin) => ({ origin, changes: changes.filter((change) => change.origin === origin) }))
    .filter((group) => group.changes.length > 0);
}
