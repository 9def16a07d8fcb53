import type { ApiView, JsonObject, JsonValue } from '../domain/api-types.js';
import type { HttpMethod } from '../service/types.js';
import type { Domain, ResourceKind, ViewKind } from '../domain/domains.js';
import type { SourcePosition } from '../domain/source-position.js';

/**
 * The changes a plan is made of: what differs between a manifest and the live state,
 * one type per action, each produced by the kind that owns it (src/kinds/). The plan
 * (src/plan/types.ts) collects them; nothing here depends on anything above the kinds.
 */

/**
 * ViewSnapshot is a view normalised for comparison: sets sorted, response-only and
 * server-managed attributes removed, defaults explicit. The same normalisation serves
 * plan, post-apply verification and drift.
 */
export type ViewSnapshot = Pick<ApiView, 'name' | 'icon' | 'columns' | 'filters' | 'sort'>;

/** JsonPatchOperation is one RFC 6902 operation. */
export interface JsonPatchOperation {
  op: 'add' | 'remove' | 'replace' | 'move' | 'copy' | 'test';
  path: string;
  value?: JsonValue;
  from?: string;
}

/** ChangeBase holds what every change has: its stale-check target and its source. */
interface ChangeBase {
  /** Stable key of the target; `Plan.liveHashes[target]` is the live hash it was computed from. */
  target: string;
  kind: ResourceKind;
  name: string;
  /** Manifest position that causes the change; absent for prune deletes. */
  source?: SourcePosition;
  /**
   * Why the change is in a plan made with `--base REF` though the pull request did not
   * ask for it (see `ChangeOrigin`). Absent for the changes the manifests' own edits cause.
   */
  origin?: ChangeOrigin;
}

/**
 * ChangeOrigin says why a change of a `--base REF` plan is there when the manifests ask
 * the same of its target at REF and now (README, "Changes made outside viewctl,
 * labelled"): `outside`, REF was the last state applied and someone changed the target
 * in the app since, so applying reverts their edit; `unapplied-or-outside`, the same
 * but nothing says REF was applied, so REF's own change may never have been applied;
 * `membership`, a group reaches the member only because the workspace's members changed
 * (joined, left, role changed), not the manifests.
 */
export type ChangeOrigin = 'outside' | 'unapplied-or-outside' | 'membership';

/** CreateChange creates a public saved view owned by `Plan.creatorEmail`. */
export interface CreateChange extends ChangeBase {
  action: 'create';
  kind: ViewKind;
  domain: Domain;
  before: null;
  after: ViewSnapshot;
}

/** UpdateChange PATCHes the attributes of a view that differ. */
export interface UpdateChange extends ChangeBase {
  action: 'update';
  kind: ViewKind;
  domain: Domain;
  id: string;
  before: ViewSnapshot;
  after: ViewSnapshot;
  /** RFC 6902 patch from `before` to `after`. */
  patch: JsonPatchOperation[];
}

/** DeleteChange deletes a public saved view that no manifest declares (prune). */
export interface DeleteChange extends ChangeBase {
  action: 'delete';
  kind: ViewKind;
  domain: Domain;
  id: string;
  before: ViewSnapshot;
  after: null;
  reason: 'prune';
  ownerId: string;
  /** The owner's email, when the plan read the users (only to check `creatorEmail`). */
  ownerEmail?: string;
  /** Emails of the users read by this plan who have the view pinned. */
  pinnedBy: string[];
}

/** PinnedTab is one tab of a pinned list: its view as listed, but `viewId` is null for a view this plan creates. */
export interface PinnedTab extends Pick<ApiView, 'name' | 'visibility' | 'isDefault'> {
  viewId: string | null;
}

/** PinChange replaces the pinned list of one user in one domain. */
export interface PinChange extends ChangeBase {
  action: 'pin';
  kind: 'PinnedViews';
  domain: Domain;
  userEmail: string;
  before: PinnedTab[];
  after: PinnedTab[];
  /** The name of the group `PinnedViews` document the list comes from; absent for a `userEmail` document. */
  group?: string;
  /**
   * Present (true) when the list drops private tabs the member pins today, which only a
   * document saying `unpinPrivate: true` allows; `apply --plan` refuses such a drop otherwise.
   */
  unpinPrivate?: true;
}

/** DriftDifference is one attribute where a live automation differs from the expectation. */
export interface DriftDifference {
  /** JSON pointer in the automation, or `/priority` for its position. */
  pointer: string;
  expected?: JsonValue;
  actual?: JsonValue;
}

/** DriftChange reports an admin automation that differs from what is expected; never applied. */
export interface DriftChange extends ChangeBase {
  action: 'drift';
  kind: 'AdminAutomation';
  id?: string;
  /** The live automation, or null when an expected one is missing. */
  before: JsonObject | null;
  /** The expectation, or null when a live automation is not expected. */
  after: JsonObject | null;
  differences: DriftDifference[];
}

/** Change is any change of the built-in kinds, a tagged union on `action`; a kind's actions name it in the registry (`kindOf`). */
export type Change = CreateChange | UpdateChange | DeleteChange | PinChange | DriftChange;

/**
 * PlanWarning is something a reviewer should know that changes nothing: a stable
 * `code` (warnings of one code are shown as one line), what it says and, when a
 * manifest causes it, where.
 */
export interface PlanWarning {
  code: string;
  message: string;
  source?: SourcePosition;
}

/** NewViewTab is a pinned tab naming a view this run creates, resolved once the create answers. */
export interface NewViewTab {
  /** Index in `body.viewIds`, which holds null there until resolved. */
  index: number;
  /** The created view's name, within the step's domain. */
  name: string;
}

/** PlanStep is one request apply sends for a change: method, route template, params, query and body. */
export interface PlanStep {
  /** Index of the change in `plan.changes` that this request carries out. */
  change: number;
  method: HttpMethod;
  /** The route template of the route table, e.g. `/v1/recordings/views/{viewId}`. */
  route: string;
  params: Record<string, string>;
  query: Record<string, string>;
  body?: JsonObject;
  /** A pinned list only: tabs naming a view this run creates (null in `body.viewIds` until then). */
  newViewTabs?: NewViewTab[];
}
