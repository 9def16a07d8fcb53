import { describe, expect, it } from 'vitest';
import { InternalError, ServiceError, UsageError } from '../../src/errors.js';
import { QuotaTracker, readDailyRemaining } from '../../src/service/quota.js';
import { buildQuery, endpointKey, fillRoute, parseBaseUrl, requestPath } from '../../src/service/url.js';
import { formatRequestEvent } from '../../src/service/verbose-log.js';

describe('url building', () => {
  it('fills placeholders with encoded values and keeps the template as endpoint key', () => {
    expect(fillRoute('/v1/deals/views/{viewId}', { viewId: 'dv/1 ?' })).toBe('/v1/deals/views/dv%2F1%20%3F');
    expect(endpointKey('PATCH', '/v1/deals/views/{viewId}')).toBe('PATCH /v1/deals/views/{viewId}');
  });

  it('treats a missing, empty or unused parameter as a bug', () => {
    expect(() => fillRoute('/v1/users/{userId}', {})).toThrow(InternalError);
    expect(() => fillRoute('/v1/users/{userId}', { userId: '' })).toThrow(InternalError);
    expect(() => fillRoute('/v1/users', { userId: 'u1' })).toThrow(InternalError);
  });

  it('appends the query in order, skipping undefined', () => {
    expect(buildQuery({ limit: 100, cursor: undefined, userEmail: 'a+b@x.co' })).toBe(
      'limit=100&userEmail=a%2Bb%40x.co',
    );
    expect(requestPath({ route: '/v1/deals/views/pinned', query: { userEmail: 'a@x.co' } })).toBe(
      '/v1/deals/views/pinned?userEmail=a%40x.co',
    );
    expect(requestPath({ route: '/v1/users', query: { cursor: undefined } })).toBe('/v1/users');
  });
});

describe('parseBaseUrl', () => {
  it('accepts http(s) roots and drops a trailing slash', () => {
    expect(parseBaseUrl('http://127.0.0.1:4010/')).toBe('http://127.0.0.1:4010');
    expect(parseBaseUrl('https://api.example.com/prefix')).toBe('https://api.example.com/prefix');
  });

  it.each([
    ['not a url', 'is not a URL'],
    ['ftp://example.com', 'http:// or https://'],
    ['https://api.example.com/v1', 'ends with /v1'],
    ['https://api.example.com/?x=1', 'query or fragment'],
  ])('rejects %s with a clear UsageError', (raw, words) => {
    const error = catchError(() => parseBaseUrl(raw));
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).code).toBe('usage.base-url');
    expect((error as UsageError).message).toContain(words);
    expect((error as UsageError).hint).toBeDefined();
  });

  it('rejects credentials without echoing them', () => {
    const error = catchError(() => parseBaseUrl('https://user:s3cr3t@api.example.com')) as UsageError;
    expect(error.code).toBe('usage.base-url');
    expect(`${error.message} ${error.hint}`).not.toContain('s3cr3t');
  });
});

describe('quota', () => {
  it('reads either spelling of the daily header', () => {
    expect(readDailyRemaining(new Headers({ 'X-RateLimit-Daily-Remaining': '12' }))).toBe(12);
    expect(readDailyRemaining(new Headers({ 'X-Daily-RateLimit-Remaining': '7' }))).toBe(7);
    expect(readDailyRemaining(new Headers({ 'X-RateLimit-Daily-Remaining': 'lots' }))).toBeUndefined();
  });

  it('keeps the lowest count when responses arrive out of order', () => {
    const quota = new QuotaTracker();
    quota.observe(90);
    quota.observe(91);
    expect(quota.dailyRemaining).toBe(90);
    quota.observe(undefined);
    expect(quota.dailyRemaining).toBe(90);
  });

  it('counts a request sent first but reached the service last: its answer, arriving last, says one less', () => {
    // Two requests in flight to two endpoints; the second sent is counted first (91 left), then the first (90 left).
    const quota = new QuotaTracker();
    quota.observe(91);
    quota.observe(90);
    expect(quota.dailyRemaining).toBe(90);
    // With a reserve of 89 nothing more may be sent: one more would leave 89 − 1.
    expect(() => quota.check(0, 89, 'GET /v1/users')).not.toThrow();
    expect(() => quota.check(0, 90, 'GET /v1/users')).toThrow(ServiceError);
  });

  it('refuses when in-flight requests and the reserve would use up the rest', () => {
    const quota = new QuotaTracker();
    expect(() => quota.check(100, 100, 'GET /v1/users')).not.toThrow();
    quota.observe(3);
    expect(() => quota.check(2, 0, 'GET /v1/users')).not.toThrow();
    expect(() => quota.check(3, 0, 'GET /v1/users')).toThrow(ServiceError);
    const error = catchError(() => quota.check(1, 2, 'GET /v1/users')) as ServiceError;
    expect(error.code).toBe('service.quota-exhausted');
    expect(error.message).toContain('GET /v1/users');
    expect(error.message).toContain('the 2 requests kept in reserve for the other integrations');
    expect(error.hint).toContain('--reserve');
    const spent = catchError(() => quota.check(3, 0, 'GET /v1/users')) as ServiceError;
    expect(spent.message).toContain(
      'the daily request quota is used up (the service says 3 requests are left today, 3 already in flight)',
    );
    // The total is no header's: the hint gives none (a workspace's quota need not be the documented 3,000).
    expect(spent.hint).not.toMatch(/3,000|--reserve/);
  });
});

describe('formatRequestEvent', () => {
  const base = { method: 'GET' as const, route: '/v1/deals/views', path: '/v1/deals/views', ms: 123 };
  it('prints method, path, status and time, plus retry details', () => {
    expect(formatRequestEvent({ ...base, attempt: 1, status: 200 })).toBe('GET /v1/deals/views 200 123ms');
    expect(formatRequestEvent({ ...base, attempt: 3, status: 200 })).toBe('GET /v1/deals/views 200 123ms retry 2');
    expect(formatRequestEvent({ ...base, attempt: 1, status: 429, retryAfterMs: 1000, retryInMs: 1000 })).toBe(
      'GET /v1/deals/views 429 123ms retry-after 1s',
    );
    expect(formatRequestEvent({ ...base, attempt: 1, status: 503, retryInMs: 412 })).toBe(
      'GET /v1/deals/views 503 123ms (retrying in 412ms)',
    );
    expect(formatRequestEvent({ ...base, attempt: 2, error: 'service.timeout' })).toBe(
      'GET /v1/deals/views service.timeout 123ms retry 1',
    );
  });
});

function catchError(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error');
}
