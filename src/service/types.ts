/**
 * The interface the core uses to talk to the service. The core receives a client as
 * a parameter, so tests feed it a fake or the emulator.
 */

import type { RequestAllowance } from './allowance.js';

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
