import type { JsonObject, ViewPatchBody } from './api-types.js';
import type { AppOwnable } from './app-owns.js';
import type { Domain } from './domains.js';
import type { SourcePosition } from './source-position.js';

/**
 * Desired is what the manifests declare, after validation. Attributes a view manifest
 * omits are absent from `managed` and so unmanaged (README, Manifests).
 */
export interface Desired {
  workspace: DesiredWorkspace;
  views: DesiredView[];
  /** One per domain of each per-member (`userEmail`) `PinnedViews` document. */
  pins: DesiredPins[];
  /**
   * One per domain of each group (`users` / `roles`) `PinnedViews` document; absent or
   * empty when there is none. `memberPinLists` (src/kinds/pin-members.ts) expands them.
   */
  pinGroups?: DesiredPinGroup[];
  /** Absent when no `AdminAutomations` document is declared. */
  automations?: DesiredAutomations;
  /**
   * What the documents of registered kinds declare (`Manifests` in
   * src/kinds/capabilities.ts), by each kind's `slice`: absent for a kind none of whose
   * documents is loaded, and in a targeted plan.
   */
  slices?: Readonly<Record<string, unknown>>;
  /**
   * The `--target` selectors this state was narrowed to (src/plan/targets-selection.ts),
   * as the plan records them; absent for a whole plan.
   */
  targets?: string[];
  /**
   * With `--target pins/EMAIL`: the lower-cased emails whose lists are planned. Group
   * documents stay in `pinGroups` (only the users list tells whom they reach), and the
   * plan keeps just these members' lists once the groups are expanded.
   */
  pinMembers?: string[];
}

/** DesiredWorkspace is the `Workspace` document, or its defaults when there is none. */
export interface DesiredWorkspace {
  workspaceId?: string;
  creatorEmail?: string;
  /** `owned`: prune only views owned by `creatorEmail`, never views people made in the app. */
  prune: boolean | 'owned';
  /** Name globs that prune and drift leave alone. */
  ignore: string[];
  /** `appOwns`: the attributes every view document that gives none of its own leaves to the app. */
  appOwns?: AppOwnable[];
  source?: SourcePosition;
  /** Where `workspaceId` and `creatorEmail` are written, so refusals about them point there. */
  workspaceIdSource?: SourcePosition;
  creatorEmailSource?: SourcePosition;
}

/** ManagedViewAttributes are the view attributes a manifest can manage: what a PATCH sends, but the name. */
export type ManagedViewAttributes = Omit<ViewPatchBody, 'name'>;

/** DesiredView is one view document (`RecordingView`, `DealView`, ...). */
export interface DesiredView {
  domain: Domain;
  name: string;
  /** Binds the manifest to this live view; lets a rename be an update. */
  viewId?: string;
  managed: ManagedViewAttributes;
  /**
   * The attributes left to the app (the document's `appOwns`, else the Workspace's),
   * absent when none: their `managed` value, if any, only serves a create.
   */
  appOwns?: AppOwnable[];
  /** The document's start: where the plan lists the view. */
  source: SourcePosition;
  /** Where `name` and `viewId` are written, so refusals about them point there. */
  nameSource?: SourcePosition;
  viewIdSource?: SourcePosition;
}

/** PinRef names a view in a pinned list: by name, or by id (for private views). */
export type PinRef = { name: string } | { viewId: string };

/**
 * DesiredPins is one member's desired pinned list in one domain: one domain of a
 * per-member `PinnedViews` document, or of a group document expanded for a member
 * (then `group` names it).
 */
export interface DesiredPins {
  userEmail: string;
  domain: Domain;
  refs: PinRef[];
  /** The document drops the private views the member pins today that it does not list. */
  unpinPrivate: boolean;
  /**
   * `include`: the listed tabs must be pinned, the member's other tabs and the order
   * are theirs (src/kinds/pin-include.ts); absent for `exact`, the default.
   */
  mode?: 'include';
  /** With `mode: include`: names of views to remove where pinned, each with its position. */
  unpin?: { name: string; source: SourcePosition }[];
  /** Where the domain's list is written. */
  source: SourcePosition;
  /** Position of each entry of `refs`, same order. */
  refSources: SourcePosition[];
  /** The group document this list comes from; absent for a `userEmail` document. */
  group?: PinGroupRef;
}

/** PinGroupRef names a group `PinnedViews` document: its `name` and where the document starts. */
export interface PinGroupRef {
  name: string;
  source: SourcePosition;
}

/** MemberRole is a workspace role a group document can select members by. */
export type MemberRole = 'Owner' | 'Admin' | 'Member';

/** PinGroupMember is one `users` entry of a group document: an email, or a glob when it holds `*` or `?`. */
interface PinGroupMember {
  pattern: string;
  isGlob: boolean;
  source: SourcePosition;
}

/** DesiredPinGroup is one domain of one group `PinnedViews` document, before it is expanded to members. */
export interface DesiredPinGroup extends Omit<DesiredPins, 'userEmail' | 'group'> {
  group: PinGroupRef;
  users: PinGroupMember[];
  roles: MemberRole[];
  /** Where `roles` is written, when it is. */
  rolesSource?: SourcePosition;
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
