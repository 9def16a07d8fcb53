import { ROUTES, endpointOf } from '../service/routes.js';
import { storedOperations } from './operations.js';
import type { Plan } from './types.js';

/**
 * What apply will ask of the service, counted from the very steps the plan stores and
 * apply sends: one write per create, update, delete and pin change, plus one
 * list read per view domain it writes views in (to verify the result, as
 * `touchedDomains` reads). Drift is never applied. Endpoints are the rate limiter's
 * keys (the service's "Rate limits": method + route template).
 */

interface ApplyLoad {
  total: number;
  writes: number;
  verificationReads: number;
  perEndpoint: Map<string, number>;
}

/** applyLoad counts the requests apply needs for a plan's stored steps and the reads that verify them. */
export function applyLoad(plan: Pick<Plan, 'changes' | 'steps'>): ApplyLoad {
  const operations = storedOperations(plan);
  const perEndpoint = new Map<string, number>();
  const add = (endpoint: string): void => {
    perEndpoint.set(endpoint, (perEndpoint.get(endpoint) ?? 0) + 1);
  };
  for (const operation of operations) add(operation.endpoint);
  const verified = new Set(operations.filter((operation) => operation.action !== 'pin').map((operation) => operation.domain));
  for (const domain of verified) add(endpointOf(ROUTES.listViews(domain)));
  return { total: operations.length + verified.size, writes: operations.length, verificationReads: verified.size, perEndpoint };
}

/**
 * applySeconds estimates how long apply takes at `rate` requests per second per
 * endpoint: endpoints run concurrently, so the busiest one sets the pace.
 */
export function applySeconds(plan: Pick<Plan, 'changes' | 'steps'>, rate: number): number {
  const busiest = Math.max(0, ...applyLoad(plan).perEndpoint.values());
  return rate > 0 ? busiest / rate : 0;
}
