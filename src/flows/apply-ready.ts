import { checkDailyBudget, checkExpectedDigest, checkMaxDeletes, checkMaxPinChanges } from '../apply/gates.js';
import { DEFAULT_MAX_PIN_CHANGES } from '../domain/max-pin-changes.js';
import { chooseRepairs, repairPlan, repairReadBudget, type RepairChoice } from '../apply/repair.js';
import { holdsNow } from '../apply/repair-holds.js';
import { InternalError, UsageError } from '../errors.js';
import { formatCount } from '../text/plural.js';
import type { LandedOutcome } from '../apply/execute.js';
import type { WriteAnswer } from '../kinds/execution.js';
import type { HeldEntry } from '../domain/apply-report.js';
import { storedOperations, type Operation } from '../plan/operations.js';
import type { Plan } from '../plan/types.js';
import type { ServiceClient } from '../service/types.js';
import type { Desired, Live } from '../state/types.js';
import { planWorkspace, type PlanWorkspaceOptions } from './plan-workspace.js';

/**
 * The last gates of `apply` before its first write, shared by both ways it gets a
 * plan: planning the manifests now (`prepareApply`) or a saved plan
 * (`prepareSavedPlan`, src/flows/saved-plan.ts).
 */

/**
 * ReadyToApply is a plan that passed every gate, the live state it was checked
 * against, the operations apply sends (none: nothing to apply) and those of a saved
 * plan's changes already applied, which it skips (their outcome as the re-read shows it).
 */
export interface ReadyToApply {
  plan: Plan;
  live: Live;
  elapsedMs: number;
  operations: Operation[];
  alreadyApplied: LandedOutcome[];
  /** Self-heal (`apply --budget`): which of the plan's changes the operations repair, and which are left. */
  repair?: RepairChoice;
  /** A saved plan's changes held (stale targets, and what depends on them): left out of `plan`, listed in its `held`. */
  held?: HeldEntry[];
}

/** Prepared is what the gates before `readyToApply` hand it: the plan, what was read, and the changes already applied (index in `plan.changes` to what the live state shows). */
interface Prepared extends Omit<ReadyToApply, 'operations' | 'alreadyApplied'> {
  alreadyLive?: ReadonlyMap<number, WriteAnswer>;
}

/**
 * readyToApply passes a plan through the gates that come last, in this order: a plan
 * with no step left to send (none at all, or each already applied or held) has nothing to
 * apply and meets no gate; then `--max-deletes`, `--max-pin-changes` and the daily
 * budget (against what the service says is left now), each for the steps left. Each gate throws; none writes.
 */
export function readyToApply(
  { alreadyLive = new Map(), ...prepared }: Prepared,
  client: ServiceClient,
  maxDeletes: number,
  maxPinChanges = DEFAULT_MAX_PIN_CHANGES,
): ReadyToApply {
  const { plan } = prepared;
  const stored = storedOperations(plan);
  const alreadyApplied = stored.flatMap((operation): LandedOutcome[] => {
    const shown = alreadyLive.get(operation.changeIndex);
    return shown === undefined ? [] : [{ status: 'landed', operation, ...shown }];
  });
  const left = plan.steps.filter((step) => !alreadyLive.has(step.change));
  // Drift is never applied: a plan of drift alone has no step.
  if (left.length === 0) return { ...prepared, operations: [], alreadyApplied };
  // The limits count what is left to send: not the changes an earlier apply carried out.
  checkMaxDeletes({ ...plan, steps: left }, maxDeletes);
  checkMaxPinChanges({ ...plan, steps: left }, maxPinChanges);
  checkDailyBudget({ ...plan, steps: left }, client.stats().dailyRemaining);
  return {
    ...prepared,
    operations: stored.filter((operation) => !alreadyLive.has(operation.changeIndex)),
    alreadyApplied,
  };
}

/** PrepareApplyOptions are planWorkspace's, and the gates' flags. */
interface PrepareApplyOptions extends PlanWorkspaceOptions {
  /** `--expect-digest`: the digest the plan must have. */
  expectDigest?: string;
  /** `--max-deletes`. */
  maxDeletes: number;
  /** `--max-pin-changes` (default 100); self-heal repairs that many pinned lists at most. */
  maxPinChanges?: number;
  /**
   * `apply --budget N`, self-heal, once its review gate passed (`checkSelfHeal`, in the
   * apply flow): the budget is `scope.budget`, the memory `memory`.
   */
  repair?: true;
}

/**
 * prepareApply is `apply` of the manifests up to its first write: plan them
 * (`planWorkspace`), refuse a plan of another digest than `--expect-digest`, then the
 * last gates (`readyToApply`).
 */
export async function prepareApply(
  desired: Desired,
  client: ServiceClient,
  options: PrepareApplyOptions,
): Promise<ReadyToApply> {
  const { expectDigest, maxDeletes, maxPinChanges = DEFAULT_MAX_PIN_CHANGES, repair, ...planning } = options;
  if (repair === true)
    return prepareRepair(desired, client, {
      ...planning,
      maxDeletes,
      maxPinChanges,
      ...(expectDigest === undefined ? {} : { expectDigest }),
    });
  const planned = await planWorkspace(desired, client, planning);
  checkExpectedDigest(planned.plan, expectDigest);
  return readyToApply(planned, client, maxDeletes, maxPinChanges);
}

/**
 * prepareRepair is self-heal up to its first write (README, "Self-heal: `apply
 * --budget`"), once its review gate passed: plan as `plan --budget` does within the reads' share of the budget
 * (`repairReadBudget`); keep the repairs whose writes and verification fit in what the
 * budget, and what is left today less `--reserve`, leave (`chooseRepairs`); then the
 * last gates on those alone. The plan is returned whole, so what is left shows.
 */
async function prepareRepair(
  desired: Desired,
  client: ServiceClient,
  {
    maxDeletes,
    maxPinChanges,
    expectDigest,
    ...planning
  }: PlanWorkspaceOptions & { maxDeletes: number; maxPinChanges: number; expectDigest?: string },
): Promise<ReadyToApply> {
  const given = planning.scope?.budget;
  if (given === undefined) throw new InternalError('self-heal was asked for without a budget');
  const reads = repairReadBudget(given);
  const planned = await planWorkspace(desired, client, {
    ...planning,
    scope: { ...planning.scope, budget: reads },
    repair: true,
  }).catch((error: unknown) => {
    throw readsTooFew(error, given, reads);
  });
  checkExpectedDigest(planned.plan, expectDigest);
  const { dailyRemaining } = client.stats();
  const room = Math.min(
    given - planned.live.requests.used,
    dailyRemaining === null ? Number.POSITIVE_INFINITY : dailyRemaining - (planning.scope?.reserve ?? 0),
  );
  const choice = chooseRepairs(
    planned.plan,
    Math.max(0, room),
    { given, reads },
    new Set(holdsNow(planning.memory, planned.plan, planned.live).held),
    maxPinChanges,
  );
  const ready = readyToApply({ ...planned, plan: repairPlan(planned.plan, choice) }, client, maxDeletes, maxPinChanges);
  return { ...ready, plan: planned.plan, repair: choice };
}

/**
 * readsTooFew is a refusal of the reads' share of a self-heal budget said of the budget
 * given: the plan's message names the share, which the user never passed.
 */
function readsTooFew(error: unknown, given: number, reads: number): unknown {
  if (!(error instanceof UsageError) || error.code !== 'usage.budget-too-small') return error;
  const why = error.message.replace(/^--budget \S+ is too small: /, '');
  return new UsageError(
    'usage.budget-too-small',
    `--budget ${formatCount(given)} is too small for self-heal, which keeps a fifth of it for the repairs and leaves ${formatCount(reads)} for the reads: ${why}`,
    `${error.hint ?? ''}; for apply --budget, that many and a quarter more`,
  );
}
