import type { Domain } from '../domain/domains.js';
import type { ServiceRequest } from './types.js';
import { endpointKey } from './url.js';

/**
 * The one route table: every call viewctl makes to the service is built here, so a
 * route is spelt once and its rate-limit endpoint (`METHOD /route/{template}`) always
 * agrees with what is sent. Writes say whether they may be retried: only the
 * creating POST may not (apply re-lists and adopts instead).
 */
export const ROUTES = {
  workspace: (): ServiceRequest => ({ method: 'GET', route: '/v1/workspaces/mine' }),
  users: (cursor: string | undefined, limit: number): ServiceRequest => ({
    method: 'GET',
    route: '/v1/users',
    query: { limit, cursor },
  }),
  automations: (): ServiceRequest => ({ method: 'GET', route: '/v1/admin-automations' }),
  listViews: (domain: Domain): ServiceRequest => ({ method: 'GET', route: `/v1/${domain}/views` }),
  createView: (domain: Domain, body: unknown): ServiceRequest => ({
    method: 'POST',
    route: `/v1/${domain}/views`,
    body,
    idempotent: false,
  }),
  patchView: (domain: Domain, viewId: string, body: unknown): ServiceRequest => ({
    method: 'PATCH',
    route: `/v1/${domain}/views/{viewId}`,
    params: { viewId },
    body,
    idempotent: true,
  }),
  deleteView: (domain: Domain, viewId: string): ServiceRequest => ({
    method: 'DELETE',
    route: `/v1/${domain}/views/{viewId}`,
    params: { viewId },
    idempotent: true,
  }),
  getPinned: (domain: Domain, userEmail: string): ServiceRequest => ({
    method: 'GET',
    route: `/v1/${domain}/views/pinned`,
    query: { userEmail },
  }),
  putPinned: (domain: Domain, userEmail: string, body: unknown): ServiceRequest => ({
    method: 'PUT',
    route: `/v1/${domain}/views/pinned`,
    query: { userEmail },
    body,
    idempotent: true,
  }),
} as const;

/** endpointOf is a request's rate-limit endpoint key. */
export function endpointOf(request: Pick<ServiceRequest, 'method' | 'route'>): string {
  return endpointKey(request.method, request.route);
}
