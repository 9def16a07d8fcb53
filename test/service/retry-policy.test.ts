import { describe, expect, it } from 'vitest';
import {
  backoffDelay,
  decideRetry,
  DEFAULT_RETRY_POLICY,
  parseRetryAfter,
  type AttemptOutcome,
} from '../../src/service/retry-policy.js';

const policy = DEFAULT_RETRY_POLICY;
const half = (): number => 0.5;
const status = (code: number, retryAfterMs?: number): AttemptOutcome => ({
  kind: 'status',
  status: code,
  retryAfterMs,
});
const refused: AttemptOutcome = { kind: 'network', code: 'ECONNREFUSED', beforeSend: true, permanent: false };
const reset: AttemptOutcome = { kind: 'network', code: 'ECONNRESET', beforeSend: false, permanent: false };

describe('backoffDelay', () => {
  it('doubles the ceiling from 500 ms up to the 10 s cap, with full jitter', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => backoffDelay(n, policy, half))).toEqual([
      250, 500, 1000, 2000, 4000, 5000, 5000,
    ]);
    expect(backoffDelay(3, policy, () => 0)).toBe(0);
    expect(backoffDelay(9, policy, () => 0.999999)).toBeLessThan(10_000);
  });
});

describe('decideRetry', () => {
  const idem = (attempt: number) => ({ attempt, idempotent: true });
  const post = (attempt: number) => ({ attempt, idempotent: false });

  it.each([429, 500, 502, 503, 504])('retries %i with backoff', (code) => {
    expect(decideRetry(status(code), idem(2), policy, half)).toEqual({
      action: 'retry',
      delayMs: 500,
      pauseEndpoint: code === 429,
    });
  });

  it.each([400, 401, 403, 404, 409])('does not retry %i', (code) => {
    expect(decideRetry(status(code), idem(1), policy, half)).toEqual({ action: 'fail', reason: 'not-retryable' });
  });

  it('honours Retry-After instead of backoff', () => {
    expect(decideRetry(status(429, 2000), idem(1), policy, half)).toEqual({
      action: 'retry',
      delayMs: 2000,
      pauseEndpoint: true,
    });
  });

  it('fails at once on a Retry-After beyond the limit', () => {
    expect(decideRetry(status(429, 3_600_000), idem(1), policy, half)).toEqual({
      action: 'fail',
      reason: 'retry-after-too-long',
      retryAfterMs: 3_600_000,
    });
  });

  it('stops after maxAttempts', () => {
    expect(decideRetry(status(503), idem(5), policy, half)).toEqual({ action: 'fail', reason: 'exhausted' });
    expect(decideRetry({ kind: 'timeout' }, idem(5), policy, half)).toEqual({ action: 'fail', reason: 'exhausted' });
    expect(decideRetry(refused, idem(5), policy, half)).toEqual({ action: 'fail', reason: 'exhausted' });
  });

  it('retries timeouts and network errors of idempotent requests', () => {
    expect(decideRetry({ kind: 'timeout' }, idem(1), policy, half).action).toBe('retry');
    expect(decideRetry(reset, idem(1), policy, half).action).toBe('retry');
  });

  it('does not retry a host name that does not resolve', () => {
    const dns: AttemptOutcome = { kind: 'network', code: 'ENOTFOUND', beforeSend: true, permanent: true };
    expect(decideRetry(dns, idem(1), policy, half)).toEqual({ action: 'fail', reason: 'not-retryable' });
  });

  it('retries a non-idempotent request only when it certainly was not processed', () => {
    // A 429 and a 503 say the service did not handle the request.
    expect(decideRetry(status(429), post(1), policy, half).action).toBe('retry');
    expect(decideRetry(status(503), post(1), policy, half).action).toBe('retry');
    expect(decideRetry(refused, post(1), policy, half).action).toBe('retry');
    for (const outcome of [status(500), status(502), status(504), reset, { kind: 'timeout' } as const]) {
      expect(decideRetry(outcome, post(1), policy, half)).toEqual({ action: 'fail', reason: 'outcome-unknown' });
    }
    expect(decideRetry(status(500), post(5), policy, half)).toEqual({ action: 'fail', reason: 'outcome-unknown' });
  });
});

describe('parseRetryAfter', () => {
  it('reads delta seconds, fractions included', () => {
    expect(parseRetryAfter('2', 0)).toBe(2000);
    expect(parseRetryAfter(' 0.25 ', 0)).toBe(250);
  });

  it('reads an HTTP date relative to now', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Tue, 31 Dec 2024 23:00:00 GMT', now)).toBe(0);
  });

  it('ignores absent or unreadable values', () => {
    expect(parseRetryAfter(null, 0)).toBeUndefined();
    expect(parseRetryAfter('soon', 0)).toBeUndefined();
    expect(parseRetryAfter('-1', 0)).toBeUndefined();
  });
});
