import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import type { ServiceError } from '../../src/errors.js';
import { createServiceClient, type ClientOptions } from '../../src/service/client.js';
import type { RequestEvent } from '../../src/service/types.js';
import { verboseLogger } from '../../src/service/verbose-log.js';
import {
  closedPort,
  FakeClock,
  json,
  runOnFakeClock,
  startServer,
  wireTracker,
  type Handler,
  type TestServer,
  serviceFailure,
} from './helpers.js';

const KEY = 'sk_live_Zq8-very-secret-key';
const servers: TestServer[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(handler: Handler): Promise<TestServer> {
  const server = await startServer(handler);
  servers.push(server);
  return server;
}

/**
 * A client with a fast rate and tiny backoff, so tests that do not look at time wait
 * next to nothing; tests that look at time give it a FakeClock.
 */
function client(baseUrl: string, options: Partial<ClientOptions> = {}) {
  return createServiceClient({ baseUrl, apiKey: KEY, rate: 1000, backoff: { baseMs: 5, capMs: 20 }, ...options });
}

function expectNoKey(error: ServiceError): void {
  for (const text of [
    error.message,
    error.hint ?? '',
    error.stack ?? '',
    String(error),
    inspect(error, { depth: 5 }),
  ]) {
    expect(text).not.toContain(KEY);
  }
}

describe('success responses', () => {
  it('returns result for 200 and 201, undefined for an empty 201 and a 204, and sends the right headers', async () => {
    const server = await serve((hit, res) => {
      if (hit.method === 'GET') json(res, 200, { result: [{ id: 'dv_1' }] });
      else if (hit.method === 'POST') json(res, 201, { result: { id: 'dv_2' } });
      else if (hit.method === 'DELETE') res.writeHead(204).end();
      else res.writeHead(201).end();
    });
    const c = client(server.baseUrl);
    await expect(c.request({ method: 'GET', route: '/v1/things' })).resolves.toEqual([{ id: 'dv_1' }]);
    await expect(c.request({ method: 'POST', route: '/v1/things', body: { name: 'A' } })).resolves.toEqual({
      id: 'dv_2',
    });
    await expect(
      c.request({ method: 'DELETE', route: '/v1/things/{viewId}', params: { viewId: 'dv 2' } }),
    ).resolves.toBeUndefined();
    await expect(
      c.request({
        method: 'PUT',
        route: '/v1/things/pinned',
        query: { userEmail: 'a@x.co' },
        body: { viewIds: ['dv_1'] },
      }),
    ).resolves.toBeUndefined();
    const [get, post, del, put] = server.hits;
    expect(get?.headers['x-service-key']).toBe(KEY);
    expect(get?.headers['user-agent']).toMatch(/^viewctl\//);
    expect(get?.headers['content-type']).toBeUndefined();
    expect(post?.headers['content-type']).toBe('application/json');
    expect(JSON.parse(post?.body ?? '')).toEqual({ name: 'A' });
    expect(del?.url).toBe('/v1/things/dv%202');
    expect(put?.url).toBe('/v1/things/pinned?userEmail=a%40x.co');
    expect(c.stats()).toEqual({ requests: 4, retries: 0, rateLimited: 0, dailyRemaining: null });
  });

  it('reports a body that is not JSON, or has no result, as service.bad-response without retrying', async () => {
    const server = await serve((hit, res) => {
      if (hit.url === '/v1/html') res.writeHead(200, { 'content-type': 'text/html' }).end('<html>login</html>');
      else json(res, 200, { data: 1 });
    });
    const c = client(server.baseUrl);
    const html = await serviceFailure(c.request({ method: 'GET', route: '/v1/html' }));
    expect(html.code).toBe('service.bad-response');
    expect(html.message).toContain('GET /v1/html');
    expect(html.hint).toContain('--base-url');
    expect((await serviceFailure(c.request({ method: 'GET', route: '/v1/other' }))).message).toContain(
      'without a "result"',
    );
    expect(server.hits).toHaveLength(2);
  });

  it('does not follow a redirect, so the key never goes elsewhere', async () => {
    const server = await serve((_hit, res) => res.writeHead(302, { location: 'http://elsewhere.test/v1/x' }).end());
    const error = await serviceFailure(client(server.baseUrl).request({ method: 'GET', route: '/v1/x' }));
    expect(error.code).toBe('service.bad-response');
    expect(error.message).toContain('http://elsewhere.test');
    expect(server.hits).toHaveLength(1);
  });
});

describe('error responses', () => {
  it('401 gives service.unauthorized with the hint, and the key nowhere, even when the service echoes it', async () => {
    const server = await serve((hit, res) =>
      json(res, 401, { error: { type: 'unauthorized', message: `bad key ${String(hit.headers['x-service-key'])}` } }),
    );
    const error = await serviceFailure(client(server.baseUrl).request({ method: 'GET', route: '/v1/workspaces/mine' }));
    expect(error.code).toBe('service.unauthorized');
    expect(error.status).toBe(401);
    expect(error.endpoint).toBe('GET /v1/workspaces/mine');
    expect(error.hint).toBe(
      'check VIEWCTL_API_KEY; it is the workspace key from the settings section for API and webhooks',
    );
    expect(error.message).toContain('[redacted]');
    expectNoKey(error);
    expect(server.hits).toHaveLength(1);
  });

  it('400 gives service.validation with the path, naming the request', async () => {
    const server = await serve((_hit, res) =>
      json(res, 400, { error: { type: 'validation_error', message: 'unknown source', path: 'filters.sourceIn' } }),
    );
    const error = await serviceFailure(
      client(server.baseUrl).request({
        method: 'PATCH',
        route: '/v1/things/{viewId}',
        params: { viewId: 'dv_1' },
        body: {},
      }),
    );
    expect(error).toMatchObject({
      code: 'service.validation',
      status: 400,
      errorType: 'validation_error',
      path: 'filters.sourceIn',
      endpoint: 'PATCH /v1/things/{viewId}',
    });
    expect(error.message).toContain('PATCH /v1/things/dv_1');
    expect(error.message).toContain('filters.sourceIn');
  });

  it.each([
    [403, 'forbidden', 'service.forbidden'],
    [404, 'not_found', 'service.not-found'],
  ])('%i gives %s', async (status, type, code) => {
    const server = await serve((_hit, res) => json(res, status, { error: { type, message: 'no' } }));
    const error = await serviceFailure(
      client(server.baseUrl).request({ method: 'DELETE', route: '/v1/things/{viewId}', params: { viewId: 'dv_9' } }),
    );
    expect(error.code).toBe(code);
    expect(server.hits).toHaveLength(1);
  });
});

describe('retries', () => {
  it('retries a 429 with Retry-After after that long, then succeeds', async () => {
    const clock = new FakeClock();
    const server = await serve((hit, res, i) => {
      hit.at = clock.now();
      if (i === 0) json(res, 429, { error: { type: 'rate_limited', message: 'slow' } }, { 'Retry-After': '0.06' });
      else json(res, 200, { result: 1 });
    });
    const wire = wireTracker();
    const c = client(server.baseUrl, { clock, fetch: wire.fetch, onRequest: wire.onRequest });
    await expect(runOnFakeClock(clock, c.request({ method: 'GET', route: '/v1/items' }), wire.onWire)).resolves.toBe(1);
    // Exactly the 60 ms the header asked for (fractions of a second included), not the backoff.
    expect(server.hits.map((hit) => hit.at)).toEqual([0, 60]);
    expect(c.stats()).toMatchObject({ requests: 2, retries: 1, rateLimited: 1 });
  });

  it('retries a 429 without Retry-After on its own backoff', async () => {
    const server = await serve((_hit, res, i) =>
      i < 2 ? json(res, 429, { error: { type: 'rate_limited', message: 'slow' } }) : json(res, 200, { result: 'done' }),
    );
    const c = client(server.baseUrl);
    await expect(c.request({ method: 'GET', route: '/v1/items' })).resolves.toBe('done');
    expect(c.stats()).toMatchObject({ requests: 3, retries: 2, rateLimited: 2 });
  });

  it('fails at once with a time to retry when Retry-After is beyond a minute', async () => {
    const server = await serve((_hit, res) =>
      json(res, 429, { error: { type: 'rate_limited', message: 'quota' } }, { 'Retry-After': '3600' }),
    );
    const error = await serviceFailure(client(server.baseUrl).request({ method: 'GET', route: '/v1/items' }));
    expect(error.code).toBe('service.rate-limited');
    expect(error.message).toContain('3600 s');
    expect(error.hint).toMatch(/try again after \d{4}-\d\d-\d\dT/);
    expect(server.hits).toHaveLength(1);
  });

  it('retries a 503 and succeeds', async () => {
    const server = await serve((_hit, res, i) =>
      i === 0
        ? json(res, 503, { error: { type: 'internal_error', message: 'busy' } })
        : json(res, 200, { result: 'up' }),
    );
    const c = client(server.baseUrl);
    await expect(
      c.request({ method: 'PATCH', route: '/v1/things/{viewId}', params: { viewId: 'dv_1' }, body: { name: 'x' } }),
    ).resolves.toBe('up');
    expect(server.hits).toHaveLength(2);
  });

  it('gives service.unavailable after maxAttempts of 500', async () => {
    const server = await serve((_hit, res) => json(res, 500, { error: { type: 'internal_error', message: 'boom' } }));
    const error = await serviceFailure(
      client(server.baseUrl, { maxAttempts: 3 }).request({ method: 'GET', route: '/v1/items' }),
    );
    expect(error.code).toBe('service.unavailable');
    expect(error.message).toContain('after 3 attempts');
    expect(server.hits).toHaveLength(3);
  });

  it('does not repeat a creating POST after a 500: service.outcome-unknown, one attempt, may have landed', async () => {
    const server = await serve((_hit, res) => json(res, 500, { error: { type: 'internal_error', message: 'busy' } }));
    const c = client(server.baseUrl);
    const error = await serviceFailure(c.request({ method: 'POST', route: '/v1/things', body: { name: 'A' } }));
    expect(error.code).toBe('service.outcome-unknown');
    expect(error.mayHaveLanded).toBe(true);
    expect(error.message).toContain('POST /v1/things');
    expect(server.hits).toHaveLength(1);
    expect(c.stats().requests).toBe(1);
  });

  it('retries a creating POST after a 429 (certainly not processed)', async () => {
    const server = await serve((_hit, res, i) =>
      i === 0
        ? json(res, 429, { error: { type: 'rate_limited', message: 'slow' } })
        : json(res, 200, { result: { id: 'dv_3' } }),
    );
    await expect(
      client(server.baseUrl).request({ method: 'POST', route: '/v1/things', body: { name: 'A' } }),
    ).resolves.toEqual({ id: 'dv_3' });
    expect(server.hits).toHaveLength(2);
  });

  it('a POST marked idempotent (webhook trigger) is retried after a 503', async () => {
    const server = await serve((_hit, res, i) =>
      i === 0 ? json(res, 503, {}) : json(res, 200, { result: { ok: true } }),
    );
    await expect(
      client(server.baseUrl).request({
        method: 'POST',
        route: '/v1/webhooks/{webhookId}/trigger',
        params: { webhookId: 'wh_1' },
        idempotent: true,
      }),
    ).resolves.toEqual({ ok: true });
    expect(server.hits).toHaveLength(2);
  });
});

describe('network failures', () => {
  // The socket is real and the server never answers; the per-attempt timeout runs on a
  // fake clock moved by the test, so the real fetch is aborted at a point the test
  // chooses and the result cannot depend on how fast the machine is.
  it('times out a server that never answers, retrying idempotent requests', async () => {
    const server = await serve(() => undefined);
    const clock = new FakeClock();
    const c = client(server.baseUrl, { timeoutMs: 50, maxAttempts: 2, clock, random: () => 0.5 });
    const error = await serviceFailure(runOnFakeClock(clock, c.request({ method: 'GET', route: '/v1/items' })));
    expect(error.code).toBe('service.timeout');
    expect(error.message).toContain('50 ms');
    expect(error.message).toContain(server.baseUrl);
    expect(c.stats()).toMatchObject({ requests: 2, retries: 1 });
    // Two whole timeouts and the jittered backoff between them (half of 5 ms, floored).
    expect(clock.now()).toBe(50 + 2 + 50);
    // Whether the server saw an attempt before it was aborted depends on I/O scheduling.
    expect(server.hits.length).toBeLessThanOrEqual(2);
  });

  it('a creating POST that times out is service.outcome-unknown after one attempt', async () => {
    const server = await serve(() => undefined);
    const clock = new FakeClock();
    const c = client(server.baseUrl, { timeoutMs: 50, clock });
    const error = await serviceFailure(
      runOnFakeClock(clock, c.request({ method: 'POST', route: '/v1/things', body: {} })),
    );
    expect(error.code).toBe('service.outcome-unknown');
    expect(c.stats().requests).toBe(1);
    expect(clock.now()).toBe(50);
    expect(server.hits.length).toBeLessThanOrEqual(1);
  });

  it('a closed port gives service.unreachable naming the base URL and the options to check', async () => {
    const baseUrl = `http://127.0.0.1:${await closedPort()}`;
    const events: RequestEvent[] = [];
    const c = client(baseUrl, { maxAttempts: 2, onRequest: (e) => events.push(e) });
    const error = await serviceFailure(c.request({ method: 'GET', route: '/v1/things' }));
    expect(error.code).toBe('service.unreachable');
    expect(error.message).toContain(baseUrl);
    expect(error.message).toContain('ECONNREFUSED');
    expect(error.hint).toContain('--base-url');
    expect(error.hint).toContain('VIEWCTL_BASE_URL');
    expectNoKey(error);
    expect(events.map((e) => e.error)).toEqual(['service.unreachable', 'service.unreachable']);
    // Refused before sending: safe to retry even a creating POST, and still unreachable.
    expect((await serviceFailure(c.request({ method: 'POST', route: '/v1/things', body: {} }))).code).toBe(
      'service.unreachable',
    );
    expect(c.stats().requests).toBe(4);
  });
});

describe('daily quota', () => {
  it.each(['X-RateLimit-Daily-Remaining', 'X-Daily-RateLimit-Remaining'])(
    'refuses before sending once %s reaches 0',
    async (header) => {
      const server = await serve((_hit, res) => json(res, 200, { result: 'ok' }, { [header]: '0' }));
      const c = client(server.baseUrl);
      await c.request({ method: 'GET', route: '/v1/things' });
      expect(c.stats().dailyRemaining).toBe(0);
      const error = await serviceFailure(c.request({ method: 'GET', route: '/v1/others' }));
      expect(error.code).toBe('service.quota-exhausted');
      expect(error.message).toContain('GET /v1/others');
      expect(error.hint).toContain('try again later');
      expect(server.hits).toHaveLength(1);
      expect(c.stats().requests).toBe(1);
    },
  );

  it('keeps the daily reserve unused', async () => {
    const server = await serve((_hit, res) => json(res, 200, { result: 'ok' }, { 'X-RateLimit-Daily-Remaining': '2' }));
    const c = client(server.baseUrl, { dailyReserve: 2 });
    await c.request({ method: 'GET', route: '/v1/items' });
    expect((await serviceFailure(c.request({ method: 'GET', route: '/v1/items' }))).code).toBe(
      'service.quota-exhausted',
    );
    expect(server.hits).toHaveLength(1);
  });
});

describe('verbose log and cancellation', () => {
  it('writes one line per attempt, without the key', async () => {
    const server = await serve((_hit, res, i) =>
      i === 0 ? json(res, 429, {}, { 'Retry-After': '0' }) : json(res, 200, { result: [] }),
    );
    const lines: string[] = [];
    const c = client(server.baseUrl, { onRequest: verboseLogger({ write: (text: string) => lines.push(text) }) });
    await c.request({ method: 'GET', route: '/v1/things/pinned', query: { userEmail: 'a@x.co' } });
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^GET \/v1\/things\/pinned\?userEmail=a%40x\.co 429 \d+ms retry-after 0s\n$/);
    expect(lines[1]).toMatch(/^GET \/v1\/things\/pinned\?userEmail=a%40x\.co 200 \d+ms retry 1\n$/);
    expect(lines.join('')).not.toContain(KEY);
  });

  it('aborting stops queued requests before they are sent', async () => {
    const controller = new AbortController();
    const server = await serve((_hit, res) => json(res, 200, { result: 'first' }));
    // Rate 2: the second request waits 500 ms for its slot on a clock that never moves,
    // so however slow the first answer, Ctrl-C (as it completes) comes before that slot.
    const c = client(server.baseUrl, {
      rate: 2,
      clock: new FakeClock(),
      signal: controller.signal,
      onRequest: () => controller.abort(),
    });
    const results = await Promise.allSettled([1, 2, 3].map(() => c.request({ method: 'GET', route: '/v1/items' })));
    expect(results[0]).toEqual({ status: 'fulfilled', value: 'first' });
    for (const r of results.slice(1)) {
      expect(r.status).toBe('rejected');
      expect((r as PromiseRejectedResult).reason).toMatchObject({ code: 'service.aborted' });
    }
    expect(server.hits).toHaveLength(1);
    await expect(c.request({ method: 'GET', route: '/v1/items' })).rejects.toMatchObject({ code: 'service.aborted' });
    expect(server.hits).toHaveLength(1);
  });

  it('aborting cancels a request in flight', async () => {
    const controller = new AbortController();
    const server = await serve(() => controller.abort());
    const error = await serviceFailure(
      client(server.baseUrl, { signal: controller.signal }).request({ method: 'GET', route: '/v1/items' }),
    );
    expect(error.code).toBe('service.aborted');
    expect(error.message).toContain('in flight');
  });
});

describe('concurrency', () => {
  const routes = ['/v1/things', '/v1/others', '/v1/companies'];
  const gaps = (times: number[]): number[] => times.slice(1).map((t, i) => t - times[i]!);

  it('spaces each endpoint at the rate while endpoints overlap (fake clock over real HTTP)', async () => {
    // Arrival times are read from the client's fake clock, which moves only when no
    // request is in flight: exact and immune to the load of a shared machine.
    const clock = new FakeClock();
    const server = await serve((hit, res) => {
      hit.at = clock.now();
      json(res, 200, { result: 'ok' });
    });
    const wire = wireTracker();
    const c = client(server.baseUrl, { rate: 20, clock, fetch: wire.fetch, onRequest: wire.onRequest });
    await runOnFakeClock(
      clock,
      Promise.all(routes.flatMap((route) => Array.from({ length: 10 }, () => c.request({ method: 'GET', route })))),
      wire.onWire,
    );
    const arrivals = routes.map((route) => server.hits.filter((h) => h.url === route).map((h) => h.at));
    for (const times of arrivals) {
      expect(times).toHaveLength(10);
      expect(Math.min(...gaps(times))).toBeGreaterThanOrEqual(50);
    }
    expect(wire.events.every((e) => e.ms === 0)).toBe(true); // the clock never moved with a request in flight
    // The three endpoints ran side by side: same 50 ms ticks, 450 ms in all, not 1,450.
    expect(arrivals[0]).toEqual(arrivals[1]);
    expect(arrivals[1]).toEqual(arrivals[2]);
    expect(arrivals[0]![9]! - arrivals[0]![0]!).toBeCloseTo(450, 6);
  });
});

describe('options', () => {
  it('rejects a bad base URL, key or rate with a UsageError', () => {
    expect(() => createServiceClient({ baseUrl: 'ftp://x', apiKey: KEY })).toThrow(
      expect.objectContaining({ code: 'usage.base-url' }),
    );
    expect(() => createServiceClient({ baseUrl: 'http://x', apiKey: '  ' })).toThrow(
      expect.objectContaining({ code: 'usage.api-key' }),
    );
    const badKey = (() => {
      try {
        createServiceClient({ baseUrl: 'http://x', apiKey: 'abc def\u00e9' });
      } catch (error) {
        return error as Error;
      }
      return undefined;
    })();
    expect(badKey).toMatchObject({ code: 'usage.api-key' });
    expect(badKey?.message).not.toContain('abc def');
    expect(() => createServiceClient({ baseUrl: 'http://x', apiKey: KEY, rate: 0 })).toThrow(
      expect.objectContaining({ code: 'usage.bad-number' }),
    );
    expect(() => createServiceClient({ baseUrl: 'http://x', apiKey: KEY, burst: 1.5 })).toThrow(
      expect.objectContaining({ code: 'usage.bad-count' }),
    );
  });

  it('trims a trailing newline from the key', async () => {
    const server = await serve((_hit, res) => json(res, 200, { result: 1 }));
    await createServiceClient({ baseUrl: server.baseUrl, apiKey: `${KEY}\n` }).request({
      method: 'GET',
      route: '/v1/items',
    });
    expect(server.hits[0]?.headers['x-service-key']).toBe(KEY);
  });
});
