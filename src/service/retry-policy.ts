/**
 * When to retry a failed attempt, and after how long. Pure: the client feeds it the
 * outcome of an attempt and a random source, and carries out the decision.
 *
 * Retried: 429, 500, 502, 503, 504, network errors and timeouts, with full-jitter
 * exponential backoff, honouring `Retry-After` (the service's "Rate limits").
 * A request that is not idempotent (a creating POST) is retried only when the service
 * certainly did not process it: a 429 or 503, or a connection that never opened. After a
 * timeout, a reset or a 5xx its outcome is unknown, and retrying could create a
 * duplicate, so the caller gets `outcome-unknown` and re-reads instead.
 */

export interface RetryPolicy {
  /** Attempts in all, the first included. */
  maxAttempts: number;
  /** Backoff ceiling for the first retry; doubles per attempt. */
  baseMs: number;
  capMs: number;
  /** A longer Retry-After fails at once, saying when to retry, instead of hanging. */
  maxRetryAfterMs: number;
}

/** DEFAULT_RETRY_POLICY: 5 attempts, 500 ms base, 10 s cap, Retry-After up to 60 s. */
export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 5,
  baseMs: 500,
  capMs: 10_000,
  maxRetryAfterMs: 60_000,
};

const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 500, 502, 503, 504]);

/**
 * REFUSED_UNPROCESSED are the statuses that say the request was not carried out: too
 * many requests, and the service unavailable (it did not handle the request at all).
 * A 500, 502 or 504 may come after the work was done.
 */
export const REFUSED_UNPROCESSED: ReadonlySet<number> = new Set([429, 503]);

export type AttemptOutcome =
  | { kind: 'status'; status: number; retryAfterMs: number | undefined }
  /**
   * `beforeSend`: the connection never opened (refused, DNS), so nothing reached the
   * service. `permanent`: retrying cannot help (the host name does not resolve).
   */
  | { kind: 'network'; code: string; beforeSend: boolean; permanent: boolean }
  | { kind: 'timeout' };

type RetryDecision =
  | { action: 'retry'; delayMs: number /** the delay pauses the whole endpoint (a 429) */; pauseEndpoint: boolean }
  | { action: 'fail'; reason: 'not-retryable' | 'exhausted' | 'outcome-unknown' }
  | { action: 'fail'; reason: 'retry-after-too-long'; retryAfterMs: number };

/** backoffDelay is the full-jitter delay before retry number `attempt` (1 = first retry). */
export function backoffDelay(attempt: number, policy: RetryPolicy, random: () => number): number {
  const ceiling = Math.min(policy.capMs, policy.baseMs * 2 ** (attempt - 1));
  return Math.floor(random() * ceiling);
}

/**
 * decideRetry decides what follows attempt number `attempt` (1-based) that ended in
 * `outcome`.
 */
export function decideRetry(
  outcome: AttemptOutcome,
  context: { attempt: number; idempotent: boolean },
  policy: RetryPolicy,
  random: () => number,
): RetryDecision {
  const { attempt, idempotent } = context;
  switch (outcome.kind) {
    case 'status':
      if (!RETRYABLE_STATUSES.has(outcome.status)) return { action: 'fail', reason: 'not-retryable' };
      // A 429 and a 503 are refused before any processing; another 5xx may have half-happened.
      if (!idempotent && !REFUSED_UNPROCESSED.has(outcome.status)) return { action: 'fail', reason: 'outcome-unknown' };
      if (outcome.retryAfterMs !== undefined && outcome.retryAfterMs > policy.maxRetryAfterMs) {
        return { action: 'fail', reason: 'retry-after-too-long', retryAfterMs: outcome.retryAfterMs };
      }
      break;
    case 'network':
      if (outcome.permanent) return { action: 'fail', reason: 'not-retryable' };
      if (!idempotent && !outcome.beforeSend) return { action: 'fail', reason: 'outcome-unknown' };
      break;
    case 'timeout':
      if (!idempotent) return { action: 'fail', reason: 'outcome-unknown' };
      break;
  }
  if (attempt >= policy.maxAttempts) return { action: 'fail', reason: 'exhausted' };
  const retryAfterMs = outcome.kind === 'status' ? outcome.retryAfterMs : undefined;
  const pauseEndpoint = outcome.kind === 'status' && outcome.status === 429;
  return { action: 'retry', delayMs: retryAfterMs ?? backoffDelay(attempt, policy, random), pauseEndpoint };
}

/**
 * parseRetryAfter reads a `Retry-After` header: delta seconds (the service's form) or
 * an HTTP date, as milliseconds from `nowMs`. Anything else is ignored (undefined), so
 * the client falls back to its own backoff.
 */
export function parseRetryAfter(value: string | null, nowMs: number): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  const date = Date.parse(text);
  if (Number.isNaN(date) || !/[a-z]/i.test(text)) return undefined;
  return Math.max(0, date - nowMs);
}
