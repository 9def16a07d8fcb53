import type { ApiWorkspace } from '../domain/api-types.js';
import { paginate } from './records/pagination.js';
import { notFound, success, type RouteContext, type RouteResult } from './route-result.js';

/**
 * Workspace administration endpoints (the service's "Workspace, users,
 * automations, webhooks"): read-only views of the data.
 */

/** getWorkspace answers `{workspace: {id, name, createdAt, membersCount, recordingsCount}}`. */
export function getWorkspace(ctx: RouteContext): RouteResult {
  const { workspace, users, recordings } = ctx.data;
  // Members are the people in the workspace now: invited and deactivated users are not.
  const membersCount = users.filter((user) => user.state === 'Active').length;
  // A key without Full access does not see private recordings, so it does not count them either.
  const recordingsCount = recordings.filter((recording) => ctx.fullAccess || !recording.isPrivate).length;
  const result: ApiWorkspace = { ...workspace, membersCount, recordingsCount };
  return success({ workspace: result });
}

/** listUsers answers `{users, pagination}`, paginated like records. */
export function listUsers(ctx: RouteContext): RouteResult {
  return paginate(ctx.data.users, ctx.query, 'users');
}

/** getUser answers `{user}` or 404. */
export function getUser(ctx: RouteContext): RouteResult {
  const userId = ctx.params.userId ?? '';
  const user = ctx.data.users.find((candidate) => candidate.id === userId);
  return user === undefined ? notFound(`no user with id "${userId}"`) : success({ user });
}

/** listAutomations answers the admin automations, highest priority first. */
export function listAutomations(ctx: RouteContext): RouteResult {
  return success(ctx.data.automations);
}
