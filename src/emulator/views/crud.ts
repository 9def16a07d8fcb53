import { isDeepStrictEqual } from 'node:util';
import type { ApiView, JsonObject } from '../../domain/api-types.js';
import { VIEW_CAP, type Domain } from '../../domain/domains.js';
import { isPublicSaved } from '../../domain/views.js';
import type { EmulatorData } from '../model.js';
import { ownValue, setOwn } from '../own.js';
import { forbidden, notFound, success, validationError, type RouteContext, type RouteResult } from '../route-result.js';
import { findActiveMember, isApiVisible } from './access.js';
import { checkCreateBody, checkPatchBody, RESPONSE_ONLY_FILTERS, storedSort, type AttributeChecker } from './body.js';

/**
 * The view endpoints outside the pinned ones (the service's "Views";
 * the service's view rules 1, 2, 5 and 6). Every handler checks
 * everything before it changes anything, so a refused request leaves no trace.
 */

/** VIEW_ID_PREFIXES are the prefixes of the ids the emulator assigns to new views. */
const VIEW_ID_PREFIXES: Record<Domain, string> = {
  recordings: 'rv',
  deals: 'dv',
  companies: 'cv',
  contacts: 'ctv',
};

/** listViews answers public saved views in creation order, then the built-in defaults (rules 1, 2). */
export function listViews(ctx: RouteContext, domain: Domain): RouteResult {
  const views = ctx.data.views[domain];
  return success([...views.filter(isPublicSaved), ...views.filter((view) => view.isDefault)]);
}

/** getView answers one view; a private one is not found (rule 1). */
export function getView(ctx: RouteContext, domain: Domain): RouteResult {
  const view = findApiView(ctx, domain);
  return view === undefined ? viewNotFound(ctx, domain) : success(view);
}

/**
 * createView stores a new public view owned by `creatorEmail` (rules 1 and 5);
 * omitted columns and sort are `[]`, omitted filters `{}`.
 */
export function createView(ctx: RouteContext, domain: Domain, checker: AttributeChecker): RouteResult {
  const checked = checkCreateBody(domain, ctx.body, checker);
  if (!checked.ok) return validationError(checked.problem.path, checked.problem.message);
  const body = checked.body;
  const creator = findActiveMember(ctx.data, body.creatorEmail);
  if (creator === undefined) {
    return validationError('creatorEmail', 'creatorEmail is not the email address of an active workspace member');
  }
  const savedCount = ctx.data.views[domain].filter((view) => !view.isDefault).length;
  if (savedCount >= VIEW_CAP) {
    return validationError(
      undefined,
      `the workspace already has ${VIEW_CAP} saved ${domain} views, the most the service keeps`,
    );
  }
  const view: ApiView = {
    viewId: nextViewId(ctx.data, domain),
    name: body.name,
    visibility: 'Public',
    ...(body.icon === undefined ? {} : { icon: body.icon }),
    isDefault: false,
    ownerId: creator.id,
    columns: body.columns ?? [],
    filters: body.filters ?? {},
    sort: storedSort(body.sort ?? []),
  };
  ctx.data.views[domain].push(view);
  return success(view, true);
}

/**
 * updateView applies a partial update (rule 6): sent attributes replace their value
 * whole, omitted ones stay, `icon: null` removes the icon, and response-only filter
 * attributes keep their stored values. Defaults are 403, private views 404.
 */
export function updateView(ctx: RouteContext, domain: Domain, checker: AttributeChecker): RouteResult {
  const view = findApiView(ctx, domain);
  if (view === undefined) return viewNotFound(ctx, domain);
  if (view.isDefault) return forbidden('built-in default views cannot be updated');
  const checked = checkPatchBody(domain, ctx.body, checker);
  if (!checked.ok) return validationError(checked.problem.path, checked.problem.message);
  const body = checked.body;
  const before = structuredClone(view);
  if (body.name !== undefined) view.name = body.name;
  if (body.icon === null) delete view.icon;
  else if (body.icon !== undefined) view.icon = body.icon;
  if (body.columns !== undefined) view.columns = body.columns;
  if (body.filters !== undefined) view.filters = keepResponseOnly(domain, view.filters, body.filters);
  if (body.sort !== undefined) view.sort = storedSort(body.sort);
  // Key order is not a change: a client resending the same filters wrote nothing.
  return success(view, !isDeepStrictEqual(view, before));
}

/** deleteView removes a saved view and unpins it everywhere; defaults are 403, private views 404. */
export function deleteView(ctx: RouteContext, domain: Domain): RouteResult {
  const view = findApiView(ctx, domain);
  if (view === undefined) return viewNotFound(ctx, domain);
  if (view.isDefault) return forbidden('built-in default views cannot be deleted');
  ctx.data.views[domain] = ctx.data.views[domain].filter((candidate) => candidate !== view);
  const pinned = ctx.data.pinned[domain];
  for (const [userId, viewIds] of Object.entries(pinned)) {
    setOwn(
      pinned,
      userId,
      viewIds.filter((viewId) => viewId !== view.viewId),
    );
  }
  return success({ ok: true }, true);
}

/** findApiView is the `{viewId}` view when the non-pinned endpoints reach it (public or default). */
function findApiView(ctx: RouteContext, domain: Domain): ApiView | undefined {
  const view = ctx.data.views[domain].find((candidate) => candidate.viewId === ctx.params.viewId);
  return view !== undefined && isApiVisible(view) ? view : undefined;
}

function viewNotFound(ctx: RouteContext, domain: Domain): RouteResult {
  return notFound(`no ${domain} view with id "${ctx.params.viewId ?? ''}"`);
}

function keepResponseOnly(domain: Domain, stored: JsonObject, sent: JsonObject): JsonObject {
  const next: JsonObject = { ...sent };
  for (const name of RESPONSE_ONLY_FILTERS[domain]) {
    const value = stored[name];
    if (value !== undefined) next[name] = value;
  }
  return next;
}

// Ids come from a persisted counter so they stay unique across restarts; the loop
// skips ids a hand-written --data file may already use.
function nextViewId(data: EmulatorData, domain: Domain): string {
  const key = `view:${domain}`;
  let counter = ownValue(data.nextIds, key) ?? 1;
  const taken = new Set(data.views[domain].map((view) => view.viewId));
  while (taken.has(`${VIEW_ID_PREFIXES[domain]}_${counter}`)) counter += 1;
  setOwn(data.nextIds, key, counter + 1);
  return `${VIEW_ID_PREFIXES[domain]}_${counter}`;
}
