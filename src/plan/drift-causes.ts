import { driftLabels, sweepMemoryAnswers } from '../kinds/capabilities.js';
import { kindOf } from '../kinds/kinds.js';
import { DRIFT_CAUSES, type DriftCause, type DriftPlan } from '../kinds/drift-cause.js';
import type { Change, ChangeOrigin } from './types.js';

/**
 * Drift grouped by cause (README, "Drift: who, what, when"): the text and markdown plans
 * show one line per cause and domain or kind, with the members or views it covers
 * listed once; the JSON plan keeps every change. The kind names each change's cause
 * (`DriftLabels.driftCause`, the causes in src/kinds/drift-cause.ts); a change the membership
 * reached is `membership` whatever its kind.
 */

/**
 * driftCause classifies one change with an origin, `plan` saying what the rest of the
 * plan tells (`driftPlan`); undefined for a change without one (the pull request's own).
 */
export function driftCause(change: Change, plan?: DriftPlan): DriftCause | undefined {
  if (change.origin === undefined) return undefined;
  if (change.origin === 'membership') return 'membership';
  return driftLabels(kindOf(change)).driftCause(change, plan);
}

/**
 * driftPlan is what a plan's changes tell each other's causes: the views deleted in the
 * app (`deletedOutside`) that the plan creates again, by `createdKey`.
 */
export function driftPlan(changes: readonly Change[]): DriftPlan {
  const recreated = changes.flatMap((change) => {
    if (!('deletedOutside' in change) || change.deletedOutside === undefined) return [];
    const key = kindOf(change).creates?.(change);
    return key === undefined ? [] : [key];
  });
  return { recreated: new Set(recreated) };
}

/** DriftGroup is the changes of one cause and one origin, with what they share: a domain (tabs) or a kind (views), and for membership the group. */
export interface DriftGroup {
  cause: DriftCause;
  origin: ChangeOrigin;
  /** The domain of the tabs, or the kind of the views. */
  scope: string;
  /** The group document a `membership` group's members are newly reached by. */
  group?: string;
  changes: Change[];
}

/**
 * driftGroups groups the changes with an origin by cause, origin and what their kind
 * groups them by (`DriftLabels.driftScope`: a member's tabs by domain, a view by kind), and for
 * membership by the group document that reaches the member (`SweepMemoryAnswers.memberList`), in
 * `DRIFT_CAUSES` order, each keeping the plan's order; a change belongs to exactly one
 * group; changes without an origin are left out. `all` are the plan's changes (a
 * section's `changes` are some of them): what they tell each other's causes.
 */
export function driftGroups(changes: readonly Change[], all: readonly Change[] = changes): DriftGroup[] {
  const groups = new Map<string, DriftGroup>();
  const plan = driftPlan(all);
  for (const change of changes) {
    const cause = driftCause(change, plan);
    if (cause === undefined || change.origin === undefined) continue;
    const kind = kindOf(change);
    const scope = driftLabels(kind).driftScope?.(change) ?? change.kind;
    const group = cause === 'membership' ? sweepMemoryAnswers(kind).memberList?.(change)?.group : undefined;
    const key = [cause, change.origin, scope, group ?? ''].join('\u0000');
    const entry = groups.get(key);
    if (entry !== undefined) entry.changes.push(change);
    else
      groups.set(key, {
        cause,
        origin: change.origin,
        scope,
        ...(group === undefined ? {} : { group }),
        changes: [change],
      });
  }
  return [...groups.values()].sort((a, b) => DRIFT_CAUSES.indexOf(a.cause) - DRIFT_CAUSES.indexOf(b.cause));
}
