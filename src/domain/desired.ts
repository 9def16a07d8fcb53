import type { JsonObject } from './api-types.js';
import type { Domain } from './domains.js';
import type { SourcePosition } from './source-position.js';

/**
 * Desired is what the manifests declare, after validation. Attributes a view manifest
 * omits are absent from `managed` and so unmanaged (README, Manifests).
 */
export interface Desired {
  workspace: DesiredWorkspace;
  views: DesiredView[];
  pins: DesiredPins[];
  /** Absent when no `AdminAutomations` document is declared. */
  automations?: DesiredAutomations;
  /**
   * The `--target` selectors this state was narrowed to (src/plan/targets-selection.ts),
   * as the plan records them; absent for a whole plan.
   */
  targets?: string[];
}

/** DesiredWorkspace is the `Workspace` document, or its defaults when there is none. */
export interface DesiredWorkspace {
  workspaceId?: string;
  creatorEmail?: string;
  /** `owned`: prune only views owned by `creatorEmail`, never views people made in the app. */
  prune: boolean | 'owned';
  /** Name globs that prune and drift leave alone. */
  ignore: string[];
  source?: SourcePosition;
  /** Where `workspaceId` and `creatorEmail` are written, so refusals about them point there. */
  workspaceIdSource?: SourcePosition;
  creatorEmailSource?: SourcePosition;
}

/** ManagedViewAttributes are the view attributes a manifest can manage. `icon: null` removes the icon. */
export interface ManagedViewAttributes {
  icon?: string | null;
  columns?: JsonObject[];
  filters?: JsonObject;
  sort?: JsonObject[];
}

/** DesiredView is one view document (`RecordingView`, `DealView`, ...). */
export interface DesiredView {
  domain: Domain;
  name: string;
  /** Binds the manifest to this live view; lets a rename be an update. */
  viewId?: string;
  managed: ManagedViewAttributes;
  /** The document's start: where the plan lists the view. */
  source: SourcePosition;
  /** Where `name` and `viewId` are written, so refusals about them point there. */
  nameSource?: SourcePosition;
  viewIdSource?: SourcePosition;
}

/** PinRef names a view in a pinned list: by name, or by id (for private views). */
export type PinRef = { name: string } | { viewId: string };

/** DesiredPins is one domain of one `PinnedViews` document. */
export interface DesiredPins {
  userEmail: string;
  domain: Domain;
  refs: PinRef[];
  /** The document allows dropping private views the user has pinned today. */
  unpinPrivate: boolean;
  source: SourcePosition;
  /** Position of each entry of `refs`, same order. */
  refSources: SourcePosition[];
}

/** ExpectedAutomation is one entry of an `AdminAutomations` document; omitted attributes are not compared. */
export interface ExpectedAutomation {
  name: string;
  color?: string;
  disallowUserOverride?: boolean;
  filters?: JsonObject[];
  actions?: JsonObject;
  source: SourcePosition;
}

/** DesiredAutomations is the `AdminAutomations` document: the complete list in priority order. */
export interface DesiredAutomations {
  automations: ExpectedAutomation[];
  source: SourcePosition;
}
