/**
 * A run's ceiling on requests sent (README, "Scoped and budgeted plans"): `--budget N`
 * counts every request that leaves, retries included, so a service answering 503s
 * cannot make a run spend more than N. The client asks the allowance before each
 * attempt, the first and every retry, and refuses the attempt the ceiling has no room
 * for (`service.budget-spent`): the caller reads less, and says so.
 */
import { ServiceError } from '../errors.js';
import { formatCount, plural } from '../text/plural.js';
import type { RequestOptions, ServiceClient, ServiceRequest } from './types.js';

/** BUDGET_SPENT is the code of an attempt refused because the run's ceiling is spent. */
export const BUDGET_SPENT = 'service.budget-spent';

/**
 * RequestAllowance counts the attempts sent under it and refuses those past `most`
 * (null: no ceiling yet). `most` may be lowered once the service says what is left today.
 */
export class RequestAllowance {
  private sentCount = 0;
  private retryCount = 0;

  /** `most`: the ceiling; `name`: what set it, for the refusal (`--budget 40`). */
  constructor(
    private most: number | null,
    private name: string,
  ) {}

  /** sent is how many attempts went out under this allowance, retries included. */
  get sent(): number {
    return this.sentCount;
  }

  /** retries is how many of them were retries of a failed attempt. */
  get retries(): number {
    return this.retryCount;
  }

  /** limit sets the ceiling (counted from the first attempt) and what set it. */
  limit(most: number | null, name = this.name): void {
    this.most = most;
    this.name = name;
  }

  /** check throws `service.budget-spent` when no attempt more fits under the ceiling. */
  check(target: string, endpoint: string): void {
    if (this.most === null || this.sentCount < this.most) return;
    const retried =
      this.retryCount === 0 ? '' : `, ${formatCount(this.retryCount)} of them retries of requests the service failed`;
    throw new ServiceError(
      BUDGET_SPENT,
      `not sending ${target}: this run may send at most ${plural(this.most, 'request')} (${this.name}), retries included, and has sent ${formatCount(this.sentCount)}${retried}`,
      {
        endpoint,
        hint: 'the service failed often enough that retries took the room; run again later, or with a larger --budget',
      },
    );
  }

  /** count records an attempt about to be sent (`attempt` 1 is the first, more a retry). */
  count(attempt: number): void {
    this.sentCount += 1;
    if (attempt > 1) this.retryCount += 1;
  }
}

/** isBudgetSpent tells whether `error` is an attempt a run's ceiling refused. */
export function isBudgetSpent(error: unknown): error is ServiceError {
  return error instanceof ServiceError && error.code === BUDGET_SPENT;
}

/**
 * withAllowance is `client` sending every request under `allowance` as well as under
 * those the caller passes (self-heal's whole budget holds its plan's share of it), the
 * caller's other call options kept; its stats are the client's.
 */
export function withAllowance(client: ServiceClient, allowance: RequestAllowance): ServiceClient {
  return {
    request: <T>(request: ServiceRequest, options: RequestOptions = {}): Promise<T> =>
      client.request<T>(request, { ...options, allowances: [...(options.allowances ?? []), allowance] }),
    stats: () => client.stats(),
  };
}
