/**
 * Generated from schemas/plan/plan.schema.json by `npm run schemas:types`. Do not edit:
 * change the schema and regenerate (a test fails when this file is out of date).
 */

/**
 * This interface was referenced by `Plan`'s JSON-Schema
 * via the `definition` "change".
 */
export type Change = CreateChange | UpdateChange | DeleteChange | PinChange | DriftChange;
/**
 * This interface was referenced by `Plan`'s JSON-Schema
 * via the `definition` "viewKind".
 */
export type ViewKind = 'RecordingView' | 'DealView' | 'CompanyView' | 'ContactView';
/**
 * In a plan made with --base REF, on a change whose target the manifests ask the same of at REF and now (absent: the pull request's own change); in a plan without --base that labels origins (a --budget sweep, or a plan with the sweep memory), the same against the last applied commit, or on every change when that commit is unknown or is the manifests' own (absent: merged since the last apply, not yet applied). outside: REF is the last applied state and the target was changed in the app since; applying reverts it. unapplied-or-outside: the target differs live, but nothing says REF was applied, so it was either never applied or changed in the app. membership: a group document reaches the member only because the workspace's members changed (joined, left, role changed), not the manifests.
 */
export type ChangeOrigin = 'outside' | 'unapplied-or-outside' | 'membership';
/**
 * This interface was referenced by `Plan`'s JSON-Schema
 * via the `definition` "domain".
 */
export type Domain = 'recordings' | 'deals' | 'companies' | 'contacts';
/**
 * This interface was referenced by `Plan`'s JSON-Schema
 * via the `definition` "count".
 */
export type Count = number;

/**
 * A plan file written by `viewctl plan --out FILE` (or `--format json`) and read by `viewctl apply --plan FILE`. Format version 1. Files written before plans stored their `steps` have none; apply rebuilds them from the changes.
 */
export interface Plan {
  formatVersion: 1;
  workspace: {
    id: string;
    name: string;
  };
  /**
   * Owner of the views the plan creates; present whenever it creates any.
   */
  creatorEmail?: string;
  /**
   * The --target selectors of a targeted plan (KIND/NAME, pins/EMAIL, automations): only these were read and planned, and nothing was pruned.
   *
   * @minItems 1
   */
  targets?: string[];
  /**
   * Targets left out of the plan because of a problem in the live workspace, not in the manifests (a member who left, a bound view that is gone, an inactive creatorEmail), with every change that depends on them; absent when nothing is held. Shown first.
   */
  held?: HeldTarget[];
  changes: Change[];
  /**
   * The requests apply sends, in the order it sends them (creates, updates, pinned lists, deletes), each naming the change it carries out; apply --plan rebuilds them from the changes and refuses a file where they differ.
   */
  steps?: PlanStep[];
  summary: {
    create: Count;
    update: Count;
    delete: Count;
    pin: Count;
    drift: Count;
  };
  drifted?: PlanDrift;
  /**
   * Members a group PinnedViews document reaches by a glob or a role who are not active (deactivated or invited), and so skipped; present when the manifests have a group document.
   */
  skippedMembers?: number;
  /**
   * The attributes the manifests leave to the app (`appOwns`), each with how many declared views leave it: never compared, repaired or pulled. Absent when none.
   */
  appOwns?: {
    attribute: 'columns' | 'filters' | 'sort' | 'icon';
    views: number;
  }[];
  requests: {
    used: Count;
    applyNeeds: Count;
    /**
     * What `apply --plan` of this file re-reads before its first write (the workspace, each target, the users when the plan creates views): applying the file costs this and `applyNeeds`. Absent in plans of earlier builds.
     */
    recheck?: number;
    dailyRemaining: Count | null;
    /**
     * Written by earlier builds (the 3,000 of the service's documentation) and ignored: no header of the service says the daily total, so plans no longer carry it.
     */
    dailyQuota?: number;
    /**
     * Present when what the service said was left today, less --reserve, lowered --budget: the plan spent at most `most` requests.
     */
    ceiling?: {
      most: Count;
      left: Count;
      reserve: Count;
    };
  };
  /**
   * For each change target, a hash of the live state the change was computed from (the stale check); a target absent live (a create) hashes the absence.
   */
  liveHashes: {
    [k: string]: string;
  };
  scope?: PlanScope;
  /**
   * Warnings shown with the plan. Plans written before warnings had codes hold their texts; apply reads each as code plan.warning.
   */
  warnings: (PlanWarning | string)[];
  /**
   * SHA-256 hex of the canonical JSON of every field but digest, requests and manifests.
   */
  digest: string;
  /**
   * Written by plan --out (and --format json) from a clean git checkout: the git object ids at HEAD of the manifest paths (keyed by path from the repository's top folder). apply --plan advances the sweep memory's last applied commit only when HEAD holds exactly these. Outside the digest, like requests: a plan and an apply of the same manifests have one digest.
   */
  manifests?: {
    trees: {
      [k: string]: string;
    };
  };
}
/**
 * This interface was referenced by `Plan`'s JSON-Schema
 * via the `definition` "held".
 */
export interface HeldTarget {
  /**
   * The held target, as changes name theirs (view:..., new-view:..., pins:...).
   */
  target: string;
  code: string;
  /**
   * Why it is held.
   */
  reason: string;
  /**
   * What to do so it is planned again.
   */
  wayOut: string;
  source?: SourcePosition;
}
/**
 * This interface was referenced by `Plan`'s JSON-Schema
 * via the `definition` "source".
 */
export interface SourcePosition {
  file: string;
  line: number;
  column: number;
}
/**
 * This interface was referenced by `Plan`'s JSON-Schema
 * via the `definition` "create".
 */
export interface CreateChange {
  action: 'create';
  /**
   * Stable key of the target: liveHashes[target] is the hash of the live state the change was computed from.
   */
  target: string;
  kind: ViewKind;
  name: string;
  source?: SourcePosition;
  origin?: ChangeOrigin;
  /**
   * Only on a change with an origin, when the sweep memory knows it: when its target was last read (a pinned list) or last seen (a view), ISO 8601 UTC. The service records neither editor nor time: the change happened between then and the plan.
   */
  since?: string;
  /**
   * Only with since: the target was already so when last read (a list holding the same tabs) or seen (a view of the same name, and of the same attributes where the update writes them), so it changed before since, at a time no one recorded, and no apply has repaired it since.
   */
  already?: true;
  domain: Domain;
  before: null;
  after: ViewSnapshot;
  /**
   * Only on the create of a view a manifest binds by viewId that the sweep memory saw live and public and the service no longer lists: it was deleted in the app, and the create makes it again (origin outside). Apply re-checks that the id is still gone and the name still free.
   */
  deletedOutside?: {
    /**
     * The id the manifest binds (its viewId), which the service no longer lists.
     */
    id: string;
    /**
     * When the sweep memory last saw that id live and public (ISO 8601 UTC).
     */
    lastSeen: string;
  };
}
/**
 * A view normalised for comparison.
 *
 * This interface was referenced by `Plan`'s JSON-Schema
 * via the `definition` "view".
 */
export interface ViewSnapshot {
  name: string;
  icon?: string;
  columns: {
    [k: string]: unknown;
  }[];
  filters: {
    [k: string]: unknown;
  };
  sort: {
    [k: string]: unknown;
  }[];
}
/**
 * This interface was referenced by `Plan`'s JSON-Schema
 * via the `definition` "update".
 */
export interface UpdateChange {
  action: 'update';
  /**
   * Stable key of the target: liveHashes[target] is the hash of the live state the change was computed from.
   */
  target: string;
  kind: ViewKind;
  name: string;
  source?: SourcePosition;
  origin?: ChangeOrigin;
  /**
   * Only on a change with an origin, when the sweep memory knows it: when its target was last read (a pinned list) or last seen (a view), ISO 8601 UTC. The service records neither editor nor time: the change happened between then and the plan.
   */
  since?: string;
  /**
   * Only with since: the target was already so when last read (a list holding the same tabs) or seen (a view of the same name, and of the same attributes where the update writes them), so it changed before since, at a time no one recorded, and no apply has repaired it since.
   */
  already?: true;
  domain: Domain;
  id: string;
  before: ViewSnapshot;
  after: ViewSnapshot;
  /**
   * The RFC 6902 patch from before to after.
   */
  patch: JsonPatchOperation[];
  /**
   * Only on a change with an origin: the view's owner (the service records no editor).
   */
  ownerId?: string;
  /**
   * Only on a change with an origin, when the plan read the users: the owner's email.
   */
  ownerEmail?: string;
  /**
   * The attributes of this view left to the app (`appOwns`): its before and after hold their live value, and the stale check and re-checks leave them out.
   */
  appOwns?: ('columns' | 'filters' | 'sort' | 'icon')[];
}
/**
 * This interface was referenced by `Plan`'s JSON-Schema
 * via the `definition` "patchOperation".
 */
export interface JsonPatchOperation {
  op: 'add' | 'remove' | 'replace' | 'move' | 'copy' | 'test';
  path: string;
  value?: unknown;
  from?: string;
}
/**
 * This interface was referenced by `Plan`'s JSON-Schema
 * via the `definition` "delete".
 */
export interface DeleteChange {
  action: 'delete';
  /**
   * Stable key of the target: liveHashes[target] is the hash of the live state the change was computed from.
   */
  target: string;
  kind: ViewKind;
  name: string;
  source?: SourcePosition;
  origin?: ChangeOrigin;
  /**
   * Only on a change with an origin, when the sweep memory knows it: when its target was last read (a pinned list) or last seen (a view), ISO 8601 UTC. The service records neither editor nor time: the change happened between then and the plan.
   */
  since?: string;
  /**
   * Only with since: the target was already so when last read (a list holding the same tabs) or seen (a view of the same name, and of the same attributes where the update writes them), so it changed before since, at a time no one recorded, and no apply has repaired it since.
   */
  already?: true;
  domain: Domain;
  id: string;
  before: ViewSnapshot;
  after: null;
  reason: 'prune';
  ownerId: string;
  /**
   * The owner's email, when the plan read the users (only to check creatorEmail).
   */
  ownerEmail?: string;
  /**
   * Emails of the users read by the plan who have the view pinned.
   */
  pinnedBy: string[];
  /**
   * In a scoped plan that left pinned lists of the view's domain unread, and in every plan with --pinned-by: how many lists of that domain it read (pinnedBy counts only those) and how many it did not read (they may pin the view too).
   */
  pinLists?: {
    read: Count;
    unread: Count;
    /**
     * Only with the sweep memory (--ledger FILE) when it read some of the lists this plan did not: the last known count of them that pin the view, and its date.
     */
    remembered?: {
      /**
       * Lists of the view's domain not read by this plan that the sweep memory read before.
       */
      lists: number;
      /**
       * How many of those held the view when last read.
       */
      pinning: number;
      /**
       * The oldest last read (ISO 8601 UTC) of the lists that held it, or of all those lists when none did: the figure is at least that recent.
       */
      asOf: string;
    };
    /**
     * Only with --pinned-by: read and unread count every active member's list of the view's domain (one each), not only the lists the manifests declare.
     */
    members?: true;
  };
}
/**
 * This interface was referenced by `Plan`'s JSON-Schema
 * via the `definition` "pin".
 */
export interface PinChange {
  action: 'pin';
  /**
   * Stable key of the target: liveHashes[target] is the hash of the live state the change was computed from.
   */
  target: string;
  kind: 'PinnedViews';
  name: string;
  source?: SourcePosition;
  origin?: ChangeOrigin;
  /**
   * Only on a change with an origin, when the sweep memory knows it: when its target was last read (a pinned list) or last seen (a view), ISO 8601 UTC. The service records neither editor nor time: the change happened between then and the plan.
   */
  since?: string;
  /**
   * Only with since: the target was already so when last read (a list holding the same tabs) or seen (a view of the same name, and of the same attributes where the update writes them), so it changed before since, at a time no one recorded, and no apply has repaired it since.
   */
  already?: true;
  domain: Domain;
  userEmail: string;
  before: PinnedTab[];
  after: PinnedTab[];
  /**
   * The name of the group PinnedViews document the list comes from; absent for a userEmail document.
   */
  group?: string;
  /**
   * Present (true) when the list drops private tabs the member pins today, which only a document saying unpinPrivate: true allows; apply --plan refuses such a drop otherwise.
   */
  unpinPrivate?: true;
}
/**
 * This interface was referenced by `Plan`'s JSON-Schema
 * via the `definition` "tab".
 */
export interface PinnedTab {
  viewId: string | null;
  name: string;
  visibility: 'Public' | 'Private';
  isDefault: boolean;
}
/**
 * This interface was referenced by `Plan`'s JSON-Schema
 * via the `definition` "drift".
 */
export interface DriftChange {
  action: 'drift';
  /**
   * Stable key of the target: liveHashes[target] is the hash of the live state the change was computed from.
   */
  target: string;
  kind: 'AdminAutomation';
  name: string;
  source?: SourcePosition;
  origin?: ChangeOrigin;
  /**
   * Only on a change with an origin, when the sweep memory knows it: when its target was last read (a pinned list) or last seen (a view), ISO 8601 UTC. The service records neither editor nor time: the change happened between then and the plan.
   */
  since?: string;
  /**
   * Only with since: the target was already so when last read (a list holding the same tabs) or seen (a view of the same name, and of the same attributes where the update writes them), so it changed before since, at a time no one recorded, and no apply has repaired it since.
   */
  already?: true;
  id?: string;
  /**
   * The live automation, or null when an expected one is missing.
   */
  before: {
    [k: string]: unknown;
  } | null;
  /**
   * The expectation, or null when a live automation is not expected.
   */
  after: {
    [k: string]: unknown;
  } | null;
  differences: DriftDifference[];
}
export interface DriftDifference {
  /**
   * JSON pointer in the automation, or /priority for its position.
   */
  pointer: string;
  expected?: unknown;
  actual?: unknown;
}
/**
 * This interface was referenced by `Plan`'s JSON-Schema
 * via the `definition` "step".
 */
export interface PlanStep {
  /**
   * Index in changes of the change this request carries out.
   */
  change: number;
  method: 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /**
   * The route template, e.g. /v1/recordings/views/{viewId}.
   */
  route: string;
  /**
   * Values of the route template's {placeholders}.
   */
  params: {
    [k: string]: string;
  };
  query: {
    [k: string]: string;
  };
  /**
   * The JSON body sent; a pinned list holds null in viewIds where a tab names a view created in this run.
   */
  body?: {
    [k: string]: unknown;
  };
  /**
   * A pinned list only: tabs naming a view created earlier in this run, resolved to its id once the create answers.
   *
   * @minItems 1
   */
  newViewTabs?: NewViewTab[];
}
export interface NewViewTab {
  index: Count;
  name: string;
}
/**
 * Present when the plan labelled origins (--base REF, a --budget sweep, or a plan with the sweep memory): how many of its changes are drift, that is have an origin (changed in the app, not applied or changed in the app, or a group's members changed). Each of them is also counted under its action in summary: the two are never added up.
 *
 * This interface was referenced by `Plan`'s JSON-Schema
 * via the `definition` "drifted".
 */
export interface PlanDrift {
  /**
   * The changes with an origin.
   */
  changes: number;
  /**
   * A plan without --base: the manifests' commit the sweep memory says was last applied, and when; the origins were judged against it.
   */
  lastApplied?: {
    commit: string;
    at: string;
  };
  /**
   * A plan without --base whose last applied commit is older than the manifests: the changes without an origin, which the manifests made since and no apply has carried out yet (merged, not yet applied).
   */
  unapplied?: number;
}
/**
 * Present when the plan read only some pinned lists (--base REF, --budget N); unread lists were not checked for drift.
 *
 * This interface was referenced by `Plan`'s JSON-Schema
 * via the `definition` "scope".
 */
export interface PlanScope {
  base?: {
    ref: string;
    commit: string;
  };
  budget?: number;
  lists: Count;
  unread: Count;
  /**
   * Only in a --budget plan whose reads met failures: lists is how many of the lists the plan chose it left unread (counted in unread) because retries of failed requests took their room under the ceiling; retries is how many retries the plan sent.
   */
  crowdedOut?: {
    lists: Count;
    retries: Count;
  };
  coverage?: SweepCoverage;
  /**
   * Written by earlier builds, whose --budget plans read consecutive slices by UTC day; still loaded.
   */
  slice?: {
    index: number;
    count: number;
  };
  /**
   * The domains whose pinned lists the plan did not all read: how many lists of each the manifests declare and how many it left unread (a deleted view is pinned only in its own domain).
   */
  unreadByDomain?: {
    [k: string]: {
      lists: Count;
      unread: Count;
    };
  };
}
/**
 * Only in a --budget plan without --base: which lists the night read and what it promises. order is memory (lists never read before first, then the least recently read, from --ledger) or rotation (by a hash of each list's key); cycle is the number of nights within which every list is read at this room.
 */
export interface SweepCoverage {
  order: 'memory' | 'rotation';
  /**
   * Every list is read within this many nights while the room and the number of lists hold (with memory: while at most newPerNight lists a night are new).
   */
  cycle: number;
  /**
   * With memory: how many of the lists read are new to the sweep: never read as far as the memory knows (a joiner's), or of a member whose role or state changed since the memory saw them (a group may newly reach them).
   */
  neverRead?: number;
  /**
   * The lists left unread this night.
   */
  due: number;
  /**
   * The nights within which the unread lists are read.
   */
  dueWithin: number;
  /**
   * With memory: the room kept each night for lists never read before, which the promise allows for.
   */
  newPerNight?: number;
  /**
   * With memory: lists left unread this night that will have waited longer than cycle nights since their last read even at this room with no new lists (nights without a sweep, a lower budget, more lists): when above 0, a new cycle starts this night.
   */
  overdue?: number;
}
/**
 * This interface was referenced by `Plan`'s JSON-Schema
 * via the `definition` "warning".
 */
export interface PlanWarning {
  code: string;
  message: string;
  source?: SourcePosition;
}
