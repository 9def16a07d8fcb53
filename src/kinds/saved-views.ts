import type { ApiView, ViewCreateBody, ViewPatchBody } from '../domain/api-types.js';
import jsonpatch from 'fast-json-patch';
import { VIEW_KINDS, type Domain } from '../domain/domains.js';
import { newViewTarget, parseTarget, viewTarget } from '../domain/targets.js';
import { isPublicSaved } from '../domain/views.js';
import { ROUTES } from '../service/routes.js';
import { jsonEqual } from './canonical.js';
import type { Change, CreateChange, DeleteChange, UpdateChange, ViewSnapshot } from './changes.js';
import { cannotApply, createdKey, stepOf, type Kind, type RepairRole, type VerifyContext } from './kind.js';
import type { WriteAnswer } from './execution.js';
import { normalizeSnapshot, normalizeView, withoutAppOwned } from './normalize.js';
import { createsViews, planViews } from './view-identity.js';
import { planPrune, prunesViews } from './view-prune.js';
import { executeViewChange } from './view-execution.js';
import { recheckViews } from './view-rechecks.js';
import { renameReasons } from './view-renames.js';
import { baseRenames } from './view-base-renames.js';
import { lookAlikeWarnings } from './look-alikes.js';
import { viewsAskedAlike } from './view-asked-alike.js';
import { rememberView, viewDriftWhen } from './view-sweep-memory.js';
import { viewDependsOn, viewStaleWhy } from './view-stale-holds.js';
import { listingRead, listingReads } from '../state/reads.js';
import type { DriftCause } from './drift-cause.js';
import type { DriftLabels, Presentation, Repairs, SavedPlanChecks, SweepMemoryAnswers } from './capabilities.js';

/**
 * The saved views of every domain as one kind: each domain's entry in `VIEW_DOMAINS`
 * (src/domain/domains.ts) decides how its filters normalise; creating, updating, deleting,
 * hashing and verifying are the same for all.
 */

type ViewChange = CreateChange | UpdateChange | DeleteChange;

function isViewChange(change: Change): change is ViewChange {
  return change.action === 'create' || change.action === 'update' || change.action === 'delete';
}

/** SAVED_VIEWS is the `Kind` of the changes of every view kind (`VIEW_KINDS`). */
export const SAVED_VIEWS: Kind<ViewChange> &
  SavedPlanChecks<ViewChange> &
  DriftLabels<ViewChange> &
  SweepMemoryAnswers<ViewChange> &
  Repairs<ViewChange> &
  Presentation<ViewChange> = {
  diff(desired, live, context) {
    // A document renamed since --base renames the live view of its old name (view-base-renames.ts).
    const renames = context.base === undefined ? undefined : baseRenames(context.base, desired);
    const views = planViews(desired, live, context.memory, renames);
    const prune = planPrune(desired, live, views.claimed, context.ignored, views.heldViews);
    const deleted = new Map<Domain, Map<string, string>>();
    for (const change of prune.changes)
      deleted.set(change.domain, (deleted.get(change.domain) ?? new Map<string, string>()).set(change.id, change.name));
    const changes = [...views.changes, ...prune.changes];
    // A rename is refused at the manifest's `name` when it gives one.
    const nameSources = new Map(
      desired.views.flatMap((view) =>
        view.viewId === undefined || view.nameSource === undefined
          ? []
          : [[`${view.domain} ${view.viewId}`, view.nameSource] as const],
      ),
    );
    for (const [view] of renames?.renamed ?? []) {
      const bound = views.changes.find((change) => change.action === 'update' && change.source === view.source);
      if (bound?.action === 'update' && view.nameSource !== undefined)
        nameSources.set(`${view.domain} ${bound.id}`, view.nameSource);
    }
    const refused = renameReasons(live, changes, (rename) => nameSources.get(`${rename.domain} ${rename.id}`));
    return {
      changes,
      reasons: [...views.reasons, ...refused],
      warnings: [...views.warnings, ...prune.warnings],
      held: [...views.held, ...prune.held],
      declared: views.declared,
      deleted,
      heldViews: views.heldViews,
    };
  },

  planWarnings: lookAlikeWarnings,

  actions: [
    { action: 'create', schema: { $ref: '#/$defs/create' }, phase: 10, verb: 'create', countedAs: 'created' },
    { action: 'update', schema: { $ref: '#/$defs/update' }, phase: 20, verb: 'update', countedAs: 'updated' },
    {
      action: 'delete',
      schema: { $ref: '#/$defs/delete' },
      phase: 40,
      verb: 'delete',
      countedAs: 'deleted',
      destructive: true,
    },
  ],

  sortKey: (change) => (change.action === 'create' ? change.target : change.id),

  creates: (change) => (change.action === 'create' ? createdKey(change.domain, change.name) : undefined),

  planReads: (desired) => listingReads(desired.views),

  // Users are read to check creatorEmail (the plan creates views) and to name each
  // pruned view's owner (and find `prune: owned`'s views); before the listings say, any
  // declared view may be created (with a creatorEmail) or leave a view to prune. A
  // view deleted in the app is created again only when the memory saw it.
  wantsUsers: (desired, read, memory) =>
    read === undefined
      ? desired.views.length > 0 && (desired.workspace.creatorEmail !== undefined || desired.workspace.prune !== false)
      : createsViews(desired, read.views ?? {}, memory) || prunesViews(desired, read.views ?? {}),

  // The creator of the views a saved plan creates is re-checked, as plan checks it.
  reads: (change) => ({ reads: [listingRead(change.domain)], ...(change.action === 'create' ? { users: true } : {}) }),

  steps(change, index, context) {
    switch (change.action) {
      case 'create':
        if (context.creatorEmail === undefined)
          throw cannotApply(`the plan creates ${change.kind} "${change.name}" but names no creatorEmail`);
        return [stepOf(index, ROUTES.createView(change.domain, createBody(change.after, context.creatorEmail)))];
      case 'update': {
        const body = patchBody(change.before, change.after);
        if (Object.keys(body).length === 0)
          throw cannotApply(`the update of ${change.kind} "${change.name}" (${change.id}) changes nothing`);
        return [stepOf(index, ROUTES.patchView(change.domain, change.id, body))];
      }
      case 'delete':
        return [stepOf(index, ROUTES.deleteView(change.domain, change.id))];
    }
  },

  hashed(target, live, change) {
    const parsed = parseTarget(target);
    if (parsed?.type === 'view') {
      const view = live.views[parsed.domain]?.find(
        (candidate) => isPublicSaved(candidate) && candidate.viewId === parsed.id,
      );
      // What the app owns may change between plan and apply: the plan never writes it.
      const appOwns = change?.action === 'update' ? change.appOwns : undefined;
      return view === undefined
        ? { id: parsed.id, absent: true }
        : { id: parsed.id, view: withoutAppOwned(normalizeView(parsed.domain, view), appOwns) };
    }
    if (parsed?.type === 'new-view') {
      // A new view is absent live: any public view of its name makes the plan stale.
      const ids = live.views[parsed.domain]
        ?.filter((view) => isPublicSaved(view) && view.name === parsed.name)
        .map((view) => view.viewId)
        .sort();
      return { name: parsed.name, liveIds: ids ?? null };
    }
    return undefined;
  },

  subject: (change) => ({
    name: change.name,
    domain: change.domain,
    ...(change.action === 'create' ? {} : { id: change.id }),
  }),

  // With the manifests last applied, a declared view missing live was deleted in the
  // app (or never created by a failed apply): creating it again, and setting back the
  // attributes (a name included) changed in the app, restores what was reviewed. A prune
  // deletion destroys what someone may still use: only a reviewed apply carries it out.
  repair: (change) => ({ ...REPAIR_ROLES[change.action], heldAs: heldAs(change) }),

  driftCause: viewDriftCause,

  // The memory knows when it last saw each view, and under which name.
  driftWhen: viewDriftWhen,
  remember: (change, landed) => rememberView(change, landed),

  execute: executeViewChange,

  // What landed is compared with the domain's listing, read once for all its changes.
  verifyReads: (change) => [listingRead(change.domain)],

  verify: verifyView,

  // Already applied is what verification would accept of the re-read listing.
  alreadyLive(change, live) {
    const listing = live.views[change.domain];
    if (listing === undefined || verifyView(change, {}, { readBack: live, createdIds: new Map() }) !== undefined)
      return undefined;
    if (change.action !== 'create') return { viewId: change.id };
    // The created view has the id the service gave it, which the plan never knew.
    const view = listing.find((candidate) => !candidate.isDefault && candidate.name === change.after.name);
    return view === undefined ? undefined : { viewId: view.viewId, view };
  },

  // The listing as before: without the view created, the updated view as it was (in
  // place: the listing is in creation order). Where a deleted view stood is lost.
  undoAlreadyLive(change, shown, live) {
    const listing = live.views[change.domain];
    if (listing === undefined || change.action === 'delete') return live;
    const restored =
      change.action === 'create'
        ? listing.filter((view) => view.viewId !== shown.viewId)
        : listing.map((view) => (view.viewId === change.id ? { ...view, ...change.before } : view));
    return { ...live, views: { ...live.views, [change.domain]: restored } };
  },

  // A stale view is held with what depends on it (apply --plan): what changed, and what a create or rename needs.
  staleWhy: viewStaleWhy,
  dependsOn: viewDependsOn,

  target: (change) =>
    change.action === 'create' ? newViewTarget(change.domain, change.after.name) : viewTarget(change.domain, change.id),

  recheck: (plan, live) => recheckViews(plan, live, isViewChange),

  askedAlike: viewsAskedAlike,

  identityProblems(change, creatorEmail) {
    const problems: string[] = [];
    if (change.kind !== VIEW_KINDS[change.domain])
      problems.push(`kind ${change.kind} is not the kind of ${change.domain} views (${VIEW_KINDS[change.domain]})`);
    const shown = change.action === 'delete' ? change.before : change.after;
    if (change.name !== shown.name) problems.push(`is shown as "${change.name}" but names the view "${shown.name}"`);
    for (const [side, snapshot] of [
      ['before', change.before],
      ['after', change.after],
    ] as const) {
      if (snapshot !== null && !jsonEqual(normalizeSnapshot(change.domain, snapshot), snapshot))
        problems.push(`its ${side} is not a view as viewctl writes it`);
    }
    if (change.action === 'update' && !jsonEqual(change.patch, jsonpatch.compare(change.before, change.after))) {
      problems.push('its patch is not the difference between before and after');
    }
    // What a plan leaves to the app it never writes: its stale check and verification skip it.
    const owned = change.action === 'update' ? (change.appOwns ?? []) : [];
    const written = change.action === 'update' ? change.patch.map((operation) => operation.path.split('/')[1]) : [];
    const ownedWritten = owned.filter((attribute) => written.includes(attribute));
    if (ownedWritten.length > 0)
      problems.push(`its patch writes ${ownedWritten.join(', ')}, which it leaves to the app`);
    if (change.action === 'create' && creatorEmail === undefined)
      problems.push('creates a view but the plan names no creatorEmail');
    return problems;
  },
};

/**
 * patchBody holds the top-level attributes that differ between `before` and `after`:
 * a sent attribute replaces its value entirely (the service's view rule 6), so the whole
 * new value goes, and a removed icon is sent as `icon: null`.
 */
export function patchBody(before: ViewSnapshot, after: ViewSnapshot): ViewPatchBody {
  const body: ViewPatchBody = {};
  if (before.name !== after.name) body.name = after.name;
  if (before.icon !== after.icon) body.icon = after.icon ?? null;
  if (!jsonEqual(before.columns, after.columns)) body.columns = after.columns;
  if (!jsonEqual(before.filters, after.filters)) body.filters = after.filters;
  if (!jsonEqual(before.sort, after.sort)) body.sort = after.sort;
  return body;
}

/** createBody is the POST body of a new view owned by `creatorEmail`. */
function createBody(after: ViewSnapshot, creatorEmail: string): ViewCreateBody {
  return {
    creatorEmail,
    name: after.name,
    ...(after.icon === undefined ? {} : { icon: after.icon }),
    columns: after.columns,
    filters: after.filters,
    sort: after.sort,
  };
}

/**
 * verifyView says what of `listing` (the domain's, read back) is not as `change` leaves
 * it: a created view exists once with its `after`, an updated one has its `after`, a
 * deleted one is gone; undefined when all is.
 */
function verifyView(change: ViewChange, landed: WriteAnswer, { readBack }: VerifyContext): string | undefined {
  const listing = readBack.views?.[change.domain] ?? [];
  switch (change.action) {
    case 'create': {
      const named = listing.filter((view) => !view.isDefault && view.name === change.after.name);
      if (named.length !== 1) return `expected one view named "${change.after.name}", found ${named.length}`;
      return compareView(change.domain, named[0], change.after, landed.viewId);
    }
    case 'update':
      return compareView(
        change.domain,
        listing.find((view) => view.viewId === change.id),
        change.after,
        change.id,
        change.appOwns,
      );
    case 'delete':
      return listing.some((view) => view.viewId === change.id) ? 'the view is still there after delete' : undefined;
  }
}

function compareView(
  domain: Domain,
  view: ApiView | undefined,
  after: ViewSnapshot,
  expectedId: string | undefined,
  appOwns: readonly string[] = [],
): string | undefined {
  if (view === undefined) return 'the view is not in the listing after apply';
  if (expectedId !== undefined && view.viewId !== expectedId)
    return `the view named "${view.name}" is ${view.viewId}, not ${expectedId}`;
  const actual = normalizeView(domain, view);
  // The app may change what it owns at any time, the moment after the PATCH included.
  const names = (['name', 'icon', 'columns', 'filters', 'sort'] as const).filter((name) => !appOwns.includes(name));
  const differing = names.filter((name) => !jsonEqual(actual[name] ?? null, after[name] ?? null));
  if (differing.length === 0) return undefined;
  return `after apply, ${differing.join(', ')} differ${differing.length === 1 ? 's' : ''} from the plan`;
}

/**
 * heldAs are the targets the last apply may have held a view's manifest under: the
 * change's own, and the manifest's other key. A create held (its creator left) is keyed
 * by name, and comes back as an update of the view of that name someone created in the
 * app since (keyed by id): the change carries out the manifest no reviewer saw carried
 * out. A re-create of a view deleted in the app (`deletedOutside`) is also held under the
 * id it replaces: a bound id held as not found is that view, whose hold ends (held for a
 * view's deletion) once the memory knows the view was deleted in the app, and stays
 * while its cause is unknown (README, "What stays held").
 */
function heldAs(change: ViewChange): string[] {
  if (change.action === 'delete') return [change.target];
  return [
    change.target,
    newViewTarget(change.domain, change.name),
    ...(change.action === 'update' ? [viewTarget(change.domain, change.id)] : []),
    ...(change.action === 'create' && change.deletedOutside !== undefined
      ? [viewTarget(change.domain, change.deletedOutside.id)]
      : []),
  ];
}

/**
 * viewDriftCause is what happened to a view in the app: its attributes edited (only its
 * name: renamed), a declared view deleted (planned as a create), an undeclared view
 * made there (pruned).
 */
function viewDriftCause(change: ViewChange): DriftCause {
  if (change.action === 'update')
    return change.patch.every((operation) => operation.path === '/name') ? 'renamed' : 'edited';
  return change.action === 'create' ? 'deleted' : 'created';
}

const REPAIR_ROLES: Record<ViewChange['action'], RepairRole> = {
  create: { repairable: true, noun: { one: 'view re-created', many: 'views re-created' } },
  update: { repairable: true, noun: { one: "view's attributes", many: "views' attributes" } },
  delete: { repairable: false, noun: { one: 'deletion', many: 'deletions' } },
};
