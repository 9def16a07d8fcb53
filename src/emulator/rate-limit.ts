import { DAY_MS } from './time.js';

/**
 * The emulator's limits (the service's "Rate limits"): a token bucket per endpoint
 * (method + route template) refilled at `rate` per second up to `burst`, and a daily
 * quota per workspace over a rolling 24 hours. The clock is injected so tests step
 * time instead of sleeping.
 *
 * Decisions where the contract is silent:
 * - A request refused with 429 consumes neither a token nor quota, so a client that
 *   backs off is not punished twice.
 * - Unauthenticated requests (401) are not counted at all: without a valid key the
 *   emulator cannot tell which workspace's budget they would spend.
 * - `X-RateLimit-Remaining` is the calls possible right now on the endpoint: the
 *   lower of its tokens and the daily remainder, so it is 0 whenever the next call
 *   would be refused, whichever limit refuses it.
 */

interface LimitSettings {
  /** Steady per-endpoint rate, requests per second. */
  rate: number;
  /** Requests an idle endpoint accepts at once. */
  burst: number;
  /** Requests per rolling 24 hours for the whole workspace. */
  quota: number;
}

/** LimitDecision is the verdict on one request plus the values of the rate-limit headers. */
export interface LimitDecision {
  allowed: boolean;
  /** Why a refused request was refused. */
  reason?: 'rate' | 'quota';
  /** Seconds until a refused request would be accepted (rounded up, at least 1). */
  retryAfterSeconds?: number;
  /** `X-RateLimit-Remaining`: calls possible right now on this endpoint (never above `dailyRemaining`). */
  remaining: number;
  /** `X-RateLimit-Daily-Remaining`. */
  dailyRemaining: number;
}

interface Bucket {
  tokens: number;
  updatedAt: number;
}

/** RateLimiter decides whether a request may proceed and counts it if so. */
interface RateLimiter {
  take(endpoint: string, now: number): LimitDecision;
  /** dailyRemaining reports the quota left, for headers on responses that were not limited. */
  dailyRemaining(now: number): number;
  /**
   * peek reports the header values of an endpoint without taking a token or quota,
   * for answers that must not count (401) or that fail before the limiter ran.
   */
  peek(endpoint: string, now: number): Pick<LimitDecision, 'remaining' | 'dailyRemaining'>;
}

/** createRateLimiter builds the per-endpoint buckets and the rolling daily quota. */
export function createRateLimiter(settings: LimitSettings): RateLimiter {
  const buckets = new Map<string, Bucket>();
  // Timestamps of counted requests, oldest first; trimmed as they leave the window.
  const counted: number[] = [];
  let head = 0;

  const trim = (now: number): void => {
    while (head < counted.length && (counted[head] as number) <= now - DAY_MS) head += 1;
    if (head > 1024 && head * 2 > counted.length) {
      counted.splice(0, head);
      head = 0;
    }
  };
  const dailyRemaining = (now: number): number => {
    trim(now);
    return Math.max(0, settings.quota - (counted.length - head));
  };
  // The tokens an endpoint has at `now`, computed without touching its bucket.
  const tokensAt = (endpoint: string, now: number): number => {
    const bucket = buckets.get(endpoint);
    if (bucket === undefined) return settings.burst;
    const elapsed = Math.max(0, now - bucket.updatedAt) / 1000;
    return Math.min(settings.burst, bucket.tokens + elapsed * settings.rate);
  };
  const refusal = (reason: 'rate' | 'quota', waitSeconds: number, daily: number): LimitDecision => ({
    allowed: false,
    reason,
    retryAfterSeconds: Math.max(1, Math.ceil(waitSeconds)),
    remaining: 0,
    dailyRemaining: daily,
  });

  return {
    dailyRemaining,
    peek: (endpoint, now) => {
      const daily = dailyRemaining(now);
      return { remaining: Math.min(Math.floor(tokensAt(endpoint, now)), daily), dailyRemaining: daily };
    },
    take(endpoint, now) {
      const daily = dailyRemaining(now);
      const bucket: Bucket = { tokens: tokensAt(endpoint, now), updatedAt: now };
      buckets.set(endpoint, bucket);
      if (daily <= 0) return refusal('quota', ((counted[head] ?? now) + DAY_MS - now) / 1000, 0);
      if (bucket.tokens < 1) return refusal('rate', (1 - bucket.tokens) / settings.rate, daily);
      bucket.tokens -= 1;
      counted.push(now);
      return { allowed: true, remaining: Math.min(Math.floor(bucket.tokens), daily - 1), dailyRemaining: daily - 1 };
    },
  };
}
