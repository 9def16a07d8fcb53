import type { Change } from './types.js';

/**
 * What apply will ask of the service: one write per create, update, delete and pin
 * change, plus one list read per view domain it writes views in (to verify the
 * result). Drift is never applied. Endpoints are the rate limiter's keys
 * (the service's "Rate limits": method + route template).
 */

/** ApplyLoad counts the requests apply needs, in total and per endpoint. */
export interface ApplyLoad {
  total: number;
  writes: number;
  verificationReads: number;
  perEndpoint: Map<string, number>;
}

/** applyLoad counts the requests apply needs for these changes. */
export function applyLoad(changes: readonly Change[]): ApplyLoad {
  const perEndpoint = new Map<string, number>();
  const add = (endpoint: string): void => {
    perEndpoint.set(endpoint, (perEndpoint.get(endpoint) ?? 0) + 1);
  };
  const verified = new Set<string>();
  let writes = 0;
  for (const change of changes) {
    switch (change.action) {
      case 'create':
        add(`POST /v1/${change.domain}/views`);
        verified.add(change.domain);
        break;
      case 'update':
        add(`PATCH /v1/${change.domain}/views/{viewId}`);
        verified.add(change.domain);
        break;
      case 'delete':
        add(`DELETE /v1/${change.domain}/views/{viewId}`);
        verified.add(change.domain);
        break;
      case 'pin':
        add(`PUT /v1/${change.domain}/views/pinned`);
        break;
      case 'drift':
        continue;
    }
    writes += 1;
  }
  for (const domain of verified) add(`GET /v1/${domain}/views`);
  return { total: writes + verified.size, writes, verificationReads: verified.size, perEndpoint };
}

/**
 * applySeconds estimates how long apply takes at `rate` requests per second per
 * endpoint: endpoints run concurrently, so the busiest one sets the pace.
 */
export function applySeconds(changes: readonly Change[], rate: number): number {
  let busiest = 0;
  for (const count of applyLoad(changes).perEndpoint.values()) busiest = Math.max(busiest, count);
  return rate > 0 ? busiest / rate : 0;
}
