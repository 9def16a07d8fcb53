import { savedPlanChecks } from '../kinds/capabilities.js';
import { isApplied, kindOf, kinds } from '../kinds/kinds.js';
import type { Live } from '../state/types.js';
import type { Change, Plan } from './types.js';

/**
 * A saved plan is only as trustworthy as its content: its digest is an unkeyed SHA-256
 * whose recipe the README gives, so anyone who can edit the file can recompute it.
 * `apply --plan` therefore never trusts a change's fields to agree with each other or
 * with the workspace. These checks make sure a plan file can do nothing `plan` would
 * have refused: each change acts on exactly its stale-checked target, its `before` is
 * the live state, its patch is what `before` and `after` imply, and the fail-safe
 * rules hold against the live state apply re-read. Each problem is one line naming
 * the change (`changes[3] update RecordingView "X"`).
 */

/**
 * identityProblems lists changes whose fields disagree with each other; no live state
 * needed. The kind that owns a change names its target and checks its fields
 * (`Kind.target`, `SavedPlanChecks.identityProblems`); two applied changes of one target is
 * plan-wide (the drift changes all share the automations' target, and are never applied).
 */
export function identityProblems(plan: Plan): string[] {
  const seen = new Map<string, number>();
  return perChange(plan, (change, index) => {
    const kind = kindOf(change);
    const expected = kind.target(change);
    const problems =
      change.target === expected ? [] : [`its target is ${change.target}, but what it changes is ${expected}`];
    if (isApplied(change)) {
      const earlier = seen.get(change.target);
      if (earlier !== undefined) problems.push(`changes the same target as changes[${earlier}]`);
      seen.set(change.target, index);
    }
    return [...problems, ...savedPlanChecks(kind).identityProblems(change, plan.creatorEmail)];
  });
}

/**
 * liveRuleProblems re-checks the fail-safe rules for every change against the live
 * state apply re-read (the listings of the domains it touches and the pinned lists it
 * replaces), as `plan` checks them against the live state it reads: each kind checks
 * its own changes (`Kind.recheck`). Changes in `skipped` (already applied: apply sends
 * nothing for them) are left out. The problems about one change come first, in the
 * plan's order, then those about the plan as a whole.
 */
export function liveRuleProblems(plan: Plan, live: Live, skipped: ReadonlySet<number> = new Set()): string[] {
  // The kinds re-check the changes left, as if the plan were only those; problems name the plan's indexes.
  const kept = plan.changes.flatMap((_change, index) => (skipped.has(index) ? [] : [index]));
  const left = skipped.size === 0 ? plan : { ...plan, changes: kept.map((index) => plan.changes[index] as Change) };
  const found = kinds()
    .flatMap((kind) => kind.recheck(left, live))
    .map((problem) => (problem.index === undefined ? problem : { ...problem, index: kept[problem.index] }));
  const byChange = plan.changes.map((): string[] => []);
  const planWide: string[] = [];
  for (const { index, problem } of found)
    (index === undefined ? planWide : (byChange[index] ?? planWide)).push(problem);
  return [...perChange(plan, (_change, index) => byChange[index] ?? []), ...planWide];
}

/** perChange is what `check` finds wrong with each change, each problem naming its change. */
function perChange(plan: Plan, check: (change: Change, index: number) => string[]): string[] {
  return plan.changes.flatMap((change, index) => {
    const label = `changes[${index}] ${change.action} ${change.kind} "${change.name}"`;
    return check(change, index).map((problem) => `${label}: ${problem}`);
  });
}
