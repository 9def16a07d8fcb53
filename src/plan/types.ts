/**
 * The plan is plain, serialisable data: `--format json` and
 * `--out` are its serialisation, and `apply --plan` reads it back. What differs
 * (a Change) is kept apart from which request fixes it (a PlanStep, which names its
 * change: what is reviewed and what is sent are one file).
 */

/** PLAN_FORMAT_VERSION is the `formatVersion` of plans this build writes and reads. */
export const PLAN_FORMAT_VERSION = 1;

/** Action is what a change does; the registry of kinds (`actionNames`) lists them in the order plans show them. */
export type Action = Change['action'];

export type {
  ChangeOrigin,
  ViewSnapshot,
  JsonPatchOperation,
  CreateChange,
  UpdateChange,
  DeleteChange,
  PinnedTab,
  PinChange,
  DriftChange,
  Change,
  NewViewTab,
  PlanStep,
  PlanWarning,
  HeldTarget,
} from '../kinds/changes.js';
import type * as Schema from '../domain/generated/plan-types.js';
import type { Narrowed } from '../domain/narrowed.js';
import type { Change, ChangeOrigin, PlanStep, PlanWarning } from '../kinds/changes.js';
import type { LoweredBudget } from '../state/read-ceiling.js';

/** CHANGE_ORIGINS lists the origins in the order plans show their changes, after the pull request's own. */
export const CHANGE_ORIGINS: readonly ChangeOrigin[] = ['outside', 'unapplied-or-outside', 'membership'];

/**
 * Plan is what `plan` computes, renders and saves, and what `apply --plan` carries out:
 * the plan file's shape as generated from `schemas/plan/plan.schema.json`
 * (src/domain/generated/plan-types.ts), narrowed where a plan in memory says more than
 * a file may. It always has its `steps` (`parsePlanFile` rebuilds those of a file
 * written before plans stored them) and its warnings have codes (a file written before
 * that holds their texts: `parsePlanFile` reads each as a warning of code `plan.warning`).
 * The `digest` is the SHA-256 hex of the canonical JSON of every field but `digest`,
 * `requests` and `manifests` (see `planDigest`).
 */
export interface Plan
  extends Narrowed<
    Schema.Plan,
    {
      formatVersion: typeof PLAN_FORMAT_VERSION;
      changes: Change[];
      steps: PlanStep[];
      summary: Record<Action, number>;
      requests: PlanRequests;
      scope?: PlanScope;
      warnings: PlanWarning[];
    }
  > {}

/**
 * PlanRequests counts the plan's requests: `used` to read live state, `applyNeeds` for
 * apply (the writes, plus one list read per touched view domain to verify),
 * `dailyRemaining` the daily quota left after the plan when the service said (the daily
 * total is not written: no header of the service says it; plans of earlier builds wrote
 * 3,000 as `dailyQuota`, which nothing reads), and `ceiling` when what the service said
 * was left today, less `--reserve`, lowered `--budget`.
 */
export interface PlanRequests extends Narrowed<Schema.Plan['requests'], { ceiling?: LoweredBudget }> {}

/**
 * PlanScope says which pinned lists a scoped plan read (`--base REF`, `--budget N`): the
 * lists it left unread were not checked for drift. `lists` is how many the manifests
 * declare, `unread` how many the plan left unread; with `--base REF` (`base`: the ref as
 * given and the commit it resolved to) they are the lists whose desired value is the
 * same at REF and now and that name no view the plan creates, renames or deletes; with
 * `--budget N` (`budget`), those the night's schedule left for later nights, with what
 * the night covered and promises (`coverage`, README "The nightly sweep's promise");
 * plans of earlier builds hold a `slice` (1-based `index` of `count`) instead.
 */
export type PlanScope = Schema.PlanScope;

/**
 * PlanDrift is how many of a plan's changes are drift (have an origin), beside the
 * per-action `summary` that counts them too; without `--base`, the last applied commit
 * the origins were judged against and how many changes were merged since, not yet applied.
 */
export type PlanDrift = Schema.PlanDrift;
