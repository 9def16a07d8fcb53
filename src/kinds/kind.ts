import type { ApiView, JsonObject } from '../domain/api-types.js';
import type { Domain } from '../domain/domains.js';
import { ViewctlError } from '../errors.js';
import type { ServiceRequest } from '../service/types.js';
import type { ReadNeeds } from '../state/needs.js';
import type { Desired, Live } from '../state/types.js';
import type { RefusalReason } from '../domain/refusal-reason.js';
import type { NameMatcher } from '../text/glob.js';
import type { Change, PlanStep, PlanWarning } from './changes.js';
import type { DeclaredViewRef } from './declared-view-ref.js';

/**
 * A resource kind answers, for its own changes and targets, every question below. The
 * engine (`planReadNeeds`, `planSteps`, `liveHashesFor`, `checkApplied`, `computePlan`,
 * `identityProblems`) loops over `KINDS` and never switches on an action or a target.
 */
export interface Kind<C extends Change = Change> {
  /** diff is this kind's changes, refusals and warnings; `context` carries what kinds before it in `KINDS` decided. */
  diff(desired: Desired, live: Live, context: DiffContext): KindDiff<C>;
  owns(change: Change): change is C;
  /** reads is what `apply --plan` re-reads to stale-check `change`: listings and pinned lists. */
  reads(change: C): Pick<ReadNeeds, 'domains' | 'pins'>;
  /** steps are the requests that carry `change` (at `index` in the plan) out, in the order sent; none for what is never applied. */
  steps(change: C, index: number, context: StepContext): PlanStep[];
  /** hashed is the live state a stale check of `target` covers, or undefined when the target is not this kind's. */
  hashed(target: string, live: Live): unknown;
  /** verify says what is not as `change` said after its steps landed, or undefined when all is. */
  verify(change: C, landed: Landed, context: VerifyContext): string | undefined;
  /** target is the target `change` acts on, named from its own fields: a saved plan's change must carry it. */
  target(change: C): string;
  /** identityProblems are where the fields of a saved plan's `change` disagree with each other (a plan file is trusted in nothing). */
  identityProblems(change: C, creatorEmail: string | undefined): string[];
}

/** DiffContext is what a kind's diff needs from the rest of the plan. */
export interface DiffContext {
  /** The Workspace document's `ignore` globs. */
  ignored: NameMatcher;
  /** Per domain, every declared view as pins will see it after apply. */
  declared: ReadonlyMap<Domain, readonly DeclaredViewRef[]>;
  /** Per domain, the id and name of every view the plan deletes. */
  deleted: ReadonlyMap<Domain, ReadonlyMap<string, string>>;
}

/** KindDiff is what a kind's diff yields; `declared` and `deleted` pass on to the kinds after it. */
interface KindDiff<C extends Change = Change> {
  changes: C[];
  reasons: RefusalReason[];
  warnings: PlanWarning[];
  declared?: Map<Domain, DeclaredViewRef[]>;
  deleted?: Map<Domain, Map<string, string>>;
  /** Inactive members the group documents reached, when there are group documents. */
  skippedMembers?: number;
}

/** StepContext is what a change's steps need from the rest of the plan. */
export interface StepContext {
  /** Owner of the views the plan creates. */
  creatorEmail: string | undefined;
  /** `createdKey` of every view the plan creates. */
  created: ReadonlySet<string>;
}

/** Landed is what the service answered to a change's request, as verification needs it. */
interface Landed {
  /** The view created, updated or removed. */
  viewId?: string;
  /** A pinned list's answer: the new list. */
  pinned?: readonly ApiView[];
}

/** VerifyContext is what was read back after apply. */
export interface VerifyContext {
  /** The listing of the change's domain, read after the writes. */
  listing: readonly ApiView[];
  /** `createdKey` to id of every view this run created. */
  createdIds: ReadonlyMap<string, string>;
}

/** createdKey identifies a view created in this run: its name within its domain. */
export function createdKey(domain: Domain, name: string): string {
  return `${domain}\u0000${name}`;
}

/** stepOf is a request of the route table as the plan stores it, naming its change. */
export function stepOf(change: number, request: ServiceRequest): PlanStep {
  return {
    change,
    method: request.method,
    route: request.route,
    params: request.params ?? {},
    query: Object.fromEntries(Object.entries(request.query ?? {}).flatMap(([key, value]) => (value === undefined ? [] : [[key, String(value)]]))),
    ...(request.body === undefined ? {} : { body: request.body as JsonObject }),
  };
}

/** cannotApply is the error of a change apply cannot carry out exactly. */
export function cannotApply(message: string): ViewctlError {
  return new ViewctlError('plan.invalid', `cannot apply this plan: ${message}`, {
    hint: 'run viewctl plan again to get a plan apply can carry out',
  });
}
