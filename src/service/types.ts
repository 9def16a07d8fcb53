/**
 * The interface the core uses to talk to the service. The core receives a client as
 * a parameter, so tests feed it a fake or the emulator.
 */

import { ServiceError } from '../errors.js';
import { formatCount, plural } from '../text/plural.js';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/**
 * ServiceRequest is one call. `route` is the route template, e.g.
 * `/v1/deals/views/{viewId}`: `METHOD route` is the rate-limit endpoint key.
 */
export interface ServiceRequest {
  method: HttpMethod;
  route: string;
  /** Values of the `{placeholders}` of `route`, URL-encoded by the client. */
  params?: Record<string, string>;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  /**
   * Whether the request may be retried after it may have reached the service. GET,
   * PUT, PATCH and DELETE are idempotent; a POST that creates is not, and must not be
   * retried blindly (apply re-reads and adopts instead).
   */
  idempotent?: boolean;
}

/** ServiceStats are the client's counters, for the plan summary and `--verbose`. */
export interface ServiceStats {
  /** Requests sent, retries included. */
  requests: number;
  retries: number;
  /** 429 responses seen (a 429 from a well-behaved service is a bug). */
  rateLimited: number;
  /** `X-RateLimit-Daily-Remaining` from the latest response, when sent. */
  dailyRemaining: number | null;
}

/**
 * RequestOptions are what one call may add. `signal` stops it while it waits (for its
 * slot, or before a retry), never once sent: apply passes its interrupt, so a write
 * not yet sent is not sent, and one in flight finishes and is reported.
 */
export interface RequestOptions {
  signal?: AbortSignal;
  /** The run's ceilings on requests sent (`--budget`), each asked before every attempt, retries included. */
  allowances?: readonly RequestAllowance[];
}

/** ServiceClient sends requests through one rate limiter and returns `result`. */
export interface ServiceClient {
  /** request sends one call and resolves with the response's `result` (undefined for 204). */
  request<T = unknown>(request: ServiceRequest, options?: RequestOptions): Promise<T>;
  stats(): ServiceStats;
}

/**
 * RequestEvent describes one finished attempt, for `--verbose`. It is built from the
 * method, route and path only, never from headers, so it cannot carry the API key.
 */
export interface RequestEvent {
  method: HttpMethod;
  /** Route template, the rate-limit endpoint: `/v1/deals/views/{viewId}`. */
  route: string;
  /** Filled path with query: `/v1/deals/views/dv_1`. */
  path: string;
  /** 1 for the first attempt, 2 for the first retry, and so on. */
  attempt: number;
  /** HTTP status, when a response arrived. */
  status?: number;
  /** Error code when no response arrived: `service.timeout`, `service.unreachable`, `service.aborted`. */
  error?: string;
  /** Time from sending to the end of the response (or the failure). */
  ms: number;
  /** Retry-After the service sent with this response, in milliseconds. */
  retryAfterMs?: number;
  /** When this attempt will be retried: the wait before the retry. */
  retryInMs?: number;
}

/*
 * A run's ceiling on requests sent (README, "Scoped and budgeted plans"): `--budget N`
 * counts every request that leaves, retries included, so a service answering 503s
 * cannot make a run spend more than N. The client asks the allowance before each
 * attempt, the first and every retry, and refuses the attempt the ceiling has no room
 * for (`service.budget-spent`): the caller reads less, and says so.
 */

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
