import { describe, expect, it } from 'vitest';
import { DAY_MS } from '../../src/emulator/time.js';
import { call, useEmulator } from './helpers.js';

const start = useEmulator();

/** clock is a settable fake clock for the limiter. */
function clock(startAt = Date.UTC(2026, 10, 1)): { now: () => number; advance: (ms: number) => void } {
  let time = startAt;
  return { now: () => time, advance: (ms) => (time += ms) };
}

describe('auth', () => {
  it('401 without key', async () => {
    const emulator = await start();
    const reply = await call(emulator, 'GET', '/v1/recordings/views', { key: null });
    expect(reply.status).toBe(401);
    expect(reply.body.error.type).toBe('unauthorized');
  });

  it('401 with a wrong key, and the message does not echo either key', async () => {
    const emulator = await start({ apiKey: 'right-key-123' });
    const reply = await call(emulator, 'GET', '/v1/users', { key: 'wrong-key-456' });
    expect(reply.status).toBe(401);
    expect(JSON.stringify(reply.body)).not.toMatch(/right-key-123|wrong-key-456/);
  });

  it('401 on unknown routes too: nothing is revealed without a key', async () => {
    const emulator = await start();
    expect((await call(emulator, 'GET', '/v1/nothing', { key: null })).status).toBe(401);
  });

  it('401s count against neither the rate limit nor the daily quota', async () => {
    const time = clock();
    const emulator = await start({ rate: 3, burst: 3, quota: 10, now: time.now });
    for (let index = 0; index < 5; index += 1) await call(emulator, 'GET', '/v1/users', { key: 'bad' });
    const reply = await call(emulator, 'GET', '/v1/users');
    expect(reply.status).toBe(200);
    expect(reply.headers.get('x-ratelimit-remaining')).toBe('2');
    expect(reply.headers.get('x-ratelimit-daily-remaining')).toBe('9');
  });
});

describe('rate-limit headers on every response', () => {
  const limits = (reply: { headers: Headers }): (string | null)[] =>
    ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-daily-remaining'].map((name) =>
      reply.headers.get(name),
    );

  it("a 401 carries the endpoint's current headers without taking a token or quota", async () => {
    const time = clock();
    const emulator = await start({ rate: 3, burst: 3, quota: 10, now: time.now });
    expect(limits(await call(emulator, 'GET', '/v1/users'))).toEqual(['3', '2', '9']);
    expect(limits(await call(emulator, 'GET', '/v1/users', { key: null }))).toEqual(['3', '2', '9']);
    expect(limits(await call(emulator, 'GET', '/v1/workspaces/mine', { key: 'bad' }))).toEqual(['3', '3', '9']);
    expect(limits(await call(emulator, 'GET', '/v1/users'))).toEqual(['3', '1', '8']);
  });

  it('a 500 emulator fault carries the headers of the request it failed', async () => {
    const time = clock();
    const emulator = await start({
      rate: 3,
      burst: 3,
      quota: 10,
      now: time.now,
      attributeChecker: () => {
        throw new Error('checker broke');
      },
    });
    const reply = await call(emulator, 'PATCH', '/v1/deals/views/d_pub1', { body: { sort: [] } });
    expect(reply.status).toBe(500);
    expect(limits(reply)).toEqual(['3', '2', '9']);
  });
});

describe('rate limit', () => {
  it('rate limit: the 4th request in a burst of one endpoint is 429 with headers', async () => {
    const time = clock();
    const emulator = await start({ rate: 3, burst: 3, quota: 3000, now: time.now });
    const replies = [];
    for (let index = 0; index < 4; index += 1) replies.push(await call(emulator, 'GET', '/v1/deals/views'));
    expect(replies.map((reply) => reply.status)).toEqual([200, 200, 200, 429]);
    expect(replies.map((reply) => reply.headers.get('x-ratelimit-remaining'))).toEqual(['2', '1', '0', '0']);
    for (const reply of replies) expect(reply.headers.get('x-ratelimit-limit')).toBe('3');
    expect(replies.map((reply) => reply.headers.get('x-ratelimit-daily-remaining'))).toEqual([
      '2999',
      '2998',
      '2997',
      '2997',
    ]);
    expect(replies[3]?.body.error.type).toBe('rate_limited');
    expect(emulator.stats().rateLimited).toBe(1);
  });

  it('rate limit: endpoints are limited separately, by method and route template', async () => {
    const time = clock();
    const emulator = await start({ rate: 3, burst: 3, quota: 3000, now: time.now });
    for (let index = 0; index < 3; index += 1) await call(emulator, 'GET', `/v1/deals/views/d_pub${index + 1}`);
    // Same template, other id: still the same endpoint.
    expect((await call(emulator, 'GET', '/v1/deals/views/d_default1')).status).toBe(429);
    expect((await call(emulator, 'GET', '/v1/companies/views/c_pub1')).status).toBe(200);
    expect((await call(emulator, 'PATCH', '/v1/deals/views/d_pub1', { body: {} })).status).toBe(200);
    expect(emulator.stats().byEndpoint).toMatchObject({
      'GET /v1/deals/views/{viewId}': 4,
      'GET /v1/companies/views/{viewId}': 1,
    });
  });

  it('rate limit: tokens refill at the steady rate', async () => {
    const time = clock();
    const emulator = await start({ rate: 3, burst: 3, quota: 3000, now: time.now });
    for (let index = 0; index < 3; index += 1) await call(emulator, 'GET', '/v1/users');
    expect((await call(emulator, 'GET', '/v1/users')).status).toBe(429);
    time.advance(334);
    expect((await call(emulator, 'GET', '/v1/users')).status).toBe(200);
    expect((await call(emulator, 'GET', '/v1/users')).status).toBe(429);
    time.advance(1000);
    const reply = await call(emulator, 'GET', '/v1/users');
    expect(reply.status).toBe(200);
    expect(reply.headers.get('x-ratelimit-remaining')).toBe('2');
  });

  it('rate limit: Retry-After comes on some 429s and not others, the same for the same seed', async () => {
    const run = async (): Promise<(string | null)[]> => {
      const emulator = await start({ rate: 1, burst: 1, quota: 3000, now: clock().now, seed: 7 });
      const seen: (string | null)[] = [];
      await call(emulator, 'GET', '/v1/users');
      for (let index = 0; index < 20; index += 1)
        seen.push((await call(emulator, 'GET', '/v1/users')).headers.get('retry-after'));
      return seen;
    };
    const first = await run();
    expect(first).toContain('1');
    expect(first).toContain(null);
    expect(await run()).toEqual(first);
  });
});

describe('daily quota', () => {
  it('daily quota: beyond the quota every endpoint is 429 with Retry-After until the window rolls', async () => {
    const time = clock();
    const emulator = await start({ rate: 1000, burst: 1000, quota: 3, now: time.now });
    await call(emulator, 'GET', '/v1/users');
    time.advance(60_000);
    await call(emulator, 'GET', '/v1/deals/views');
    const last = await call(emulator, 'GET', '/v1/admin-automations');
    expect(last.headers.get('x-ratelimit-daily-remaining')).toBe('0');
    const refused = await call(emulator, 'GET', '/v1/workspaces/mine');
    expect(refused.status).toBe(429);
    expect(refused.body.error.type).toBe('rate_limited');
    expect(refused.headers.get('retry-after')).toBe(String(DAY_MS / 1000 - 60));
    expect(refused.headers.get('x-ratelimit-daily-remaining')).toBe('0');
    time.advance(DAY_MS - 60_000);
    const again = await call(emulator, 'GET', '/v1/workspaces/mine');
    expect(again.status).toBe(200);
    expect(again.headers.get('x-ratelimit-daily-remaining')).toBe('0');
    expect((await call(emulator, 'GET', '/v1/workspaces/mine')).status).toBe(429);
  });

  it('daily quota: X-RateLimit-Remaining is 0 whenever no call is possible, on every answer', async () => {
    const time = clock();
    const emulator = await start({ rate: 1000, burst: 1000, quota: 2, now: time.now });
    expect((await call(emulator, 'GET', '/v1/users')).headers.get('x-ratelimit-remaining')).toBe('1');
    const last = await call(emulator, 'GET', '/v1/users');
    expect(last.headers.get('x-ratelimit-remaining')).toBe('0');
    for (const reply of [
      await call(emulator, 'GET', '/v1/deals/views'),
      await call(emulator, 'GET', '/v1/deals/views', { key: null }),
    ]) {
      expect(reply.status).toBeGreaterThanOrEqual(400);
      expect(reply.headers.get('x-ratelimit-remaining')).toBe('0');
      expect(reply.headers.get('x-ratelimit-daily-remaining')).toBe('0');
    }
  });

  it('daily quota: requests refused with 429 do not spend the quota', async () => {
    const time = clock();
    const emulator = await start({ rate: 1, burst: 1, quota: 100, now: time.now });
    for (let index = 0; index < 5; index += 1) await call(emulator, 'GET', '/v1/users');
    const reply = await call(emulator, 'GET', '/v1/deals/views');
    expect(reply.headers.get('x-ratelimit-daily-remaining')).toBe('98');
  });
});

describe('limit headers', () => {
  it('error responses carry the rate-limit headers too', async () => {
    const emulator = await start();
    for (const [method, path] of [
      ['GET', '/v1/deals/views/nope'],
      ['GET', '/v1/unknown'],
      ['DELETE', '/v1/deals/views/d_default1'],
    ] as const) {
      const reply = await call(emulator, method, path);
      expect(reply.status).toBeGreaterThanOrEqual(400);
      expect(reply.headers.get('x-ratelimit-limit')).toBe('1000');
      expect(reply.headers.get('x-ratelimit-remaining')).not.toBeNull();
      expect(reply.headers.get('x-ratelimit-daily-remaining')).not.toBeNull();
    }
  });
});
