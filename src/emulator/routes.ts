import { DOMAINS } from '../domain/domains.js';
import { safeDecode } from './http-io.js';
import { listRecords } from './records/list.js';
import { recordingDetails } from './records/details.js';
import { transcript } from './records/transcript.js';
import type { RouteContext, RouteResult } from './route-result.js';
import type { AttributeChecker } from './views/body.js';
import { createView, deleteView, getView, listViews, updateView } from './views/crud.js';
import { getPinned, putPinned } from './views/pinned.js';
import { triggerWebhook } from './webhook-trigger.js';
import type { WebhookDispatcher } from './webhooks.js';
import { getUser, getWorkspace, listAutomations, listUsers } from './workspace-routes.js';

/**
 * The route table of the emulator. A route is a method and a
 * template such as `/v1/deals/views/{viewId}`; `METHOD template` is also the
 * rate-limit endpoint key.
 */

interface Route {
  method: string;
  template: string;
  handle(ctx: RouteContext): RouteResult;
}

/** RouteDeps are the collaborators routes need beyond the request. */
interface RouteDeps {
  checker: AttributeChecker;
  webhooks: WebhookDispatcher;
}

/** MatchedRoute is a route with the decoded values of its placeholders. */
interface MatchedRoute {
  route: Route;
  params: Record<string, string>;
}

/**
 * buildRoutes lists every route. Literal segments win over placeholders because
 * matching tries the routes in this order: `/views/pinned` before `/views/{viewId}`,
 * `/recordings/views` before `/recordings/{recordingId}`.
 */
export function buildRoutes(deps: RouteDeps): Route[] {
  const routes: Route[] = [];
  const add = (method: string, template: string, handle: (ctx: RouteContext) => RouteResult): void => {
    routes.push({ method, template, handle });
  };
  for (const domain of DOMAINS) {
    const base = `/v1/${domain}/views`;
    add('GET', `${base}/pinned`, (ctx) => getPinned(ctx, domain));
    add('PUT', `${base}/pinned`, (ctx) => putPinned(ctx, domain));
    add('GET', base, (ctx) => listViews(ctx, domain));
    add('POST', base, (ctx) => createView(ctx, domain, deps.checker));
    add('GET', `${base}/{viewId}`, (ctx) => getView(ctx, domain));
    add('PATCH', `${base}/{viewId}`, (ctx) => updateView(ctx, domain, deps.checker));
    add('DELETE', `${base}/{viewId}`, (ctx) => deleteView(ctx, domain));
  }
  for (const domain of DOMAINS) add('GET', `/v1/${domain}`, (ctx) => listRecords(ctx.data, domain, ctx.query, ctx));
  add('GET', '/v1/recordings/{recordingId}', (ctx) => recordingDetails(ctx.data, ctx.params.recordingId ?? '', ctx));
  add('GET', '/v1/recordings/{recordingId}/transcript', (ctx) =>
    transcript(ctx.data, ctx.params.recordingId ?? '', ctx),
  );
  add('GET', '/v1/users', listUsers);
  add('GET', '/v1/users/{userId}', getUser);
  add('GET', '/v1/workspaces/mine', getWorkspace);
  add('GET', '/v1/admin-automations', listAutomations);
  add('POST', '/v1/webhooks/{webhookId}/trigger', (ctx) => triggerWebhook(ctx, deps.webhooks));
  return routes;
}

/**
 * matchRoute finds the route for a method and path. A path that matches no template
 * for this method is unknown (404 not_found; the contract has no 405).
 */
export function matchRoute(routes: Route[], method: string, pathname: string): MatchedRoute | undefined {
  const segments = pathname.split('/');
  for (const route of routes) {
    if (route.method !== method) continue;
    const params = matchTemplate(route.template.split('/'), segments);
    if (params !== undefined) return { route, params };
  }
  return undefined;
}

function matchTemplate(template: string[], segments: string[]): Record<string, string> | undefined {
  if (template.length !== segments.length) return undefined;
  const params: Record<string, string> = {};
  for (const [index, part] of template.entries()) {
    const segment = segments[index] ?? '';
    if (part.startsWith('{') && part.endsWith('}')) {
      if (segment === '') return undefined;
      const value = safeDecode(segment);
      if (value === undefined) return undefined;
      params[part.slice(1, -1)] = value;
    } else if (part !== segment) {
      return undefined;
    }
  }
  return params;
}
