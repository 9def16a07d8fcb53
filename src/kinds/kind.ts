import type { JsonObject } from '../domain/api-types.js';
import type { Domain } from '../domain/domains.js';
import { InternalError, ViewctlError } from '../errors.js';
import type { ServiceRequest } from '../service/types.js';
import type { LiveRead } from '../state/live-read.js';
import type { Desired, Live } from '../state/types.js';
import type { SweepMemory } from '../state/sweep-memory.js';
import type { AppliedFacts } from '../state/ledger-applied.js';
import type { RefusalReason } from '../domain/refusal-reason.js';
import type { NameMatcher } from '../text/glob.js';
import type { Change, HeldTarget, PlanStep, PlanWarning } from './changes.js';
import type { ExecutionContext, Landed } from './execution.js';
import type { DeclaredViewRef, HeldViewRef } from './declared-view-ref.js';
import type { DriftCause, DriftPlan } from './drift-cause.js';

/**
 * A resource kind answers, for its own changes and targets, every question below, as
 * data: what it reads, how desired and live differ, the steps and how each is carried
 * out, the stale hash, the verification, whether a change already landed, the
 * saved-plan re-checks, the "changed outside" comparison, and what the sweep memory
 * dates, learns and labels of its changes. The engine (`planReads`, `computePlan`,
 * `planSteps`, `liveHashesFor`, `executeOperations`, `checkApplied`,
 * `identityProblems`, `liveRuleProblems`, `changeOrigins`, `driftDetails`,
 * `reachedSinceRead`, `driftGroups`, `landedFacts`, the flows) loops over `kinds()` and
 * never switches on an action or a target.
 */
export interface Kind<C extends Change = Change> {
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
   */
  wantsUsers(desired: Desired, read: Partial<Live> | undefined, memory?: SweepMemory): boolean;
  /** diff is this kind's changes, refusals and warnings; `context` carries what kinds before it in `kinds()` decided. */
  diff(desired: Desired, live: Live, context: DiffContext): KindDiff<C>;
  /**
   * planWarnings warns about the whole plan once its changes are ordered (saved views:
   * a create whose name looks like that of a view the plan deletes); shown after this
   * kind's own diff warnings.
   */
  planWarnings?(changes: readonly Change[]): PlanWarning[];
  /** sortKey orders two changes of one action, domain and name, so equal inputs give byte-equal plans. */
  sortKey(change: C): string;
  /** creates is the `createdKey` of what `change` creates (which later steps may name), or undefined. */
  creates(change: C): string | undefined;
  /** reads are what `apply --plan` re-reads to stale-check and re-check `change`, as data. */
  reads(change: C): ChangeReads;
  /** steps are the requests that carry `change` (at `index` in the plan) out, in the order sent; none for what is never applied. */
  steps(change: C, index: number, context: StepContext): PlanStep[];
  /** hashed is the live state a stale check of `target` covers, or undefined when the target is not this kind's. */
  hashed(target: string, live: Live): unknown;
  /** subject is what apply's report names for a step of `change`. */
  subject(change: C): StepSubject;
  /**
   * execute carries one of `change`'s steps out (`context.request`) and answers what
   * landed; a write that failed throws a ViewctlError (a `MayHaveLandedError` when it
   * may have been carried out all the same).
   */
  execute(change: C, context: ExecutionContext): Promise<Landed>;
  /** verifyReads are what apply reads back, once `change` landed, to verify it (none when the step's answer suffices). */
  verifyReads(change: C): LiveRead[];
  /** verify says what is not as `change` said after its steps landed, or undefined when all is. */
  verify(change: C, landed: Landed, context: VerifyContext): string | undefined;
  /**
   * landed is what `live` (the saved plan's re-read) shows of `change` when it already
   * holds what the change leaves, its `after`, as `verify` would accept it: `apply
   * --plan` then skips the change as already applied (README, "The plan file and its
   * digest"). A create answers the live view's id, so a pinned list naming it resolves.
   * Undefined when the live state is not at `after`, and always for what is never applied.
   */
  landed(change: C, live: Live): Landed | undefined;
  /**
   * unlanded is `live` as it was before `change` landed (`landed`: what `landed`
   * answered), as far as the hashes of other targets see it. A saved plan applied
   * part-way checks the targets it still applies against it, since their hashes may
   * cover what the plan's own landed changes altered (a pinned list's covers its
   * domain's listing, which a create or a rename changes). Absent, or `live` unchanged
   * when it cannot say, such a target stays stale: never a false "as planned".
   */
  unlanded?(change: C, landed: Landed, live: Live): Live;
  /** target is the target `change` acts on, named from its own fields: a saved plan's change must carry it. */
  target(change: C): string;
  /** identityProblems are where the fields of a saved plan's `change` disagree with each other (a plan file is trusted in nothing). */
  identityProblems(change: C, creatorEmail: string | undefined): string[];
  /**
   * recheck re-checks the fail-safe rules for this kind's changes of a saved plan
   * against the live state apply re-read, as `plan` checks them against what it reads.
   * A problem names the change it is about (its index in `plan.changes`), or none for a
   * rule about several.
   */
  recheck(plan: SavedPlan, live: Live): RecheckProblem[];
  /**
   * askedAlike tells, for this kind's changes of a `--base REF` plan, whether the
   * manifests at REF (`base`) ask of the change's target what the current manifests
   * ask, against the same live state (README, "Changes made outside viewctl,
   * labelled"): the "changed outside" comparison. Called once per plan, lazily; its
   * answer is asked per change.
   */
  askedAlike(base: Desired, live: Live): ChangeTest<C>;
  /** describe is how a message names `change` (default: its action, kind, name and id). */
  describe?(change: C): string;
  /**
   * repair says what self-heal (`apply --budget N`, README "Self-heal: `apply
   * --budget`") does with `change`, when the manifests are the last applied ones:
   * carry it out (`repairable`: it restores what a reviewed apply already set, as a
   * pinned list, a view's attributes or a view deleted in the app) or leave it for a
   * reviewed apply (what destroys, as a prune deletion, never is); and what its report
   * counts it as. Asked only of changes apply carries out.
   */
  repair(change: C): RepairRole;
  /**
   * driftWhen is when, and by whom, `change` (which has an origin) came about, as far as
   * the sweep memory (`memory`) and the live state tell (README, "Drift: who, what,
   * when"). The service records neither editor nor time, so only the kind knows which of
   * the memory's dates bounds its target's change (a pinned list's last read, a view's
   * last sighting) and whether the memory already saw the target as it is now. Absent:
   * nothing is known (`{}`), as for a target the memory keeps nothing of.
   */
  driftWhen?(change: C, live: Live, memory: SweepMemory | undefined): DriftDetails;
  /**
   * remember is what one landed write of `change` teaches the sweep memory, as part of an
   * apply's `AppliedFacts`: a write is as good as a read of what it wrote. `landed` is
   * the write as apply's report names it (a create's `id` is the new view's);
   * `createdIds` maps the `createdKey` of every view the run created (or found created)
   * to its id, so a list naming one by its name is remembered with its id. Absent:
   * nothing, as for what the memory keeps nothing of (it holds pinned lists and views).
   */
  remember?(change: C, landed: StepSubject, createdIds: ReadonlyMap<string, string>): Partial<AppliedFacts>;
  /**
   * memberList is the one member's pinned list `change` writes, when it writes one: the
   * drift labels compare it with what the memory read of that list and saw of that
   * member, to tell a group's new member's tabs (`membership`) from tabs changed in the
   * app, and mark such a list pending. Absent, or undefined: `change` writes no
   * member's list.
   */
  memberList?(change: C): MemberList | undefined;
  /**
   * driftScope is what the plan's drift lines group `change` by beside its cause and
   * origin, named once per group: a member's tabs by their domain (one line covers the
   * members), a view by its kind. Absent: the change's `kind`.
   */
  driftScope?(change: C): string;
  /**
   * driftCause is what happened in the app to make `change`'s target differ, told from
   * the change alone (README, "Drift: who, what, when"): the plan's drift lines group by
   * it, and `plan` says what the rest of the plan tells (a view deleted in the app). Asked
   * only of a change with an origin other than `membership`.
   */
  driftCause(change: C, plan?: DriftPlan): DriftCause;
}

/**
 * DriftDetails are what a change with an origin carries beside it (`Kind.driftWhen`):
 * `since` (and `already`, the memory saw its target so then), and a view's owner (and
 * email, when the plan read the users).
 */
export interface DriftDetails {
  since?: string;
  already?: true;
  ownerId?: string;
  ownerEmail?: string;
}

/** MemberList is one member's pinned list a change writes (`Kind.memberList`). */
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
export interface ChangeTest<C extends Change = Change> {
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
 * such a change in a plan file (`$ref`s resolve in `schemas/plan/plan.schema.json`)
 * and, when apply carries it out, its phase.
 */
export interface KindAction {
  action: string;
  schema: JsonObject;
  /**
   * When apply runs this action's steps: lower phases first (the built-in ones are 10
   * create, 20 update, 30 pin, 40 delete, leaving room between). Absent: shown, never applied.
   */
  phase?: number;
}

/** DiffContext is what a kind's diff needs from the rest of the plan. */
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
}

/** KindDiff is what a kind's diff yields; `declared`, `deleted` and `heldViews` pass on to the kinds after it. */
interface KindDiff<C extends Change = Change> {
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
