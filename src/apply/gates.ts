import { destroyedWhat, isDestructive } from '../plan/action-traits.js';
import { savedPlanChecks } from '../kinds/capabilities.js';
import type { ApiWorkspace } from '../domain/api-types.js';
import { RefusedError, ViewctlError } from '../errors.js';
import type { ChangeReads } from '../kinds/kind.js';
import type { WriteAnswer } from '../kinds/execution.js';
import { isApplied, kindOf } from '../kinds/kinds.js';
import { liveHashesFor, targetHash } from '../plan/hash.js';
import { checkStoredSteps } from '../plan/operations.js';
import { pinRewrites } from '../plan/pin-rewrites.js';
import { applyLoad } from '../plan/requests.js';
import { identityProblems, liveRuleProblems } from '../plan/saved-plan-checks.js';
import type { Change, Plan } from '../plan/types.js';
import { quoted, safeText } from '../text/safe-text.js';
import { wrapList } from '../text/wrap.js';
import { uniqueReads } from '../state/live-read.js';
import type { Live } from '../state/types.js';

/**
 * The safety gates apply passes before its first write (README, "Fail-safe rules" and
 * "Exit codes"). Each throws a typed error; none writes, reads a file or asks on a
 * terminal (the saved plan file is read by src/plan/saved-plan-file.ts, the question
 * asked by src/cli/approval.ts). Exit 3 is for a plan that must not be carried out as it stands (not
 * the reviewed one, too many deletes); exit 1 for everything else. A saved plan's stale
 * targets hold only themselves and what depends on them (src/apply/stale-holds.ts).
 */

/** checkExpectedDigest refuses a plan other than the one a pipeline insists on (`--expect-digest`). */
export function checkExpectedDigest(plan: Plan, expected: string | undefined): void {
  if (expected === undefined) return;
  const wanted = expected.trim().toLowerCase();
  if (wanted === plan.digest.toLowerCase()) return;
  throw new RefusedError(
    'apply.digest-unexpected',
    `the plan's digest is ${plan.digest}, not the expected ${wanted}: this is not the plan that was reviewed; nothing was written`,
    'review the current plan (viewctl plan) and pass its digest, or apply the saved plan file that was reviewed',
  );
}

/** checkPlanWorkspace refuses a saved plan computed for another workspace than the key's. */
export function checkPlanWorkspace(plan: Plan, workspace: ApiWorkspace): void {
  if (plan.workspace.id === workspace.id) return;
  throw new ViewctlError(
    'workspace.mismatch',
    `the plan is for workspace ${plan.workspace.name} (${plan.workspace.id}), but the key belongs to ${workspace.name} (${workspace.id}); nothing was written`,
    { hint: 'use the key of the workspace the plan was computed for' },
  );
}

/**
 * checkMaxDeletes refuses a plan deleting more than `--max-deletes` allows: the
 * changes of a destructive action (`KindAction.destructive`, whatever their kind)
 * that its steps carry out (self-heal's plan keeps those of its repairs alone).
 */
export function checkMaxDeletes(plan: Plan, maxDeletes: number): void {
  const sent = new Set(plan.steps.map((step) => step.change));
  const deletes = plan.changes.filter((change, index) => isDestructive(change) && sent.has(index));
  if (deletes.length <= maxDeletes) return;
  const what = destroyedWhat(deletes);
  // Wrapped, one name after another: 300 names are 75 lines a log shows, not one 10 KB line.
  const names = wrapList(
    deletes.map((change) => `${change.kind} ${quoted(change.name)}`),
    { indent: '  ' },
  );
  throw new RefusedError(
    'apply.max-deletes',
    `the plan deletes ${deletes.length} ${what}, more than --max-deletes ${maxDeletes} allows; nothing was written:\n${names.join('\n')}`,
    `review the deletions; if they are intended, pass --max-deletes ${deletes.length}`,
  );
}

/**
 * checkMaxPinChanges refuses a plan rewriting more members' pinned lists than
 * `--max-pin-changes` allows: the lists its steps write (self-heal's plan keeps those of
 * its repairs alone, cut to the limit already).
 */
export function checkMaxPinChanges(plan: Plan, maxPinChanges: number): void {
  const lists = pinRewrites(plan).map((index) => plan.changes[index] as Change);
  if (lists.length <= maxPinChanges) return;
  const members = wrapList(
    lists.map((change) => `${change.name} (${'domain' in change ? change.domain : ''})`),
    { indent: '  ' },
  );
  throw new RefusedError(
    'apply.max-pin-changes',
    `the plan rewrites ${lists.length} members' pinned lists, more than --max-pin-changes ${maxPinChanges} allows; nothing was written:\n${members.join('\n')}`,
    `check the group documents' users and roles (a glob such as *@* reaches every member); if the lists are intended, pass --max-pin-changes ${lists.length}`,
  );
}

/**
 * checkDailyBudget refuses a plan that needs more requests than the service said are
 * left today: starting it would fail part-way on the quota. The need is counted from
 * the stored steps apply sends, not from `requests.applyNeeds`, which the digest
 * leaves out.
 */
export function checkDailyBudget(plan: Plan, dailyRemaining: number | null): void {
  const needs = applyLoad(plan).total;
  if (dailyRemaining === null || needs <= dailyRemaining) return;
  throw new ViewctlError(
    'apply.daily-budget',
    `the apply needs ${needs} requests but the service says only ${dailyRemaining} are left today; nothing was written`,
    {
      hint: 'plan and apply part of it now with --target SELECTOR (repeatable: KIND/NAME, pins/EMAIL or automations) and the rest later, or apply later, when the rolling 24-hour budget has recovered',
    },
  );
}

/**
 * savedPlanReads are what `apply --plan` re-reads for the stale check and the rule
 * re-checks: only the plan's targets, as each change's kind says (`Kind.reads`), each
 * read once. One list per domain with view changes, and each pinned list it replaces
 * with its domain's listing; never the automations (drift is not applied); the users
 * when the plan creates views (their creator is re-checked).
 */
export function savedPlanReads(plan: Pick<Plan, 'changes'>): ChangeReads {
  const reads = plan.changes.map((change) => kindOf(change).reads(change));
  return { reads: uniqueReads(reads.flatMap((read) => read.reads)), users: reads.some((read) => read.users === true) };
}

/**
 * SavedPlanState is how a saved plan's applied changes stand against the live state
 * apply re-read: each target is still as the plan was computed from (its recorded
 * hash: apply it), already as the change leaves it (`alreadyLive`: an earlier apply carried
 * it out, skip it), or neither (`stale`: it changed since, to something else: held).
 */
export interface SavedPlanState {
  /** Index in `plan.changes` of each change already at its `after`, with what the live state shows of it (`SavedPlanChecks.alreadyLive`). */
  alreadyLive: Map<number, WriteAnswer>;
  /** Targets changed since the plan was computed, to something else than the plan's `after`. */
  stale: string[];
}

/**
 * savedPlanState compares each applied change's target with the live state: the live
 * hash, recomputed from `live`, is the one the plan recorded (apply it); else the
 * change's kind says whether the live state already holds its `after` (`SavedPlanChecks.alreadyLive`:
 * already applied); else, when some changes landed, whether undoing them
 * (`SavedPlanChecks.undoAlreadyLive`) gives the recorded hash (apply it); else the target is stale.
 * Changes never applied (drift) are left
 * out; apply does not act on them. No read: `live` is the saved plan's one re-read.
 */
export function savedPlanState(plan: Plan, live: Live): SavedPlanState {
  const now = liveHashesFor(plan, live);
  const alreadyLive = new Map<number, WriteAnswer>();
  const stale = new Set<string>();
  plan.changes.forEach((change, index) => {
    if (!isApplied(change)) return;
    const hash = now[change.target];
    if (hash !== undefined && hash === plan.liveHashes[change.target]) return;
    const shown = savedPlanChecks(kindOf(change)).alreadyLive(change, live);
    if (shown === undefined) stale.add(change.target);
    else alreadyLive.set(index, shown);
  });
  if (stale.size === 0 || alreadyLive.size === 0) return { alreadyLive, stale: [...stale] };
  // Applied part-way: a target may differ only by what the plan's own landed changes
  // did (a pinned list's listing holds the views it created). Undone, it must hash exactly as planned.
  let before = live;
  for (const [index, shown] of alreadyLive) {
    const change = plan.changes[index] as Change;
    before = savedPlanChecks(kindOf(change)).undoAlreadyLive?.(change, shown, before) ?? before;
  }
  const changeOf = (target: string) => plan.changes.find((change) => change.target === target);
  const planned = new Set(
    [...stale].filter((target) => targetHash(target, before, changeOf(target)) === plan.liveHashes[target]),
  );
  return { alreadyLive, stale: [...stale].filter((target) => !planned.has(target)) };
}

/**
 * checkPlanIdentity refuses, before any request, a saved plan whose changes disagree
 * with their own targets, or whose stored steps are not the ones those changes imply
 * (a forged or hand-made file: the digest is no signature).
 */
export function checkPlanIdentity(plan: Plan): void {
  refuseUnsafe(identityProblems(plan), 'its changes do not agree with their targets');
  checkStoredSteps(plan);
}

/**
 * checkPlanRules refuses a saved plan that breaks a fail-safe rule against the live
 * state apply re-read, so a plan file can never do what `plan` would have refused. The
 * changes already applied (`alreadyLive`, indexes in `plan.changes`) are not re-checked:
 * apply sends nothing for them, and their live state is their `after`, not their `before`.
 */
export function checkPlanRules(plan: Plan, live: Live, alreadyLive: ReadonlySet<number> = new Set()): void {
  refuseUnsafe(liveRuleProblems(plan, live, alreadyLive), 'it breaks the fail-safe rules against the live workspace');
}

function refuseUnsafe(problems: readonly string[], why: string): void {
  if (problems.length === 0) return;
  const shown = problems.length > 20 ? [...problems.slice(0, 20), `and ${problems.length - 20} more`] : problems;
  throw new RefusedError(
    'plan.unsafe',
    `the plan file is not one viewctl plan would write: ${why}; nothing was written:\n${shown.map((line) => `  ${safeText(line)}`).join('\n')}`,
    'run viewctl plan --out again and apply that file unchanged',
  );
}
