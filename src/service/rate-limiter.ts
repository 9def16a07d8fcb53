/**
 * The one rate limiter every request goes through. The service
 * limits each endpoint (method + route template) to a steady rate with a small burst
 * (the service's "Rate limits"); the limiter keeps one token bucket and one FIFO
 * queue per endpoint, so different endpoints proceed concurrently while calls to one
 * endpoint are spaced at the configured rate.
 *
 * The timing rules are pure functions over a BucketState (a GCRA formulation of the
 * token bucket: `tat` is the theoretical arrival time of the next conforming request),
 * tested with plain numbers; RateLimiter only adds the queues and the sleeping.
 */
import type { Clock } from './clock.js';

/** BucketPolicy is the spacing of one endpoint: `intervalMs` = 1000 / rate. */
interface BucketPolicy {
  intervalMs: number;
  /** Requests that may go back to back before spacing applies; 1 = never faster than the rate. */
  burst: number;
}

/** BucketState is one endpoint's timing: next conforming time and any pause. */
export interface BucketState {
  readonly tat: number;
  readonly blockedUntil: number;
}

/** FRESH_BUCKET is the state of an endpoint that has not been used yet. */
export const FRESH_BUCKET: BucketState = { tat: Number.NEGATIVE_INFINITY, blockedUntil: Number.NEGATIVE_INFINITY };

/** slotDelay is how long a request arriving at `now` must wait before it may be sent. */
export function slotDelay(state: BucketState, now: number, policy: BucketPolicy): number {
  const conforming = state.tat - (policy.burst - 1) * policy.intervalMs;
  return Math.max(0, Math.max(conforming, state.blockedUntil) - now);
}

/** takeSlot records a request sent at `now` (call it only when slotDelay is 0). */
export function takeSlot(state: BucketState, now: number, policy: BucketPolicy): BucketState {
  return { ...state, tat: Math.max(state.tat, now) + policy.intervalMs };
}

/** blockUntil pauses the endpoint until `until`; pauses only ever extend. */
export function blockUntil(state: BucketState, until: number): BucketState {
  return until > state.blockedUntil ? { ...state, blockedUntil: until } : state;
}

interface Waiter {
  resolve: () => void;
  reject: (reason: unknown) => void;
}

interface Endpoint {
  state: BucketState;
  queue: Waiter[];
  pumping: boolean;
}

interface RateLimiterOptions {
  /** Requests per second per endpoint. */
  rate: number;
  burst: number;
  clock: Clock;
  /** Aborting rejects every queued acquire with the signal's reason. */
  signal?: AbortSignal;
}

/**
 * RateLimiter hands out send slots per endpoint key in FIFO order. It never polls: each
 * endpoint with waiters has one pump that sleeps until the head's slot and re-checks,
 * because a 429 may have paused the endpoint meanwhile.
 */
export class RateLimiter {
  private readonly endpoints = new Map<string, Endpoint>();
  private readonly policy: BucketPolicy;
  private readonly clock: Clock;
  private readonly signal: AbortSignal | undefined;

  constructor(options: RateLimiterOptions) {
    this.policy = { intervalMs: 1000 / options.rate, burst: options.burst };
    this.clock = options.clock;
    this.signal = options.signal;
    this.signal?.addEventListener('abort', () => this.rejectAll(), { once: true });
  }

  /**
   * acquire resolves when a request on `key` may be sent. `front` puts a retry ahead
   * of requests that queued after the original attempt. Aborting `signal` takes this
   * one request out of the queue (an interrupted apply sends nothing new) and rejects
   * it with the signal's reason; the others keep their places.
   */
  acquire(key: string, options: { front?: boolean; signal?: AbortSignal } = {}): Promise<void> {
    if (this.signal?.aborted === true) return Promise.reject(this.signal.reason);
    const own = options.signal;
    if (own?.aborted === true) return Promise.reject(own.reason);
    const endpoint = this.endpoint(key);
    return new Promise<void>((resolve, reject) => {
      const onAbort = (): void => {
        const index = endpoint.queue.indexOf(waiter);
        if (index >= 0) endpoint.queue.splice(index, 1);
        reject(own?.reason);
      };
      const waiter: Waiter = {
        resolve: () => {
          own?.removeEventListener('abort', onAbort);
          resolve();
        },
        reject: (reason) => {
          own?.removeEventListener('abort', onAbort);
          reject(reason);
        },
      };
      own?.addEventListener('abort', onAbort, { once: true });
      if (options.front === true) endpoint.queue.unshift(waiter);
      else endpoint.queue.push(waiter);
      if (!endpoint.pumping) void this.pump(endpoint);
    });
  }

  /** pause stops sending on `key` until `untilMs` (a 429's Retry-After or backoff). */
  pause(key: string, untilMs: number): void {
    const endpoint = this.endpoint(key);
    endpoint.state = blockUntil(endpoint.state, untilMs);
  }

  /**
   * exhausted handles `X-RateLimit-Remaining: 0`: the service has no call left on this
   * endpoint right now, so wait one interval (the longer of ours and the service's
   * advertised rate) before the next request on it.
   */
  exhausted(key: string, serviceRate?: number): void {
    const serviceInterval = serviceRate !== undefined && serviceRate > 0 ? 1000 / serviceRate : 0;
    this.pause(key, this.clock.now() + Math.max(this.policy.intervalMs, serviceInterval));
  }

  /** queued is the number of requests waiting for a slot on `key`. */
  queued(key: string): number {
    return this.endpoints.get(key)?.queue.length ?? 0;
  }

  private endpoint(key: string): Endpoint {
    let endpoint = this.endpoints.get(key);
    if (endpoint === undefined) {
      endpoint = { state: FRESH_BUCKET, queue: [], pumping: false };
      this.endpoints.set(key, endpoint);
    }
    return endpoint;
  }

  private async pump(endpoint: Endpoint): Promise<void> {
    endpoint.pumping = true;
    try {
      while (endpoint.queue.length > 0) {
        const now = this.clock.now();
        const delay = slotDelay(endpoint.state, now, this.policy);
        if (delay > 0) {
          try {
            await this.clock.sleep(delay, this.signal);
          } catch {
            // Only an abort ends a sleep early, and the abort listener rejects the queue.
            this.rejectAll();
            return;
          }
          continue;
        }
        endpoint.state = takeSlot(endpoint.state, now, this.policy);
        endpoint.queue.shift()?.resolve();
      }
    } finally {
      endpoint.pumping = false;
    }
  }

  private rejectAll(): void {
    const reason: unknown = this.signal?.reason;
    for (const endpoint of this.endpoints.values()) {
      for (const waiter of endpoint.queue.splice(0)) waiter.reject(reason);
    }
  }
}
