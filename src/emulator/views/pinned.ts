import { isJsonObject, type ApiUser, type ApiView } from '../../domain/api-types.js';
import type { Domain } from '../../domain/domains.js';
import type { EmulatorData } from '../model.js';
import { ownValue, setOwn } from '../own.js';
import { success, validationError, type RouteContext, type RouteResult } from '../route-result.js';
import { canAccess, findActiveMember } from './access.js';

/**
 * The pinned-views endpoints (the service's view rule 3): the
 * only place private views appear, under the access rules of the user named by
 * `userEmail`.
 */

/** getPinned answers the user's tabs in order, leaving out views they cannot access. */
export function getPinned(ctx: RouteContext, domain: Domain): RouteResult {
  const user = pinnedUser(ctx);
  if (!('id' in user)) return user;
  return success(pinnedViews(ctx.data, domain, user));
}

/**
 * putPinned replaces the user's tabs with `{viewIds}` and answers the new list. An
 * empty list, a duplicate, an unknown id or a view the user cannot access refuses the
 * whole call with nothing changed.
 */
export function putPinned(ctx: RouteContext, domain: Domain): RouteResult {
  const user = pinnedUser(ctx);
  if (!('id' in user)) return user;
  const body = ctx.body;
  if (!isJsonObject(body)) return validationError(undefined, 'the body must be a JSON object {"viewIds": [...]}');
  const unknown = Object.keys(body).find((key) => key !== 'viewIds');
  if (unknown !== undefined) return validationError(unknown, `unknown attribute "${unknown}"; allowed: viewIds`);
  const viewIds = body.viewIds;
  if (!Array.isArray(viewIds) || !viewIds.every((id): id is string => typeof id === 'string')) {
    return validationError('viewIds', 'viewIds must be an array of view id strings');
  }
  if (viewIds.length === 0) return validationError('viewIds', 'viewIds must hold at least one view');
  const seen = new Set<string>();
  for (const viewId of viewIds) {
    if (seen.has(viewId)) return validationError('viewIds', `view "${viewId}" is listed more than once`);
    seen.add(viewId);
    const view = ctx.data.views[domain].find((candidate) => candidate.viewId === viewId);
    if (view === undefined || !canAccess(user, view)) {
      return validationError('viewIds', `no ${domain} view "${viewId}" that ${user.email} can access`);
    }
  }
  const previous = ownValue(ctx.data.pinned[domain], user.id);
  setOwn(ctx.data.pinned[domain], user.id, [...viewIds]);
  const changed = previous === undefined || previous.join('\n') !== viewIds.join('\n');
  return success(pinnedViews(ctx.data, domain, user), changed);
}

/**
 * pinnedViews resolves a user's tabs: their stored list, or the built-in defaults for
 * a user who never changed them; views they can no longer access are left out.
 */
function pinnedViews(data: EmulatorData, domain: Domain, user: ApiUser): ApiView[] {
  const views = data.views[domain];
  const stored = ownValue(data.pinned[domain], user.id);
  const ids = stored ?? views.filter((view) => view.isDefault).map((view) => view.viewId);
  return ids.flatMap((viewId) => {
    const view = views.find((candidate) => candidate.viewId === viewId);
    return view !== undefined && canAccess(user, view) ? [view] : [];
  });
}

function pinnedUser(ctx: RouteContext): ApiUser | RouteResult {
  const email = ctx.query.get('userEmail');
  if (email === null || email === '') return validationError('userEmail', 'the query parameter userEmail is required');
  const user = findActiveMember(ctx.data, email);
  return user ?? validationError('userEmail', 'userEmail is not the email address of an active workspace member');
}
