import { formatLine } from '../domain/source-position.js';
import jsonpatch from 'fast-json-patch';
import type { ApiView } from '../domain/api-types.js';
import { DOMAINS, VIEW_KINDS, type Domain } from '../domain/domains.js';
import { compareIds, isPublicSaved } from '../domain/views.js';
import { InternalError } from '../errors.js';
import type { Desired, DesiredView, Live } from '../state/types.js';
import { desiredSnapshot, normalizeView } from './normalize.js';
import type { DeclaredViewRef, HeldViewRef } from './declared-view-ref.js';
import type { RefusalReason } from '../domain/refusal-reason.js';
import { newViewTarget, viewTarget } from '../domain/targets.js';
import type { CreateChange, HeldTarget, JsonPatchOperation, PlanWarning, UpdateChange } from './changes.js';
import type { SweepMemory, ViewMemory } from '../state/sweep-memory.js';
import { deletedInApp, replacedWarning } from './view-deleted-outside.js';
import { renameBinding, type BaseRenames } from './view-base-renames.js';

/**
 * Identity of declared views (README, "Fail-safe rules"): a manifest
 * `viewId` binds to that live public saved view; otherwise the name does, within the
 * domain. Zero live matches is a create, one an update when it differs; anything
 * else is refused with the ids and the way out. A `viewId` the service no longer lists
 * is held, unless the sweep memory saw it live and public: then it was deleted in the
 * app, and the manifest binds by name (view-deleted-outside.ts). A document renamed since
 * `--base` binds the live view of its old name (view-base-renames.ts).
 */

/** ViewPlan is what identity resolution yields for every declared view. */
interface ViewPlan {
  changes: (CreateChange | UpdateChange)[];
  reasons: RefusalReason[];
  /** A manifest whose `viewId` was deleted in the app and that resolved by name to the view that replaced it. */
  warnings: PlanWarning[];
  /** Declared views left out because of the live workspace (README, "Fail-safe rules", held targets). */
  held: HeldTarget[];
  /** Per domain, the held views, which the pinned lists naming them are held with. */
  heldViews: Map<Domain, HeldViewRef[]>;
  /** Per domain, every declared view as pins will see it after apply. */
  declared: Map<Domain, DeclaredViewRef[]>;
  /** Per domain, the live ids some manifest binds to (prune leaves them alone). */
  claimed: Map<Domain, Set<string>>;
}

/** liveListing returns a domain's listing, which the reader must have read. */
export function liveListing(live: Pick<Live, 'views'>, domain: Domain): ApiView[] {
  const listing = live.views[domain];
  if (listing === undefined)
    throw new InternalError(`live state lacks the ${domain} view listing that the manifests need`);
  return listing;
}

/**
 * planViews matches every declared view to the live listing of its domain and checks
 * the creator of any create. A creator who left the workspace (a member no longer
 * active) holds the creates, not the whole plan: updates, deletes and the pinned lists
 * that name no new view are still planned.
 */
export function planViews(desired: Desired, live: Live, memory?: SweepMemory, renames?: BaseRenames): ViewPlan {
  const result = matchViews(desired, live, memory, renames);
  const creates = result.changes.filter((change) => change.action === 'create');
  const first = creates[0];
  if (first === undefined) return result;
  if (desired.workspace.creatorEmail === undefined) {
    // A view deleted in the app is created again because of the app, not the manifests:
    // without a creator it is held (the rest is planned); a create the manifests ask for is refused.
    const again = creates.filter((change) => change.deletedOutside !== undefined);
    for (const change of again) holdCreate(result, change, recreateWithoutCreator(desired, change));
    const own = creates.filter((change) => change.deletedOutside === undefined);
    const firstOwn = own[0];
    if (firstOwn !== undefined) result.reasons.push(creatorRequired(desired, own.length, firstOwn));
    return result;
  }
  const creator = checkCreator(desired, live, creates.length, first);
  if ('reason' in creator) result.reasons.push(creator.reason);
  if (!('held' in creator)) return result;
  for (const change of creates)
    holdCreate(result, change, {
      code: creator.held.code,
      reason: `${change.kind} "${change.name}" is not created: ${creator.held.reason}`,
      wayOut: creator.held.wayOut,
      ...(creator.held.source === undefined ? {} : { source: creator.held.source }),
    });
  return result;
}

/** holdCreate takes a create out of the plan as held, with every list naming the view it would make. */
function holdCreate(result: ViewPlan, change: CreateChange, held: Omit<HeldTarget, 'target' | 'source'>): void {
  result.changes = result.changes.filter((candidate) => candidate !== change);
  result.held.push({
    target: change.target,
    ...held,
    ...(change.source === undefined ? {} : { source: change.source }),
  });
  // A re-create held names the id its manifest binds: a list naming that id is held with it.
  heldView(result, change.domain, {
    name: change.name,
    viewId: change.deletedOutside?.id ?? null,
    target: change.target,
  });
}

function heldView(result: ViewPlan, domain: Domain, view: HeldViewRef): void {
  result.heldViews.set(domain, [...(result.heldViews.get(domain) ?? []), view]);
}

/**
 * createsViews tells, from the listings alone, whether the plan will create a view
 * whose `creatorEmail` must then be checked against the users: the reader calls it
 * to spend the users read only when needed, with the same identity rule as the diff.
 */
export function createsViews(desired: Desired, views: Live['views'], memory?: SweepMemory): boolean {
  if (desired.workspace.creatorEmail === undefined) return false;
  return matchViews(desired, { views }, memory).changes.some((change) => change.action === 'create');
}

/**
 * matchViews resolves the identity of every declared view against its domain's
 * listing; `memory` (the sweep memory) tells a bound id deleted in the app from one
 * that never was public; `renames` (`baseRenames`) are the documents renamed since `--base`.
 */
export function matchViews(
  desired: Desired,
  live: Pick<Live, 'views'>,
  memory?: SweepMemory,
  renames?: BaseRenames,
): ViewPlan {
  const result: ViewPlan = {
    changes: [],
    reasons: [],
    warnings: [],
    held: [],
    heldViews: new Map(),
    declared: new Map(),
    claimed: new Map(),
  };
  for (const domain of DOMAINS) {
    const views = desired.views.filter((view) => view.domain === domain);
    if (views.length > 0) planDomain(domain, views, liveListing(live, domain), result, memory, renames);
  }
  return result;
}

function planDomain(
  domain: Domain,
  views: DesiredView[],
  listing: ApiView[],
  result: ViewPlan,
  memory: SweepMemory | undefined,
  renames: BaseRenames | undefined,
): void {
  const kind = VIEW_KINDS[domain];
  const claimedBy = new Map<string, DesiredView>();
  const bound = new Map<DesiredView, ApiView | null>();
  const claim = (view: DesiredView, target: ApiView): void => {
    const other = claimedBy.get(target.viewId);
    if (other !== undefined) {
      result.reasons.push({
        code: 'view.bound-twice',
        message: `${kind} "${view.name}" and "${other.name}" (${formatLine(other.source)}) both bind to ${target.viewId}`,
        wayOut: 'keep one manifest for the view, or give the other its own name',
        source: view.viewIdSource ?? view.nameSource ?? view.source,
        ids: [target.viewId],
      });
      return;
    }
    claimedBy.set(target.viewId, view);
    bound.set(view, target);
  };
  const byId = new Map(listing.map((candidate) => [candidate.viewId, candidate]));
  // Bound by an id the memory saw live and public and the service no longer lists: deleted in the app, bound by name below.
  const gone = new Map<DesiredView, ViewMemory>();
  // Explicit ids first, so a name never binds a view some manifest claims by id.
  for (const view of views) {
    if (view.viewId === undefined) continue;
    const target = byId.get(view.viewId);
    const seen = target === undefined ? deletedInApp(memory, domain, view.viewId) : undefined;
    if (seen !== undefined) {
      gone.set(view, seen);
    } else if (target === undefined) {
      // A typo, a private view and a deleted view all answer not found: never created
      // blindly, and held rather than failing the plan, since an admin deleting a view is
      // an ordinary event of the workspace.
      const heldTarget = viewTarget(domain, view.viewId);
      result.held.push({
        target: heldTarget,
        code: 'view.id-not-found',
        reason: `${kind} "${view.name}" binds to ${view.viewId}, which the service reports as not found: it is private or deleted (never a create)`,
        wayOut: `fix the id, or remove \`viewId\` to create a new public view named "${view.name}", or delete the manifest if the view is gone for good`,
        source: view.viewIdSource ?? view.source,
      });
      heldView(result, domain, { name: view.name, viewId: view.viewId, target: heldTarget });
    } else if (target.isDefault) {
      result.reasons.push({
        code: 'view.default-immutable',
        message: `${kind} "${view.name}" binds to ${view.viewId}, the built-in default view "${target.name}", which the service never lets anyone update`,
        wayOut: 'remove `viewId` and give the manifest a name of its own to manage a saved view instead',
        source: view.viewIdSource ?? view.source,
        ids: [view.viewId],
      });
    } else {
      claim(view, target);
    }
  }
  const byName = new Map<string, { saved: ApiView[]; defaults: ApiView[] }>();
  for (const candidate of listing) {
    const entry = byName.get(candidate.name) ?? { saved: [], defaults: [] };
    if (candidate.isDefault) entry.defaults.push(candidate);
    else if (isPublicSaved(candidate)) entry.saved.push(candidate);
    byName.set(candidate.name, entry);
  }
  // Documents renamed since --base whose rename is held, and the live views they may mean (prune leaves them).
  const heldRenames = new Set<DesiredView>();
  const kept = new Set<string>();
  const free = (name: string): ApiView[] =>
    (byName.get(name)?.saved ?? []).filter((candidate) => !claimedBy.has(candidate.viewId));
  for (const view of views) {
    if (view.viewId !== undefined && !gone.has(view)) continue;
    const renamed = renames?.renamed.get(view);
    const ambiguous = renames?.ambiguous.get(view);
    const binding =
      renamed === undefined && ambiguous === undefined
        ? undefined
        : renameBinding(
            view,
            { ...(renamed === undefined ? {} : { renamed }), ...(ambiguous === undefined ? {} : { ambiguous }) },
            free,
          );
    if (binding !== undefined && 'bind' in binding) {
      claim(view, binding.bind);
      continue;
    }
    if (binding !== undefined) {
      const target = newViewTarget(domain, view.name);
      result.held.push({ target, ...binding.hold, source: view.nameSource ?? view.source });
      heldView(result, domain, { name: view.name, viewId: null, target });
      heldRenames.add(view);
      for (const id of binding.keep) kept.add(id);
      continue;
    }
    const named = byName.get(view.name);
    const saved = (named?.saved ?? []).filter((candidate) => !claimedBy.has(candidate.viewId));
    const defaults = named?.defaults ?? [];
    if (defaults.length > 0) {
      const savedIds = saved.map((candidate) => candidate.viewId);
      result.reasons.push({
        code: 'view.default-name',
        message: `${kind} "${view.name}" has the name of a built-in default view (${defaults.map((d) => d.viewId).join(', ')}); default views are never updated`,
        wayOut:
          savedIds[0] === undefined
            ? 'rename the manifest'
            : `bind the manifest to the saved view with \`viewId: ${savedIds[0]}\`${savedIds.length > 1 ? ` (saved views of that name: ${savedIds.join(', ')})` : ''}, or rename it`,
        source: view.nameSource ?? view.source,
        ids: [...defaults.map((d) => d.viewId), ...savedIds],
      });
    } else if (saved.length > 1) {
      // Oldest first: copies left by concurrent or retried creates are usually the newer ones.
      const ids = saved.map((candidate) => candidate.viewId).sort(compareIds);
      const [keep = '', ...others] = ids;
      result.reasons.push({
        code: 'view.ambiguous-name',
        message: `${saved.length} public ${kind}s are named "${view.name}": ${ids.join(', ')}${view.viewId === undefined ? '' : ` (the manifest binds ${view.viewId}, which was deleted in the app)`}`,
        wayOut:
          `keep one: ${view.viewId === undefined ? 'add' : 'set'} \`viewId: ${keep}\` ${view.viewId === undefined ? 'to' : 'in'} the manifest (the oldest), then the others (${others.join(', ')}) are undeclared, ` +
          'and `viewctl apply` with `prune: true` deletes them (or delete them in the application, or rename them)',
        source: view.nameSource ?? view.source,
        ids,
      });
    } else if (saved[0] !== undefined) {
      claim(view, saved[0]);
      // The one live public view of its name replaced the deleted one: in sync, but the manifest should say so.
      if (view.viewId !== undefined && bound.get(view) === saved[0])
        result.warnings.push(replacedWarning(kind, { ...view, viewId: view.viewId }, saved[0]));
    } else {
      bound.set(view, null);
    }
  }
  for (const view of views) {
    const target = bound.get(view);
    if (target === undefined) continue;
    if (target === null) {
      const seen = gone.get(view);
      result.changes.push({
        action: 'create',
        target: newViewTarget(domain, view.name),
        kind,
        name: view.name,
        source: view.source,
        // Deleted in the app: created again, which is not the manifests' doing.
        ...(seen === undefined ? {} : { origin: 'outside' as const }),
        domain,
        before: null,
        after: desiredSnapshot(domain, view),
        ...(seen === undefined ? {} : { deletedOutside: { id: seen.id, lastSeen: seen.lastSeen } }),
      });
      continue;
    }
    const before = normalizeView(domain, target);
    const after = desiredSnapshot(domain, view, before);
    // Both sides are normalised, so their key order is already canonical.
    if (JSON.stringify(before) === JSON.stringify(after)) continue;
    result.changes.push({
      action: 'update',
      target: viewTarget(domain, target.viewId),
      kind,
      name: view.name,
      source: view.source,
      domain,
      id: target.viewId,
      before,
      after,
      patch: jsonpatch.compare(before, after) as JsonPatchOperation[],
      // What the app owns stays out of the stale check and the re-checks of a saved plan.
      ...(view.appOwns === undefined ? {} : { appOwns: view.appOwns }),
    });
  }
  // A held view is not declared: pins naming it are held with it (\`heldViews\`).
  const heldIds = new Set(
    (result.heldViews.get(domain) ?? []).flatMap((held) => (held.viewId === null ? [] : [held.viewId])),
  );
  // A view deleted in the app keeps its old id as `formerViewId`: a `{viewId}` tab naming it means the view that replaces it.
  result.declared.set(
    domain,
    views
      .filter((view) => !heldRenames.has(view) && (view.viewId === undefined || !heldIds.has(view.viewId)))
      .map((view) => ({
        name: view.name,
        viewId: bound.get(view)?.viewId ?? null,
        ...(gone.has(view) && view.viewId !== undefined ? { formerViewId: view.viewId } : {}),
      })),
  );
  result.claimed.set(domain, new Set([...claimedBy.keys(), ...kept]));
}

/** CreatorCheck is what the creator check found: nothing, a refusal (the manifests' fault), or the creates held (the member left). */
type CreatorCheck = Record<string, never> | { reason: RefusalReason } | { held: Omit<HeldTarget, 'target'> };

function checkCreator(desired: Desired, live: Live, creates: number, first: CreateChange): CreatorCheck {
  const email = desired.workspace.creatorEmail;
  const source = desired.workspace.source ?? first.source;
  if (email === undefined) return { reason: creatorRequired(desired, creates, first) };
  if (live.users === undefined) {
    // The reader reads users whenever createsViews says so; skipping the check would
    // let apply fail half-way on a creator the service refuses.
    throw new InternalError('live state lacks the users needed to check creatorEmail for the views the plan creates');
  }
  const user = live.users.find((candidate) => candidate.email.toLowerCase() === email.toLowerCase());
  if (user !== undefined && user.state === 'Active') return {};
  const emailSource = desired.workspace.creatorEmailSource ?? source;
  const wayOut = 'set `creatorEmail` to an active member of the workspace';
  // An address that was never a member is the manifests' mistake; a member who left is the workspace's news.
  if (user === undefined) {
    return {
      reason: {
        code: 'workspace.creator-inactive',
        message: `creatorEmail ${email} is not a member of the workspace; the service would refuse every create`,
        wayOut,
        ...(emailSource === undefined ? {} : { source: emailSource }),
        ids: [],
      },
    };
  }
  return {
    held: {
      code: 'workspace.creator-inactive',
      reason: `creatorEmail ${email} is ${user.state.toLowerCase()}, not active, and the service would refuse the create`,
      wayOut,
      ...(emailSource === undefined ? {} : { source: emailSource }),
    },
  };
}

/** creatorRequired is the refusal of creates the manifests ask for while the Workspace document names no `creatorEmail`. */
function creatorRequired(desired: Desired, creates: number, first: CreateChange): RefusalReason {
  const source = desired.workspace.source ?? first.source;
  const plural = creates === 1 ? `creates ${first.kind} "${first.name}"` : `creates ${creates} views`;
  return {
    code: 'workspace.creator-required',
    message: `the plan ${plural}, and the Workspace document names no \`creatorEmail\` to own them`,
    wayOut: 'set `creatorEmail: <an active member>` in the Workspace document',
    ...(source === undefined ? {} : { source }),
    ids: [],
  };
}

/**
 * recreateWithoutCreator holds the create again of a view deleted in the app while the
 * Workspace document names no `creatorEmail` (as `export` writes it): a consequence of
 * the app, not a mistake of the manifests, so the rest of the plan goes on.
 */
function recreateWithoutCreator(desired: Desired, change: CreateChange): Omit<HeldTarget, 'target' | 'source'> {
  const id = change.deletedOutside?.id ?? '';
  const workspace = desired.workspace.source?.file;
  return {
    code: 'view.create-needs-creator',
    reason: `${change.kind} "${change.name}" (${id}) was deleted in the app and is not created again: the Workspace document names no \`creatorEmail\` to own it`,
    wayOut:
      `to create it again, set \`creatorEmail: <an active member>\` in the Workspace document${workspace === undefined ? '' : ` (${workspace})`}; ` +
      `if it is gone for good, drop \`viewId: ${id}\` and the document with it${change.source === undefined ? '' : ` (${change.source.file})`}, and the tabs naming it`,
  };
}
