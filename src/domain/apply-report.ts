import type { ResourceKind, Domain } from './domains.js';
import type * as Schema from './generated/plan-types.js';

/**
 * The apply report as data (README, "apply"): what landed, what failed and what was not
 * attempted, the verification and self-heal's account. src/apply/ builds it,
 * src/render/apply-report.ts renders it, the sweep memory learns from it; it sits here,
 * below all three, so a renderer reads a report handed to it without knowing apply.
 */

/** ReportEntry is one write of an apply as the report names it (`Presentation.subject` of its change). */
export interface ReportEntry {
  action: Schema.Change['action'];
  kind: ResourceKind;
  /** View name, or `userEmail domain` for a pinned list. */
  name: string;
  domain?: Domain;
  id?: string;
  userEmail?: string;
  /** `adopted`: a create whose response was lost; `already-gone`: a delete that found nothing. */
  note?: 'adopted' | 'already-gone';
  error?: OperationError;
}

/** ApplyReport is what `apply` reports, in text or as JSON (`--format json`). */
export interface ApplyReport {
  formatVersion: 1;
  /**
   * `applied`: every operation landed and verified. `partial`: anything else after
   * writing began. `already-applied`: a saved plan whose every change an earlier apply
   * carried out; nothing was sent. `held`: a saved plan every change of which was held
   * or already applied (`held` names them); nothing was sent.
   */
  status: 'applied' | 'partial' | 'already-applied' | 'held';
  /** Why the run stopped before attempting everything, when it did. */
  stopped: StoppedReason;
  workspace: { id: string; name: string };
  digest: string;
  counts: { created: number; updated: number; pinned: number; deleted: number };
  landed: ReportEntry[];
  /**
   * Writes that failed in a way that does not prove they were not carried out (a lost
   * answer, a 5xx, an unreadable success): the next plan shows whether they landed.
   */
  mayHaveLanded: ReportEntry[];
  /** Writes the service refused or that certainly never reached it. */
  failed: ReportEntry[];
  notAttempted: ReportEntry[];
  /** A saved plan's changes an earlier apply carried out (their targets are at the plan's `after`): not sent again. */
  alreadyApplied: ReportEntry[];
  /** Null when verification did not run (a run stopped early is not verified). */
  verification: { problems: VerificationProblem[] } | null;
  requests: number;
  elapsedMs: number;
  /** What to do next, on a partial outcome. */
  next?: string;
  /**
   * A saved plan's targets held, not written (README, "Fail-safe rules"): each changed in
   * the app since the plan was reviewed, or depends on one that did. Absent when none.
   */
  held?: HeldSection;
  /** Self-heal (`apply --budget`): what it repaired, and what it left for a reviewed apply or the next night. */
  repair?: RepairSection;
}

/** StoppedReason is why an apply stopped before attempting every write; null when it attempted them all. */
export type StoppedReason = null | 'failure' | 'aborted';

/** OperationError is the service's account of a failed operation, for the report. */
export interface OperationError {
  code: string;
  message: string;
  /** The write may have been carried out although it failed (see ServiceError.mayHaveLanded). */
  mayHaveLanded?: boolean;
  status?: number;
  /** The service's `error.type` (`validation_error`, ...). */
  errorType?: string;
  /** The service's `error.path`: the offending attribute. */
  path?: string;
  /**
   * The refusal came from a change made while this run applied, not from the manifests
   * (a view the write named was deleted, such as by a concurrent run's clean-up of
   * copies): nothing needs fixing, a new plan converges. Set by `explainLostPins`.
   */
  concurrentChange?: boolean;
}

/** VerificationProblem is one thing that is not as the plan said after apply. */
export interface VerificationProblem {
  changeIndex: number;
  kind: string;
  name: string;
  id?: string;
  message: string;
}

/** RepairGroup is the changes of one kind of repair: how the kind counts them, how many, and whom or what (members, view names). */
export interface RepairGroup {
  /** The kind's words for `count` of them ("pin lists", "view re-created"). */
  what: string;
  count: number;
  /** The member of each pinned list, the name of each view, in plan order. */
  names: string[];
  /** Present when `names` are members (the pinned lists'), not view names. */
  members?: true;
}

/** RepairSection is the apply report's account of a self-heal run. */
export interface RepairSection {
  repaired: RepairGroup[];
  leftForReview: RepairGroup[];
  /** Changes of targets the last apply held: no reviewer saw them, so they wait for a reviewed apply. */
  heldWhenApplied: RepairGroup[];
  /** Pinned lists naming a view whose create is left for a reviewed apply: they wait for it. */
  waitingForReview: RepairGroup[];
  /** Pinned lists naming a view whose create is left for the next night: they wait for it; absent when none. */
  waitingForCreate?: RepairGroup[];
  leftForNextNight: RepairGroup[];
  /** Pinned lists beyond `--max-pin-changes`, left for the next night or a reviewed apply; absent when none. */
  leftOverPinLimit?: { lists: RepairGroup[]; maxPinChanges: number };
  /** What the plan shows and apply never carries out (drift of the automations): fixed only in the workspace. */
  neverApplied: RepairGroup[];
  /** How many targets the plan held (README, "Fail-safe rules"): neither planned nor repaired. */
  held: number;
  /** `--budget N` as given, and what its reads were kept to. */
  budget: { given: number; reads: number };
}

/**
 * HeldEntry is one target of a saved plan that `apply --plan` held: `apply.stale-target`,
 * it changed since the plan was reviewed, in the app or by another apply (`reason`: what the plan expected
 * and what it is now, as its kind says); `apply.held-dependent`, its change depends on
 * a held one (`dependsOn`, that target). A stale target lists what is held with it.
 */
export interface HeldEntry {
  target: string;
  code: 'apply.stale-target' | 'apply.held-dependent';
  /** The change as a message names it ("pinned deals tabs of a@x.com"). */
  change: string;
  reason: string;
  /** `apply.held-dependent`: the held target it depends on. */
  dependsOn?: string;
  /** `apply.stale-target`: the targets held because they depend on it. */
  dependents?: string[];
}

/** HeldSection is what an apply of a saved plan held, and how to carry those targets out. */
export interface HeldSection {
  targets: HeldEntry[];
  /** The commands that plan the held targets again for a review (README, "Fail-safe rules"). */
  next: string;
}
