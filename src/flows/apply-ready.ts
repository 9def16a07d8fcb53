import { checkDailyBudget, checkExpectedDigest, checkMaxDeletes } from '../apply/gates.js';
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

/** ReadyToApply is a plan that passed every gate, the live state it was checked against, and the operations apply sends (none: nothing to apply). */
export interface ReadyToApply {
  plan: Plan;
  live: Live;
  elapsedMs: number;
  operations: Operation[];
}

/**
 * readyToApply passes a plan through the gates that come last, in this order: a plan
 * with no step has nothing to apply and meets no gate; then `--max-deletes`; then the
 * daily budget, against what the service says is left now. Each gate throws; none writes.
 */
export function readyToApply(prepared: Omit<ReadyToApply, 'operations'>, client: ServiceClient, maxDeletes: number): ReadyToApply {
  const { plan } = prepared;
  // Drift is never applied: a plan of drift alone has no step.
  if (plan.steps.length === 0) return { ...prepared, operations: [] };
  checkMaxDeletes(plan, maxDeletes);
  checkDailyBudget(plan, client.stats().dailyRemaining);
  return { ...prepared, operations: storedOperations(plan) };
}

/** PrepareApplyOptions are planWorkspace's, and the gates' flags. */
interface PrepareApplyOptions extends PlanWorkspaceOptions {
  /** `--expect-digest`: the digest the plan must have. */
  expectDigest?: string;
  /** `--max-deletes`. */
  maxDeletes: number;
}

/**
 * prepareApply is `apply` of the manifests up to its first write: plan them
 * (`planWorkspace`), refuse a plan of another digest than `--expect-digest`, then the
 * last gates (`readyToApply`).
 */
export async function prepareApply(desired: Desired, client: ServiceClient, options: PrepareApplyOptions): Promise<ReadyToApply> {
  const { expectDigest, maxDeletes, ...planning } = options;
  const planned = await planWorkspace(desired, client, planning);
  checkExpectedDigest(planned.plan, expectDigest);
  return readyToApply(planned, client, maxDeletes);
}
