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

export type { ChangeOrigin, ViewSnapshot, JsonPatchOperation, CreateChange, UpdateChange, DeleteChange, PinnedTab, PinChange, DriftChange, Change, NewViewTab, PlanStep, PlanWarning } from '../kinds/changes.js';
import type { Change, ChangeOrigin, PlanStep, PlanWarning } from '../kinds/changes.js';
import type { LoweredBudget } from '../state/read-ceiling.js';

/** CHANGE_ORIGINS lists the origins in the order plans show their changes, after the pull request's own. */
export const CHANGE_ORIGINS: readonly ChangeOrigin[] = ['outside', 'unapplied-or-outside', 'membership'];

/** Plan is what `plan` computes, renders and saves, and what `apply --plan` carries out. */
export interface Plan {
  formatVersion: typeof PLAN_FORMAT_VERSION;
  workspace: { id: string; name: string };
  /** The `--target` selectors of a targeted plan: only these were read and planned, and nothing pruned. */
  targets?: string[];
  /** Owner of the views the plan creates; present whenever it creates any. */
  creatorEmail?: string;
  changes: Change[];
  /**
   * The requests apply sends, in the order it sends them, each naming its change:
   * `apply --plan` rebuilds them from the changes and refuses a file where they differ.
   */
  steps: PlanStep[];
  summary: Record<Action, number>;
  /**
   * Members a group `PinnedViews` document reaches by a glob or a role who are not
   * active (deactivated or invited), and so skipped; present when the manifests have a
   * group document.
   */
  skippedMembers?: number;
  requests: {
    /** Requests the plan used to read live state. */
    used: number;
    /** Requests apply needs: the writes, plus one list read per touched view domain to verify. */
    applyNeeds: number;
    /**
     * Daily quota left after the plan, when the service said. The daily total is not
     * written: no header of the service says it (plans of earlier builds wrote 3,000 as
     * `dailyQuota`; the schema still accepts it, and nothing reads it).
     */
    dailyRemaining: number | null;
    /**
     * Present when what the service said was left today (`left`), less `--reserve`,
     * lowered `--budget`: `most` is the most the plan could spend.
     */
    ceiling?: LoweredBudget;
  };
  /**
   * For each change target, a hash of the live state the change was computed from
   * (the stale check). A target absent live (a create) hashes the absence.
   */
  liveHashes: Record<string, string>;
  /**
   * Present when the plan read only some pinned lists (`--base REF`, `--budget N`): the
   * lists it left unread were not checked for drift. See `PlanScope`.
   */
  scope?: PlanScope;
  /**
   * Warnings to show with the plan (e.g. a prune candidate left alone by `ignore`).
   * A file written before warnings had codes holds their texts: `parsePlanFile` reads
   * each as a warning of code `plan.warning`.
   */
  warnings: PlanWarning[];
  /** SHA-256 hex of the canonical JSON of every field but `digest` and `requests` (see `planDigest`). */
  digest: string;
}

/**
 * PlanScope says which pinned lists a scoped plan read. `lists` is how many the
 * manifests declare, `unread` how many the plan left unread; with `--base REF` they are
 * the lists whose desired value is the same at REF and now and that name no view the
 * plan creates, renames or deletes; with `--budget N`, those outside today's slice.
 */
export interface PlanScope {
  /** `--base REF`: the ref as given and the commit it resolved to. */
  base?: { ref: string; commit: string };
  /** `--budget N`: the most requests the plan could spend. */
  budget?: number;
  lists: number;
  unread: number;
  /** The slice read today (1-based `index` of `count`), when the budget could not cover every list. */
  slice?: { index: number; count: number };
}
