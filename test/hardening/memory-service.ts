import type { ServiceError } from '../../src/errors.js';
import type { EmulatorData } from '../../src/emulator/model.js';
import { buildRoutes, matchRoute } from '../../src/emulator/routes.js';
import { ruleChecker } from '../../src/emulator/views/rule-checker.js';
import type { WebhookDispatcher } from '../../src/emulator/webhooks.js';
import { responseError } from '../../src/service/response.js';
import type { ServiceClient, ServiceRequest } from '../../src/service/types.js';
import { endpointKey, requestPath } from '../../src/service/url.js';

const BASE_URL = 'memory://service';

// The routes the planner and apply use never trigger a webhook.
const NO_WEBHOOKS = {} as WebhookDispatcher;

/**
 * memoryService is the emulator's route table as a ServiceClient in memory: the same
 * answers and the same ServiceErrors as over HTTP, with no socket, rate limit, timer
 * or fault in the way, so a property can run hundreds of plans and applies quickly.
 * Results go through JSON as they would on the wire, and a write is carried out on a
 * copy swapped in only when it succeeds, as the emulator does. `data()` is the
 * workspace now.
 */
export function memoryService(initial: EmulatorData): { client: ServiceClient; data(): EmulatorData } {
  const routes = buildRoutes({ checker: ruleChecker, webhooks: NO_WEBHOOKS });
  let data = structuredClone(initial);
  let requests = 0;
  const client: ServiceClient = {
    async request<T>(request: ServiceRequest): Promise<T> {
      requests += 1;
      const path = requestPath(request);
      const url = new URL(path, BASE_URL);
      const matched = matchRoute(routes, request.method, url.pathname);
      if (matched === undefined) throw new Error(`memoryService: no route ${request.method} ${url.pathname}`);
      const isWrite = request.method !== 'GET';
      const target = isWrite ? structuredClone(data) : data;
      const body = request.body === undefined ? undefined : JSON.parse(JSON.stringify(request.body));
      const result = matched.route.handle({
        data: target,
        params: matched.params,
        query: url.searchParams,
        body,
        now: Date.parse('2026-01-15T12:00:00Z'),
        fullAccess: true,
        baseUrl: BASE_URL,
        mediaSecret: 'memory',
      });
      if (result.status !== 200) {
        const context = {
          method: request.method,
          route: request.route,
          endpoint: endpointKey(request.method, request.route),
          target: `${request.method} ${path}`,
          baseUrl: BASE_URL,
          apiKey: 'memory-key',
          attempts: 1,
        };
        const error: ServiceError = responseError(
          result.status,
          JSON.stringify({ error: { type: result.type, message: result.message, path: result.path } }),
          context,
        );
        throw error;
      }
      if (result.changed === true) data = target;
      return (result.result === undefined ? undefined : JSON.parse(JSON.stringify(result.result))) as T;
    },
    stats: () => ({ requests, retries: 0, rateLimited: 0, dailyRemaining: null }),
  };
  return { client, data: () => data };
}
