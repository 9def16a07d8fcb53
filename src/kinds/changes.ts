import type { ApiView, JsonObject, JsonValue } from '../domain/api-types.js';
import type * as Schema from '../domain/generated/plan-types.js';
import type { Narrowed } from '../domain/narrowed.js';

/**
 * The changes a plan is made of: what differs between a manifest and the live state,
 * one type per action, each produced by the kind that owns it (src/kinds/). The plan
 * (src/plan/types.ts) collects them; nothing here depends on anything above the kinds.
 * Their shape is the plan file's, written once in `schemas/plan/plan.schema.json`: the
 * types here are the ones generated from it (src/domain/generated/plan-types.ts, by
 * `npm run schemas:types`), narrowed only where the code knows more than the schema says.
 */

/**
 * ViewSnapshot is a view normalised for comparison: sets sorted, response-only and
 * server-managed attributes removed, defaults explicit. The same normalisation serves
 * plan, post-apply verification and drift. Its columns, filters and sort are JSON.
 */
export interface ViewSnapshot extends Narrowed<Schema.ViewSnapshot, Pick<ApiView, 'columns' | 'filters' | 'sort'>> {}

/** JsonPatchOperation is one RFC 6902 operation; its `value` is JSON. */
export interface JsonPatchOperation extends Narrowed<Schema.JsonPatchOperation, { value?: JsonValue }> {}

/**
 * ChangeOrigin says why a change of a `--base REF` plan is there when the manifests ask
 * the same of its target at REF and now (README, "Changes made outside viewctl,
 * labelled"): `outside`, REF was the last state applied and someone changed the target
 * in the app since, so applying reverts their edit; `unapplied-or-outside`, the same
 * but nothing says REF was applied, so REF's own change may never have been applied;
 * `membership`, a group reaches the member only because the workspace's members changed
 * (joined, left, role changed), not the manifests. Absent for the changes the manifests'
 * own edits cause.
 */
export type ChangeOrigin = Schema.ChangeOrigin;

/** CreateChange creates a public saved view owned by `Plan.creatorEmail`. */
export interface CreateChange extends Narrowed<Schema.CreateChange, { after: ViewSnapshot }> {}

/** UpdateChange PATCHes the attributes of a view that differ. */
export interface UpdateChange
  extends Narrowed<Schema.UpdateChange, { before: ViewSnapshot; after: ViewSnapshot; patch: JsonPatchOperation[] }> {}

/** DeleteChange deletes a public saved view that no manifest declares (prune). */
export interface DeleteChange extends Narrowed<Schema.DeleteChange, { before: ViewSnapshot }> {}

/** PinnedTab is one tab of a pinned list: its view as listed, but `viewId` is null for a view this plan creates. */
export type PinnedTab = Schema.PinnedTab;

/** PinChange replaces the pinned list of one user in one domain. */
export type PinChange = Schema.PinChange;

/** DriftDifference is one attribute where a live automation differs from the expectation; the values are JSON. */
export interface DriftDifference
  extends Narrowed<Schema.DriftDifference, { expected?: JsonValue; actual?: JsonValue }> {}

/** DriftChange reports an admin automation that differs from what is expected; never applied. */
export interface DriftChange
  extends Narrowed<
    Schema.DriftChange,
    { before: JsonObject | null; after: JsonObject | null; differences: DriftDifference[] }
  > {}

/**
 * ChangeShape is what every change has, whatever its kind: the fields the plan
 * schema's changes share, which the engine reads (`kindOf` by the action, the stale
 * check by the target, messages by the kind and name). A kind is typed by its own
 * changes (`Kind<C extends ChangeShape>`); the registry holds kinds of any shape, and
 * each kind is only ever handed its own changes, found by their action.
 */
export interface ChangeShape {
  action: string;
  target: string;
  kind: string;
  name: string;
  source?: Schema.SourcePosition;
  origin?: ChangeOrigin;
}

/** Change is any change of the built-in kinds, a tagged union on `action`; a kind's actions name it in the registry (`kindOf`). */
export type Change = CreateChange | UpdateChange | DeleteChange | PinChange | DriftChange;

/**
 * PlanWarning is something a reviewer should know that changes nothing: a stable
 * `code` (warnings of one code are shown as one line), what it says and, when a
 * manifest causes it, where.
 */
export type PlanWarning = Schema.PlanWarning;

/**
 * HeldTarget is a target left out of the plan because of a problem in the live
 * workspace, not in the manifests (README, "Fail-safe rules", held targets): what it
 * is, a stable `code`, why, and the way out. Changes that depend on it are held too.
 */
export type HeldTarget = Schema.HeldTarget;

/** NewViewTab is a pinned tab naming a view this run creates, resolved once the create answers (`index` in `body.viewIds`). */
export type NewViewTab = Schema.NewViewTab;

/** PlanStep is one request apply sends for a change: method, route template, params, query and body (JSON). */
export interface PlanStep extends Narrowed<Schema.PlanStep, { body?: JsonObject }> {}
