import { describe, expect, it } from 'vitest';
import type { ServiceError } from '../../src/errors.js';
import { createServiceClient } from '../../src/service/client.js';
import type { FetchLike } from '../../src/service/http-attempt.js';
import { FakeClock } from './helpers.js';

/** A fetch answering from a script, recording the fake time of each call. */
function scriptedFetch(
  clock: FakeClock,
  answer: (url: string, index: number) => Response | 'hang',
): { fetch: FetchLike; calls: Array<{ path: string; at: number }> } {
  const calls: Array<{ path: string; at: number }> = [];
  const fetch: FetchLike = (url, init) => {
    const path = new URL(url).pathname;
    calls.push({ path, at: clock.now() });
    const reply = answer(path, calls.length - 1);
    if (reply !== 'hang') return Promise.resolve(reply);
    return new Promise((_resolve, reject) => {
      init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')), { once: true });
    });
  };
  return { fetch, calls };
}

const ok = (headers: Record<string, string> = {}): Response =>
  new Response(JSON.stringify({ result: 'ok' }), { status: 200, headers });
const tooMany = (headers: Record<string, string> = {}): Response =>
  new Response(JSON.stringify({ error: { type: 'rate_limited', message: 'slow down' } }), { status: 429, headers });

describe('client timing with a fake clock', () => {
  it('a 429 with Retry-After pauses only its endpoint, and the retry goes first', async () => {
    const clock = new FakeClock();
    let first429 = true;
    const { fetch, calls } = scriptedFetch(clock, (path) => {
      if (path === '/v1/a' && first429) {
        first429 = false;
        return tooMany({ 'Retry-After': '2' });
      }
      return ok();
    });
    const client = createServiceClient({
      baseUrl: 'http://svc.test',
      apiKey: 'k-123456',
      rate: 10,
      clock,
      fetch,
      random: () => 0.5,
    });
    const results = [
      ...[1, 2, 3].map(() => client.request({ method: 'GET', route: '/v1/a' })),
      ...[1, 2, 3].map(() => client.request({ method: 'GET', route: '/v1/b' })),
    ];
    await clock.advance(5000);
    await expect(Promise.all(results)).resolves.toEqual(['ok', 'ok', 'ok', 'ok', 'ok', 'ok']);
    const at = (path: string): number[] => calls.filter((c) => c.path === path).map((c) => Math.round(c.at));
    expect(at('/v1/a')).toEqual([0, 2000, 2100, 2200]);
    expect(at('/v1/b')).toEqual([0, 100, 200]);
    expect(client.stats()).toEqual({ requests: 7, retries: 1, rateLimited: 1, dailyRemaining: null });
  });

  it('a 429 without Retry-After pauses the endpoint for the jittered backoff', async () => {
    const clock = new FakeClock();
    const { fetch, calls } = scriptedFetch(clock, (_path, index) => (index === 0 ? tooMany() : ok()));
    const client = createServiceClient({
      baseUrl: 'http://svc.test',
      apiKey: 'k-123456',
      rate: 10,
      clock,
      fetch,
      random: () => 0.5,
    });
    const done = client.request({ method: 'GET', route: '/v1/a' });
    await clock.advance(1000);
    await expect(done).resolves.toBe('ok');
    expect(calls.map((c) => c.at)).toEqual([0, 250]);
  });

  it('X-RateLimit-Remaining: 0 delays the next request on that endpoint by the service interval', async () => {
    const clock = new FakeClock();
    const { fetch, calls } = scriptedFetch(clock, (_path, index) =>
      index === 0 ? ok({ 'X-RateLimit-Remaining': '0', 'X-RateLimit-Limit': '2' }) : ok(),
    );
    const client = createServiceClient({ baseUrl: 'http://svc.test', apiKey: 'k-123456', rate: 10, clock, fetch });
    const both = Promise.all([
      client.request({ method: 'GET', route: '/v1/a' }),
      client.request({ method: 'GET', route: '/v1/a' }),
    ]);
    await clock.advance(2000);
    await both;
    expect(calls.map((c) => c.at)).toEqual([0, 500]);
  });

  it('5xx backoff grows exponentially and the request gives up after maxAttempts', async () => {
    const clock = new FakeClock();
    const { fetch, calls } = scriptedFetch(clock, () => new Response('{}', { status: 503 }));
    const client = createServiceClient({
      baseUrl: 'http://svc.test',
      apiKey: 'k-123456',
      rate: 1000,
      maxAttempts: 4,
      clock,
      fetch,
      random: () => 0.5,
    });
    const failed = client.request({ method: 'GET', route: '/v1/a' }).catch((error: unknown) => error);
    await clock.advance(10_000);
    const error = (await failed) as ServiceError;
    expect(error.code).toBe('service.unavailable');
    expect(error.message).toContain('after 4 attempts');
    expect(calls.map((c) => c.at)).toEqual([0, 250, 750, 1750]);
    expect(client.stats()).toMatchObject({ requests: 4, retries: 3 });
  });

  it('times an attempt out on the injected clock', async () => {
    const clock = new FakeClock();
    const { fetch, calls } = scriptedFetch(clock, () => 'hang');
    const client = createServiceClient({
      baseUrl: 'http://svc.test',
      apiKey: 'k-123456',
      rate: 1000,
      maxAttempts: 2,
      timeoutMs: 1000,
      clock,
      fetch,
      random: () => 0,
    });
    const failed = client.request({ method: 'GET', route: '/v1/a' }).catch((error: unknown) => error);
    await clock.advance(5000);
    const error = (await failed) as ServiceError;
    expect(error.code).toBe('service.timeout');
    expect(calls.map((c) => c.at)).toEqual([0, 1000]);
    expect(clock.pending).toBe(0);
  });
});
