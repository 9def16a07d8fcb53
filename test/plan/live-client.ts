import type { Live } from '../../src/state/types.js';
import { pinsKey } from '../../src/state/types.js';
import type { ServiceClient, ServiceRequest } from '../../src/service/types.js';
import { isDomain } from '../../src/domain/domains.js';

/**
 * liveClient serves a Live state in memory as the service would (GET routes only), and
 * records every route and pinned-list key it was asked for; `dailyRemaining` is what the
 * service says is left after each request; a route in `failing` is answered with its error.
 */
export function liveClient(
  live: Live,
  dailyRemaining: number | null = null,
  failing: ReadonlyMap<string, Error> = new Map(),
): { client: ServiceClient; routes: string[]; pinReads: string[] } {
  const routes: string[] = [];
  const pinReads: string[] = [];
  const client: ServiceClient = {
    async request<T>(request: ServiceRequest): Promise<T> {
      routes.push(request.route);
      const route = request.route;
      const failure = failing.get(route);
      if (failure !== undefined) throw failure;
      if (route === '/v1/workspaces/mine') return { workspace: live.workspace } as T;
      if (route === '/v1/admin-automations') return (live.automations ?? []) as T;
      if (route === '/v1/users')
        return { users: live.users ?? [], pagination: { totalCount: live.users?.length ?? 0 } } as T;
      const [, , domain = '', , pinned] = route.split('/');
      if (!isDomain(domain)) throw new Error(`unexpected ${route}`);
      if (pinned === 'pinned') {
        const key = pinsKey(domain, String(request.query?.userEmail));
        pinReads.push(key);
        return (live.pins[key] ?? []) as T;
      }
      return (live.views[domain] ?? []) as T;
    },
    stats: () => ({
      requests: routes.length,
      retries: 0,
      rateLimited: 0,
      dailyRemaining: dailyRemaining === null ? null : dailyRemaining - routes.length,
    }),
  };
  return { client, routes, pinReads };
}
