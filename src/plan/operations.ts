import { presentation } from '../kinds/capabilities.js';
import type { Domain, ResourceKind } from '../domain/domains.js';
import { InternalError } from '../errors.js';
import { canonicalJson } from '../kinds/canonical.js';
import { cannotApply } from '../kinds/kind.js';
import { actionOf, isApplied, kindOf } from '../kinds/kinds.js';
import { endpointOf } from '../service/routes.js';
import type { ServiceRequest } from '../service/types.js';
import type { Action, Change, NewViewTab, Plan, PlanStep } from './types.js';

/**
 * Which call carries out which change: a Change says what differs, its kind
 * (`kindOf`) says which requests fix it, the plan stores them as steps, and an
 * Operation is a stored step joined with its change. Pure; the executor sends them.
 */

/**
 * Operation is one HTTP call of an apply: a stored step joined with the change it comes
 * from, and what its kind says the step acts on (`Presentation.subject`).
 */
export interface Operation extends Omit<PlanStep, 'change' | 'newViewTabs'> {
  /** Stable within one plan: `<change index>-<action>`. */
  id: string;
  /** Index of the change in `plan.changes`. */
  changeIndex: number;
  action: Action;
  kind: ResourceKind;
  /** The view name, or for a pinned list `userEmail domain`. */
  name: string;
  domain?: Domain;
  /** The existing view an update or delete acts on (a create learns its id from the answer). */
  viewId?: string;
  /** A pinned list's member. */
  userEmail?: string;
  /** Rate-limit endpoint key, `METHOD route` (the service's "Rate limits"). */
  endpoint: string;
  /** When apply runs it (`phaseOf` its change): lower phases first. */
  phase: number;
  /** The `createdKey` of what the operation creates, which later operations may name. */
  creates?: string;
  /** Pin operations only: tabs that name views created in this run. */
  newViewTabs: NewViewTab[];
}

/**
 * phaseOf is when apply runs a change's steps, as its action says (`KindAction.phase`):
 * creates first (pins may name the new views), then updates, then pinned lists, then
 * deletes last (a view leaves the pinned lists before it disappears, and a failure
 * stops before anything is lost). A change that is never applied has none.
 */
export function phaseOf(change: Change): number {
  const { phase } = actionOf(change);
  if (phase === undefined)
    throw new InternalError(`a plan step names a ${change.action} change, which is never applied`);
  return phase;
}

/**
 * planSteps turns every change of a plan that is applied (not drift) into the request that carries it
 * out, in phase order (then plan order): what the plan stores as `steps`. It refuses
 * a plan it cannot carry out exactly, before anything is sent: a create without
 * `creatorEmail`, a pinned tab naming a new view that the plan does not create, an
 * update that changes nothing.
 */
export function planSteps(plan: Pick<Plan, 'changes' | 'creatorEmail'>): PlanStep[] {
  const created = new Set(plan.changes.flatMap((change) => kindOf(change).creates?.(change) ?? []));
  const context = { creatorEmail: plan.creatorEmail, created };
  const steps = plan.changes.flatMap((change, index) => kindOf(change).steps(change, index, context));
  const phase = (step: PlanStep): number => phaseOf(appliedChange(plan.changes[step.change]));
  return steps.sort((a, b) => phase(a) - phase(b) || a.change - b.change);
}

/**
 * storedOperations joins the steps a plan stores with their changes: what apply sends.
 * A step of a drift change, or of no change, is a bug here: `checkStoredSteps` has
 * refused such a file before.
 */
export function storedOperations(plan: Pick<Plan, 'changes' | 'steps'>): Operation[] {
  return plan.steps.map((step) => operationOf(step, plan.changes[step.change]));
}

/** buildOperations is the operations of the steps a plan's changes imply (`planSteps`). */
export function buildOperations(plan: Pick<Plan, 'changes' | 'creatorEmail'>): Operation[] {
  return storedOperations({ changes: plan.changes, steps: planSteps(plan) });
}

/**
 * checkStoredSteps refuses a saved plan whose stored steps are not exactly those its
 * changes imply: the stale check covers the changes' targets, so a hand-edited step
 * could otherwise write outside them. The digest is no help: anyone can recompute it.
 */
export function checkStoredSteps(plan: Pick<Plan, 'changes' | 'creatorEmail' | 'steps'>): void {
  const implied = planSteps(plan);
  if (canonicalJson(implied) === canonicalJson(plan.steps)) return;
  const byChange = (steps: readonly PlanStep[]): Map<number, string> => {
    const out = new Map<number, string>();
    for (const step of steps) out.set(step.change, `${out.get(step.change) ?? ''}${canonicalJson(step)}\n`);
    return out;
  };
  const want = byChange(implied);
  const have = byChange(plan.steps);
  const differing = [...new Set([...want.keys(), ...have.keys()])]
    .filter((index) => want.get(index) !== have.get(index))
    .sort((a, b) => a - b);
  const where =
    differing.length === 0
      ? 'its steps are not in the order apply sends them'
      : `${differing.map((index) => `changes[${index}]`).join(', ')}: the stored steps are not the requests the change implies`;
  throw cannotApply(where);
}

/**
 * toServiceRequest is the call to send for an operation. A step naming what the run
 * creates (a pinned list's new tabs) is resolved by its kind (`Kind.sent`) against
 * `createdIds`, the `createdKey(domain, name)` of each view created so far: a tab
 * naming a view whose create did not land cannot be sent.
 */
export function toServiceRequest(operation: Operation, createdIds: ReadonlyMap<string, string>): ServiceRequest {
  const request: ServiceRequest = {
    method: operation.method,
    route: operation.route,
    params: operation.params,
    query: operation.query,
    ...(operation.body === undefined ? {} : { body: operation.body }),
    // Only a creating POST may land twice; every other write replaces or removes.
    idempotent: operation.method !== 'POST',
  };
  if (operation.newViewTabs.length === 0) return request;
  const kind = kindOf(operation);
  if (kind.sent === undefined)
    throw new InternalError(`a ${operation.action} step names what the run creates, but its kind resolves nothing`);
  const subject = {
    name: operation.name,
    ...(operation.domain === undefined ? {} : { domain: operation.domain }),
    ...(operation.viewId === undefined ? {} : { id: operation.viewId }),
    ...(operation.userEmail === undefined ? {} : { userEmail: operation.userEmail }),
  };
  return kind.sent({ request, newViewTabs: operation.newViewTabs, subject }, createdIds);
}

function appliedChange(change: Change | undefined): Change {
  if (change === undefined || !isApplied(change))
    throw new InternalError('a plan step names a change that has no request');
  return change;
}

function operationOf(step: PlanStep, change: Change | undefined): Operation {
  const target = appliedChange(change);
  const kind = kindOf(target);
  const { change: _change, newViewTabs, ...request } = step;
  const { name, domain, id, userEmail } = presentation(kind).subject(target);
  const creates = kind.creates?.(target);
  return {
    id: `${step.change}-${target.action}`,
    changeIndex: step.change,
    action: target.action,
    kind: target.kind,
    name,
    ...(domain === undefined ? {} : { domain }),
    ...(id === undefined ? {} : { viewId: id }),
    ...(userEmail === undefined ? {} : { userEmail }),
    ...request,
    endpoint: endpointOf(step),
    phase: phaseOf(target),
    ...(creates === undefined ? {} : { creates }),
    newViewTabs: newViewTabs ?? [],
  };
}
