import type { ApiUser, JsonObject } from '../domain/api-types.js';
import type { DesiredPins } from '../domain/desired.js';
import type { RefusalReason } from '../domain/refusal-reason.js';
import type { SourcePosition } from '../domain/source-position.js';
import type { LiveRead } from '../state/live-read.js';
import type { AppliedFacts } from '../state/memory-applied.js';
import type { SweepMemory } from '../state/sweep-memory.js';
import type { Desired, Live } from '../state/types.js';
import type { Change, ChangeShape, PlanWarning } from './changes.js';
import type { DriftCause, DriftPlan } from './drift-cause.js';
import type { WriteAnswer } from './execution.js';
import type { ChangeTest, DriftDetails, Kind, MemberList, RepairRole, StepSubject } from './kind.js';

/**
 * The capabilities a kind may implement beside its core (`Kind`), each a small
 * interface found by a type guard (`hasSavedPlanChecks`, ...) and, for a kind that
 * lacks it, replaced by a default that is correct for such a kind: a kind that cannot
 * tell whether a saved plan's change is already live never skips one (its target is
 * stale, and apply holds it), nor carries one out while another is held (it cannot say
 * it does not depend on it), one that knows no drift never labels a change as made in
 * the app, one the memory keeps nothing of teaches it nothing, one that does not say
 * what self-heal may repair is left for a reviewed apply. The engine asks through the
 * accessors here (`savedPlanChecks(kind)`, ...), never a kind's member directly.
 */

/**
 * SavedPlanChecks is what `apply --plan` asks of a change beyond the core's target and
 * rules: whether its fields agree, and whether the live state already holds what it
 * leaves (README, "The plan file and its digest").
 */
export interface SavedPlanChecks<C extends ChangeShape = Change> {
  /** identityProblems are where the fields of a saved plan's `change` disagree with each other (a plan file is trusted in nothing). */
  identityProblems(change: C, creatorEmail: string | undefined): string[];
  /**
   * alreadyLive is what `live` (the saved plan's re-read) shows of `change` when it already
   * holds what the change leaves, its `after`, as `verify` would accept it: `apply
   * --plan` then skips the change as already applied. A create answers the live view's
   * id, so a pinned list naming it resolves. Undefined when the live state is not at
   * `after`, and always for what is never applied.
   */
  alreadyLive(change: C, live: Live): WriteAnswer | undefined;
  /**
   * undoAlreadyLive is `live` as it was before `change` landed (`shown`: what `alreadyLive`
   * answered), as far as the hashes of other targets see it. A saved plan applied
   * part-way checks the targets it still applies against it, since their hashes may
   * cover what the plan's own changes already live altered (a pinned list's covers its
   * domain's listing, which a create or a rename changes). Absent, or `live` unchanged
   * when it cannot say, such a target stays stale: never a false "as planned".
   */
  undoAlreadyLive?(change: C, shown: WriteAnswer, live: Live): Live;
  /**
   * staleWhy says how `change`'s target differs now (`live`, the re-read) from what the
   * plan expected of it, its `before`, in a reader's words ("the tabs are now A, B; the
   * plan expected B, A"): `apply --plan` holds a stale target and names why. Absent: it
   * is not as the plan expected, no more said.
   */
  staleWhy?(change: C, live: Live): string;
  /**
   * dependsOn is the change among `held` (changes of the saved plan apply holds, any
   * kind) without which `change` would not be what its reviewer approved (a pinned list
   * naming a view a held create makes, or by the name a held rename gives it), and why,
   * in a reader's words; undefined when it depends on none of them. Absent: the kind
   * cannot tell, so its change is held with the first held change (never carried out
   * on the strength of a write that was not made).
   */
  dependsOn?(change: C, held: readonly Change[]): HeldDependency | undefined;
}

/** HeldDependency is the held change another one depends on (`SavedPlanChecks.dependsOn`), and why it does. */
export interface HeldDependency {
  change: Change;
  /** Why, e.g. `it names "Deals", which the held create makes`. */
  why: string;
}

/**
 * DriftLabels is how a kind tells changes made in the app from the manifests' own
 * (README, "Changes made outside viewctl, labelled" and "Drift: who, what, when").
 */
export interface DriftLabels<C extends ChangeShape = Change> {
  /**
   * askedAlike tells, for this kind's changes of a `--base REF` plan, whether the
   * manifests at REF (`base`) ask of the change's target what the current manifests
   * ask, against the same live state: the "changed outside" comparison. Called once
   * per plan, lazily; its answer is asked per change.
   */
  askedAlike(base: Desired, live: Live): ChangeTest<C>;
  /**
   * driftCause is what happened in the app to make `change`'s target differ, told from
   * the change and what the rest of the plan tells (`plan`: a view deleted in the app
   * that it creates again): the plan's drift lines group by it. Asked only of a change
   * with an origin other than `membership`.
   */
  driftCause(change: C, plan?: DriftPlan): DriftCause;
  /**
   * driftScope is what the plan's drift lines group `change` by beside its cause and
   * origin, named once per group: a member's tabs by their domain (one line covers the
   * members), a view by its kind. Absent: the change's `kind`.
   */
  driftScope?(change: C): string;
}

/**
 * SweepMemoryAnswers is what the sweep memory (`--ledger FILE`) learns from and tells of
 * a kind's changes (README, "Drift: who, what, when"): the service records neither
 * editor nor time, so only the kind knows which of the memory's dates bound its targets.
 */
export interface SweepMemoryAnswers<C extends ChangeShape = Change> {
  /**
   * driftWhen is when, and by whom, `change` (which has an origin) came about, as far as
   * the memory and the live state tell; and whether the memory already saw the target
   * as it is now.
   */
  driftWhen(change: C, live: Live, memory: SweepMemory | undefined): DriftDetails;
  /**
   * remember is what one landed write of `change` teaches the memory, as part of an
   * apply's `AppliedFacts`: a write is as good as a read of what it wrote. `landed` is
   * the write as apply's report names it (a create's `id` is the new view's);
   * `createdIds` maps the `createdKey` of every view the run created (or found created)
   * to its id, so a list naming one by its name is remembered with its id.
   */
  remember(change: C, landed: StepSubject, createdIds: ReadonlyMap<string, string>): Partial<AppliedFacts>;
  /**
   * memberList is the one member's pinned list `change` writes, when it writes one: the
   * drift labels compare it with what the memory read of that list and saw of that
   * member, to tell a group's new member's tabs (`membership`) from tabs changed in the
   * app. Absent, or undefined: `change` writes no member's list.
   */
  memberList?(change: C): MemberList | undefined;
}

/** Repairs is what self-heal (`apply --budget N`, README "Self-heal: `apply --budget`") may do with a kind's changes. */
export interface Repairs<C extends ChangeShape = Change> {
  /**
   * repair says what self-heal does with `change`, when the manifests are the last
   * applied ones: carry it out (`repairable`: it restores what a reviewed apply already
   * set) or leave it for a reviewed apply (what destroys never is); and what its report
   * counts it as. Asked only of changes apply carries out.
   */
  repair(change: C): RepairRole;
}

/** Presentation is how apply's report and its messages name a kind's changes. */
export interface Presentation<C extends ChangeShape = Change> {
  /** subject is what apply's report names for a step of `change`. */
  subject(change: C): StepSubject;
  /** describe is how a message names `change`; absent: its action, kind, name and id. */
  describe?(change: C): string;
}

/**
 * Manifests is what a kind declares in the manifests beyond the built-in documents:
 * each manifest `kind` it reads, with its JSON Schema (the loader validates its
 * documents against it, with file:line:column problems as for any other), and the
 * slice of the desired state its documents make (`Desired.slices[slice]`, which its
 * diff reads). Absent: the kind reads only what the built-in documents declare.
 */
export interface Manifests {
  manifests: readonly ManifestKind[];
  /** slice is the key of `Desired.slices` this kind's documents fill: absent when no document of its kinds is loaded. */
  slice: string;
  /** desired is the slice the validated documents of this kind's manifest kinds make, in the order loaded. */
  desired(documents: readonly KindDocument[]): unknown;
}

/** ManifestKind is one manifest `kind` a kind declares, and the JSON Schema of its documents (`$ref`s resolve against schemas/). */
export interface ManifestKind {
  kind: string;
  schema: JsonObject;
}

/** KindDocument is one validated manifest document as a kind reads it: its body and where each part of it is written. */
export interface KindDocument {
  kind: string;
  body: Record<string, unknown>;
  position: SourcePosition;
  positionOf(pointer: string): SourcePosition;
}

/**
 * SecondReads is what a kind reads only once the plan's first reads are diffed (README,
 * "Scoped and budgeted plans"): its documents expand to one read each only with the
 * users, and which of them a plan reads depends on what the first diff creates, renames
 * or deletes and on the plan's scope (`--base`, `--budget`), which the plan decides over
 * the keyed entries the kind hands it. The pinned lists are such reads: one per member
 * and domain. Absent: the kind reads everything in the first phase (`Kind.planReads`).
 */
export interface SecondReads {
  /** declaresSecondReads tells whether `desired` declares anything read in the second phase: the least a plan reads counts one such read. */
  declaresSecondReads(desired: Desired): boolean;
  /** secondReadsNeedUsers tells whether expanding `desired` (the manifests now, or at REF) to its reads needs the workspace's users. */
  secondReadsNeedUsers(desired: Desired): boolean;
  /**
   * secondReads expands `desired` to one keyed entry per read, with the users when the
   * plan read them, in a stable order; `reasons` refuse the plan before any such read,
   * `warnings` go with it, `skipped` (when the documents reach members through the
   * users) counts those they reached who are not active. A `--target` the entries do
   * not cover throws `target.unknown`.
   */
  secondReads(desired: Desired, users: readonly ApiUser[] | undefined): ExpandedSecondReads;
  /** secondRead is the read of one entry, as data: its answer goes under the kind's key of `Live`. */
  secondRead(entry: SecondRead): LiveRead;
  /**
   * refusedRead tells, when the service refused `entry`'s read with `error` and the plan
   * did not read the users, what the users (read once, by `users()`) say of it: the
   * warnings of an entry left unread, or reasons that refuse the plan. Undefined: the
   * error stands.
   */
  refusedRead(
    error: unknown,
    entry: SecondRead,
    users: () => Promise<readonly ApiUser[]>,
  ): Promise<{ reasons: RefusalReason[]; warnings: PlanWarning[] } | undefined>;
  /** narrowed is `desired` as the diff sees it once `read` are the entries read: the kind's documents replaced by them (none before the second phase). */
  narrowed(desired: Desired, read: readonly SecondRead[]): Desired;
}

/**
 * SecondRead is one read of the second phase: its key (`pinsKey`, the key of its answer
 * in `Live` and of the sweep memory's lists) and the desired list it reads for, which
 * the plan's scope compares with the list at REF and with the views the plan touches.
 */
export interface SecondRead {
  key: string;
  pins: DesiredPins;
}

/** ExpandedSecondReads are a kind's second-phase reads of the manifests, and what expanding them found. */
export interface ExpandedSecondReads {
  entries: SecondRead[];
  reasons: RefusalReason[];
  warnings: PlanWarning[];
  skipped?: number;
}

/**
 * Targets is how `--target KIND/NAME` names a kind's targets (README, "Working alongside
 * the app"): the KIND, the names its manifests declare, and what of its slices of the
 * desired state a plan of only some of them diffs (which must then leave the others
 * alone, as a `--target` plan turns prune off). Absent: `--target` cannot name its
 * targets, and a plan with any `--target` leaves them out.
 */
export interface Targets {
  /** targetKind is the KIND of `--target KIND/NAME` (`Note` for `Note/Weekly review`). */
  targetKind: string;
  /** targetNames are the names of the targets `desired` declares of this kind, as `--target` writes them. */
  targetNames(desired: Desired): readonly string[];
  /** selectedSlices are the kind's slices of `desired` narrowed to the targets `names` (each one of `targetNames`). */
  selectedSlices(desired: Desired, names: ReadonlySet<string>): Readonly<Record<string, unknown>>;
}

/** hasSavedPlanChecks tells whether `kind` checks its saved plans' changes beyond the core. */
export function hasSavedPlanChecks<C extends ChangeShape>(kind: Kind<C>): kind is Kind<C> & SavedPlanChecks<C> {
  const checks = kind as Partial<SavedPlanChecks<C>>;
  return typeof checks.identityProblems === 'function' && typeof checks.alreadyLive === 'function';
}

/** hasDriftLabels tells whether `kind` labels its changes made in the app. */
export function hasDriftLabels<C extends ChangeShape>(kind: Kind<C>): kind is Kind<C> & DriftLabels<C> {
  const labels = kind as Partial<DriftLabels<C>>;
  return typeof labels.askedAlike === 'function' && typeof labels.driftCause === 'function';
}

/** hasSweepMemoryAnswers tells whether the sweep memory learns from and tells of `kind`'s changes. */
export function hasSweepMemoryAnswers<C extends ChangeShape>(kind: Kind<C>): kind is Kind<C> & SweepMemoryAnswers<C> {
  const answers = kind as Partial<SweepMemoryAnswers<C>>;
  return typeof answers.driftWhen === 'function' && typeof answers.remember === 'function';
}

/** hasRepairs tells whether `kind` says what self-heal may repair. */
export function hasRepairs<C extends ChangeShape>(kind: Kind<C>): kind is Kind<C> & Repairs<C> {
  return typeof (kind as Partial<Repairs<C>>).repair === 'function';
}

/** hasPresentation tells whether `kind` names its changes itself. */
export function hasPresentation<C extends ChangeShape>(kind: Kind<C>): kind is Kind<C> & Presentation<C> {
  return typeof (kind as Partial<Presentation<C>>).subject === 'function';
}

/** hasManifests tells whether `kind` declares manifest kinds of its own. */
export function hasManifests<C extends ChangeShape>(kind: Kind<C>): kind is Kind<C> & Manifests {
  const declared = kind as Partial<Manifests>;
  return Array.isArray(declared.manifests) && typeof declared.desired === 'function';
}

/** hasTargets tells whether `--target KIND/NAME` can name `kind`'s targets. */
export function hasTargets<C extends ChangeShape>(kind: Kind<C>): kind is Kind<C> & Targets {
  const targets = kind as Partial<Targets>;
  return typeof targets.targetKind === 'string' && typeof targets.targetNames === 'function';
}

/** hasSecondReads tells whether `kind` reads in the plan's second phase (`SecondReads`); the default is none. */
export function hasSecondReads<C extends ChangeShape>(kind: Kind<C>): kind is Kind<C> & SecondReads {
  const reads = kind as Partial<SecondReads>;
  return typeof reads.secondReads === 'function' && typeof reads.secondRead === 'function';
}

/**
 * NO_SAVED_PLAN_CHECKS: the engine's own checks (the target, the stored steps, the
 * rules) are all; a change is never taken as already applied, so a saved plan's change
 * whose target moved is held as stale rather than skipped.
 */
const NO_SAVED_PLAN_CHECKS: SavedPlanChecks = {
  identityProblems: () => [],
  alreadyLive: () => undefined,
};

/** NO_DRIFT_LABELS: every change is the manifests' own; none is labelled as made in the app. */
const NO_DRIFT_LABELS: DriftLabels = {
  askedAlike: () => ({ test: () => false }),
  driftCause: () => 'edited',
};

/** NO_MEMORY_ANSWERS: the memory keeps nothing of the kind, so it neither dates its changes nor learns from its writes. */
const NO_MEMORY_ANSWERS: SweepMemoryAnswers = {
  driftWhen: () => ({}),
  remember: () => ({}),
};

/** NO_REPAIRS: self-heal carries out nothing the kind did not say it may; its changes wait for a reviewed apply. */
const NO_REPAIRS: Repairs = {
  repair: (change) => ({ repairable: false, noun: { one: `${change.kind} change`, many: `${change.kind} changes` } }),
};

/** NAMED_BY_FIELDS: a change is named by its own name, and its id when it has one. */
const NAMED_BY_FIELDS: Presentation = {
  subject: (change) => ({ name: change.name, ...('id' in change && change.id !== undefined ? { id: change.id } : {}) }),
};

/** savedPlanChecks are `kind`'s saved-plan checks, or the defaults (`NO_SAVED_PLAN_CHECKS`). */
export function savedPlanChecks(kind: Kind): SavedPlanChecks {
  return hasSavedPlanChecks(kind) ? kind : NO_SAVED_PLAN_CHECKS;
}

/** staleWhy is how `change`'s target differs now from what the plan expected, as its kind says (`SavedPlanChecks.staleWhy`), or a plain default. */
export function staleWhy(kind: Kind, change: Change, live: Live): string {
  return savedPlanChecks(kind).staleWhy?.(change, live) ?? 'it is not as the plan expected';
}

/**
 * heldDependency is the held change `change` depends on, as its kind says
 * (`SavedPlanChecks.dependsOn`); a kind that cannot tell depends on the first of `held`.
 */
export function heldDependency(kind: Kind, change: Change, held: readonly Change[]): HeldDependency | undefined {
  const dependsOn = savedPlanChecks(kind).dependsOn;
  if (dependsOn !== undefined) return dependsOn(change, held);
  const first = held[0];
  return first === undefined
    ? undefined
    : { change: first, why: `its kind (${change.kind}) cannot tell which held change it depends on` };
}

/** driftLabels are `kind`'s drift labels, or the defaults (`NO_DRIFT_LABELS`). */
export function driftLabels(kind: Kind): DriftLabels {
  return hasDriftLabels(kind) ? kind : NO_DRIFT_LABELS;
}

/** sweepMemoryAnswers are `kind`'s answers to the sweep memory, or the defaults (`NO_MEMORY_ANSWERS`). */
export function sweepMemoryAnswers(kind: Kind): SweepMemoryAnswers {
  return hasSweepMemoryAnswers(kind) ? kind : NO_MEMORY_ANSWERS;
}

/** repairs are what `kind` lets self-heal repair, or the default (`NO_REPAIRS`). */
export function repairs(kind: Kind): Repairs {
  return hasRepairs(kind) ? kind : NO_REPAIRS;
}

/** presentation is how `kind` names its changes, or the default (`NAMED_BY_FIELDS`). */
export function presentation(kind: Kind): Presentation {
  return hasPresentation(kind) ? kind : NAMED_BY_FIELDS;
}

/** describeChange is how a message names `change`: as its kind describes it, or its action, kind, name and id. */
export function describeChange(kind: Kind, change: Change): string {
  const described = presentation(kind).describe?.(change);
  if (described !== undefined) return described;
  const id = 'id' in change && change.id !== undefined ? ` (${change.id})` : '';
  return `${change.action} ${change.kind} "${change.name}"${id}`;
}
