import type { JsonObject } from '../domain/api-types.js';
import type { Domain } from '../domain/domains.js';
import { InternalError, ViewctlError } from '../errors.js';
import type { ServiceRequest } from '../service/types.js';
import type { LiveRead } from '../state/live-read.js';
import type { Desired, Live } from '../state/types.js';
import type { SweepMemory } from '../state/sweep-memory.js';
import type { RefusalReason } from '../domain/refusal-reason.js';
import type { NameMatcher } from '../text/glob.js';
import type { Change, ChangeShape, HeldTarget, NewViewTab, PlanStep, PlanWarning } from './changes.js';
import type { ExecutionContext, WriteAnswer } from './execution.js';
import type { DeclaredViewRef, HeldViewRef } from './declared-view-ref.js';

/**
 * A resource kind is a small core every kind answers, plus capabilities a kind may
 * implement (src/kinds/capabilities.ts: the saved plan's re-checks, the drift labels,
 * the sweep memory's answers, self-heal's repairs, presentation, manifests, `--target`
 * names, reads after the first diff), each found
 * by a type guard and replaced, for a kind that lacks it, by a default that is correct
 * for it (as Grizzly's handlers: one small interface, defaults, optional interfaces
 * found by assertion). The core says, as data: what a kind reads, how desired and live
 * differ, the steps and how each is carried out, the verification, the stale hash, the
 * target, and the saved-plan rule re-check. The engine (`planReads`, `computePlan`,
 * `planSteps`, `liveHashesFor`, `executeOperations`, `checkApplied`,
 * `identityProblems`, `liveRuleProblems`, the flows) loops over `kinds()` and never
 * switches on an action or a target: what an action is (destructive, what a report
 * counts it as, its verb) is data too (`KindAction`).
 */
export interface Kind<C extends ChangeShape = Change> {
  /**
   * actions are the actions of this kind's changes, in the order plans list them: a
   * change belongs to the kind that names its action (`kindOf`).
   */
  actions: readonly KindAction[];
  /**
   * planReads are what planning `desired` reads live for this kind, as data: requests
   * of the route table whose answers go under the kind's key of `Live`, sent at once
   * after the workspace (reads only a later phase can name, as the members' pinned
   * lists, which need the users, are not among them).
   */
  planReads(desired: Desired): LiveRead[];
  /**
   * wantsUsers tells, once the plan's first reads are in (`read`), whether this kind's
   * diff needs the workspace's members; before any read (`read` undefined), whether it
   * may need them (what a budget must leave room for). `memory` is the sweep memory
   * the diff will take advice from (`DiffContext.memory`), when the plan has one.
   * Absent: never.
   */
  wantsUsers?(desired: Desired, read: Partial<Live> | undefined, memory?: SweepMemory): boolean;
  /** diff is this kind's changes, refusals and warnings; `context` carries what kinds before it in `kinds()` decided. */
  diff(desired: Desired, live: Live, context: DiffContext): KindDiff<C>;
  /**
   * planWarnings warns about the whole plan once its changes are ordered (saved views:
   * a create whose name looks like that of a view the plan deletes); shown after this
   * kind's own diff warnings. Absent: none.
   */
  planWarnings?(changes: readonly Change[]): PlanWarning[];
  /**
   * sortKey orders two changes of one action, domain and name, so equal inputs give
   * byte-equal plans. Absent: the change's target, which names it uniquely.
   */
  sortKey?(change: C): string;
  /** creates is the `createdKey` of what `change` creates (which later steps may name), or undefined; absent: nothing. */
  creates?(change: C): string | undefined;
  /** reads are what `apply --plan` re-reads to stale-check and re-check `change`, as data. */
  reads(change: C): ChangeReads;
  /** steps are the requests that carry `change` (at `index` in the plan) out, in the order sent; none for what is never applied. */
  steps(change: C, index: number, context: StepContext): PlanStep[];
  /**
   * sent is the request to send for one of this kind's stored steps that names what
   * the run creates (`step.newViewTabs`), once what it names landed: `createdIds` maps
   * the `createdKey` of every view created so far (a pinned list's new tabs take their
   * ids). A step that cannot be resolved throws a ViewctlError. Absent: the kind's steps
   * never name what the run creates, and are sent as stored.
   */
  sent?(step: StoredStep, createdIds: ReadonlyMap<string, string>): ServiceRequest;
  /**
   * hashed is the live state a stale check of `target` covers, or undefined when the
   * target is not this kind's; `change` is the plan's change of it, when there is one
   * (it may say what of the target the plan leaves alone, such as a view's `appOwns`).
   */
  hashed(target: string, live: Live, change?: Change): unknown;
  /**
   * execute carries one of `change`'s steps out (`context.request`) and answers what
   * landed; a write that failed throws a ViewctlError (a `MayHaveLandedError` when it
   * may have been carried out all the same).
   */
  execute(change: C, context: ExecutionContext): Promise<WriteAnswer>;
  /** verifyReads are what apply reads back, once `change` landed, to verify it (none when the step's answer suffices). */
  verifyReads(change: C): LiveRead[];
  /** verify says what is not as `change` said after its steps landed, or undefined when all is. */
  verify(change: C, landed: WriteAnswer, context: VerifyContext): string | undefined;
  /** target is the target `change` acts on, named from its own fields: a saved plan's change must carry it. */
  target(change: C): string;
  /**
   * recheck re-checks the fail-safe rules for this kind's changes of a saved plan
   * against the live state apply re-read, as `plan` checks them against what it reads.
   * A problem names the change it is about (its index in `plan.changes`), or none for a
   * rule about several.
   */
  recheck(plan: SavedPlan, live: Live): RecheckProblem[];
}

/**
 * DriftDetails are what a change with an origin carries beside it (`SweepMemoryAnswers.driftWhen`):
 * `since` (and `already`, the memory saw its target so then), and a view's owner (and
 * email, when the plan read the users).
 */
export interface DriftDetails {
  since?: string;
  already?: true;
  ownerId?: string;
  ownerEmail?: string;
}

/** MemberList is one member's pinned list a change writes (`SweepMemoryAnswers.memberList`). */
export interface MemberList {
  /** The list's key in the memory's lists and in `Live.pins` (`pinsKey`). */
  key: string;
  /** The member's email in lower case: their key in the memory's members. */
  member: string;
  /** The group document that gives the member this list; absent for a member's own document. */
  group?: string;
  /** The ids the list holds live, in tab order. */
  liveIds: (string | null)[];
  /** The list holds only built-in default views live: no one ever set this member's tabs. */
  defaultsOnly?: true;
}

/** RepairRole is what self-heal does with a change, and the words its report counts it in ("1 pin list", "12 pin lists"). */
export interface RepairRole {
  repairable: boolean;
  noun: { one: string; many: string };
  /**
   * Every target the last apply may have held this change's manifest under (README,
   * "What stays held"), when the change may name it by another: self-heal leaves the
   * change when any is held. Absent: the change's own target only.
   */
  heldAs?: string[];
}

/**
 * ChangeTest answers a yes-or-no question about one change. `test` is a method so that
 * a kind's test of its own changes stands for a test of the changes it is asked about.
 */
export interface ChangeTest<C extends ChangeShape = Change> {
  test(change: C): boolean;
}

/** ChangeReads are the reads a saved plan's change needs, and whether it needs the workspace's members too. */
export interface ChangeReads {
  reads: LiveRead[];
  users?: boolean;
}

/** SavedPlan is what a saved plan's re-checks see of it: every change, and who creates views. */
export interface SavedPlan {
  changes: readonly Change[];
  creatorEmail?: string;
}

/** RecheckProblem is one rule a saved plan breaks against the live state: about `changes[index]`, or the plan as a whole. */
export interface RecheckProblem {
  index?: number;
  problem: string;
}

/**
 * KindAction is one action of a kind's changes, as data: its name, the JSON Schema of
 * such a change in a plan file (`$ref`s resolve in `schemas/plan/plan.schema.json`),
 * when apply carries it out (its phase), and its traits: what gates and reports ask of
 * an action rather than of its name (`--max-deletes` counts what is destructive, the
 * apply report counts by `countedAs`, the plan names it by its verb).
 */
export interface KindAction {
  action: string;
  schema: JsonObject;
  /**
   * When apply runs this action's steps: lower phases first (the built-in ones are 10
   * create, 20 update, 30 pin, 40 delete, leaving room between). Absent: shown, never applied.
   */
  phase?: number;
  /**
   * verb is how a plan's summary line names the action (six characters or fewer keep
   * the columns: `create`, `pins`, `drift`).
   */
  verb: string;
  /**
   * countedAs is what the apply report counts one landed change of it as (`1 created,
   * 0 updated, 2 pin lists, 1 deleted`) and what the plan's totals add it to. Absent:
   * never counted (what is never applied).
   */
  countedAs?: ActionCount;
  /**
   * destructive: the change removes what apply cannot bring back as it was (a deleted
   * view's id, its pinners); `--max-deletes` counts such changes, and plans show them
   * in red, each named, never folded away.
   */
  destructive?: true;
}

/** ActionCount is one of the apply report's counts (its JSON's `counts` keys). */
export type ActionCount = 'created' | 'updated' | 'pinned' | 'deleted';

/**
 * DiffContext is what a kind's diff needs from the rest of the plan: the ignore globs
 * and the memory, which any kind may use, and what the saved views decided
 * (`declared`, `deleted`, `heldViews`, by domain), which the pinned lists resolve their
 * names against: the one dependency between kinds, typed so both sides are checked. A
 * kind that depends on no other ignores them.
 */
export interface DiffContext {
  /** The Workspace document's `ignore` globs. */
  ignored: NameMatcher;
  /** Per domain, every declared view as pins will see it after apply. */
  declared: ReadonlyMap<Domain, readonly DeclaredViewRef[]>;
  /** Per domain, the id and name of every view the plan deletes. */
  deleted: ReadonlyMap<Domain, ReadonlyMap<string, string>>;
  /** Per domain, every declared view the plan holds: a list naming one is held with it. */
  heldViews: ReadonlyMap<Domain, readonly HeldViewRef[]>;
  /** The sweep memory (`--ledger FILE`) when the plan has one: advice (a view seen live and public), never a reason to write unchecked. */
  memory?: SweepMemory;
  /** The manifests at `--base REF` when they loaded: a view document renamed since binds its old view (view-base-renames.ts). */
  base?: Desired;
  /**
   * Self-heal's plan: nothing a reviewer saw decides what it writes but the desired
   * state last applied, so a change only the memory's advice makes (a pinned name only
   * the memory knows as a view's old name) is held, never repaired.
   */
  repair?: true;
}

/** KindDiff is what a kind's diff yields; `declared`, `deleted` and `heldViews` pass on to the kinds after it. */
interface KindDiff<C extends ChangeShape = Change> {
  changes: C[];
  reasons: RefusalReason[];
  warnings: PlanWarning[];
  /** Targets left out because of the live workspace, with their reasons; the rest of the plan goes on. */
  held?: HeldTarget[];
  declared?: Map<Domain, DeclaredViewRef[]>;
  deleted?: Map<Domain, Map<string, string>>;
  heldViews?: Map<Domain, HeldViewRef[]>;
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

/** StoredStep is a stored step about to be sent (`Kind.sent`): its request, the tabs it names that the run creates, and what it acts on. */
export interface StoredStep {
  request: ServiceRequest;
  newViewTabs: readonly NewViewTab[];
  subject: StepSubject;
}

/** StepSubject is what a step acts on, as apply reports it. */
export interface StepSubject {
  /** The view name, or for a pinned list `userEmail domain`. */
  name: string;
  domain?: Domain;
  /** The id of the existing resource the step acts on. */
  id?: string;
  userEmail?: string;
}

/** VerifyContext is what was read back after apply. */
export interface VerifyContext {
  /** What the landed changes' `verifyReads` read after the writes, stored as live state is. */
  readBack: Partial<Live>;
  /** `createdKey` to id of every view this run created. */
  createdIds: ReadonlyMap<string, string>;
}

/** createdKey identifies a view created in this run: its name within its domain. */
export function createdKey(domain: Domain, name: string): string {
  return `${domain}\u0000${name}`;
}

/**
 * stepOf is a request of the route table as the plan stores it, naming its change. A
 * step writes (the plan schema's methods): a read handed here is viewctl's fault.
 */
export function stepOf(change: number, request: ServiceRequest): PlanStep {
  if (request.method === 'GET') throw new InternalError(`a plan step must write, not read: GET ${request.route}`);
  return {
    change,
    method: request.method,
    route: request.route,
    params: request.params ?? {},
    query: Object.fromEntries(
      Object.entries(request.query ?? {}).flatMap(([key, value]) =>
        value === undefined ? [] : [[key, String(value)]],
      ),
    ),
    ...(request.body === undefined ? {} : { body: request.body as JsonObject }),
  };
}

/** cannotApply is the error of a change apply cannot carry out exactly. */
export function cannotApply(message: string): ViewctlError {
  return new ViewctlError('plan.invalid', `cannot apply this plan: ${message}`, {
    hint: 'run viewctl plan again to get a plan apply can carry out',
  });
}
