import { kindOf } from '../kinds/kinds.js';
import { endpointOf } from '../service/routes.js';
import { uniqueReads } from '../state/live-read.js';
import { userReads } from '../state/user-pages.js';
import { storedOperations } from './operations.js';
import type { Plan } from './types.js';

/**
 * What apply will ask of the service, counted from the very steps the plan stores and
 * apply sends: one write per create, update, delete and pin change, plus the reads
 * that verify them (`Kind.verifyReads`: one list read per view domain it writes views
 * in, as `verifyReads` reads). Drift is never applied. Endpoints are the rate limiter's
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
  // What verifies the writes, as each change's kind says (`Kind.verifyReads`), each read once.
  const verifying = uniqueReads(
    operations.flatMap((operation) => {
      const change = plan.changes[operation.changeIndex];
      return change === undefined ? [] : kindOf(change).verifyReads(change);
    }),
  );
  for (const read of verifying) add(endpointOf(read.request));
  return {
    total: operations.length + verifying.length,
    writes: operations.length,
    verificationReads: verifying.length,
    perEndpoint,
  };
}

/**
 * applySeconds estimates how long apply takes at `rate` requests per second per
 * endpoint: endpoints run concurrently, so the busiest one sets the pace.
 */
export function applySeconds(plan: Pick<Plan, 'changes' | 'steps'>, rate: number): number {
  const busiest = Math.max(0, ...applyLoad(plan).perEndpoint.values());
  return rate > 0 ? busiest / rate : 0;
}

/**
 * recheckLoad counts what `apply --plan` of a plan re-reads before its first write
 * (README, "How requests are spent"): the workspace, then each target as its kind says
 * (`Kind.reads`, each read once), and the users, a page per USERS_PAGE of `accounts`,
 * when a change asks for them (the plan creates views: their creator is re-checked).
 */
export function recheckLoad(plan: Pick<Plan, 'changes'>, accounts: number): number {
  const asked = plan.changes.map((change) => kindOf(change).reads(change));
  const reads = uniqueReads(asked.flatMap((read) => read.reads)).length;
  return 1 + reads + (asked.some((read) => read.users === true) ? userReads(accounts) : 0);
}
