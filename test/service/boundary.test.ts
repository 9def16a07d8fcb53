import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { ServiceError, UsageError } from '../../src/errors.js';
import { REDACTED, redactSecrets } from '../../src/secrets/redact.js';
import { createServiceClient, type ClientOptions } from '../../src/service/client.js';
import { classifyNetworkError } from '../../src/service/http-attempt.js';
import { responseError, successResult, type RequestContext } from '../../src/service/response.js';
import { SHAPED_ROUTES, responseShapeProblem } from '../../src/service/response-shapes.js';
import { json, startServer, type TestServer, serviceFailure } from './helpers.js';

/**
 * The client boundary: what the service sends is bounded, checked for shape and
 * cleaned of the key where it is read; a failed write says whether it may have landed.
 */

const KEY = 'sk_live_boundary_key';
const servers: TestServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

async function serve(handler: Parameters<typeof startServer>[0]): Promise<TestServer> {
  const server = await startServer(handler);
  servers.push(server);
  return server;
}

function client(baseUrl: string, options: Partial<ClientOptions> = {}) {
  return createServiceClient({ baseUrl, apiKey: KEY, rate: 1000, backoff: { baseMs: 1, capMs: 2 }, ...options });
}

const context = (apiKey: string, method = 'GET', route = '/v1/things'): RequestContext => ({
  method,
  route,
  endpoint: `${method} ${route}`,
  target: `${method} ${route}`,
  baseUrl: 'http://svc.test',
  apiKey,
  attempts: 1,
});

describe('redaction of the key in what the service sends', () => {
  it('redacts before cutting: a long message that ends with the key leaks no fragment of it', () => {
    const message = `${'x'.repeat(484)}${KEY}`;
    const error = responseError(401, JSON.stringify({ error: { type: 'unauthorized', message } }), context(KEY));
    expect(error.message).not.toContain(KEY.slice(0, 8));
    expect(error.message).toContain('x'.repeat(100));
  });

  it('redacts the key in error.type and error.path, and in every string of a success', () => {
    const error = responseError(
      400,
      JSON.stringify({ error: { type: `bad ${KEY}`, message: 'no', path: `filters.${KEY}` } }),
      context(KEY),
    );
    expect(`${error.errorType} ${error.path}`).not.toContain(KEY);
    const result = successResult(200, JSON.stringify({ result: { [KEY]: [`name ${KEY}`] } }), context(KEY));
    expect(JSON.stringify(result)).not.toContain(KEY);
  });

  it('refuses a key too short to redact', () => {
    expect(() => createServiceClient({ baseUrl: 'http://svc.test', apiKey: 'abc' })).toThrow(UsageError);
    expect(() => createServiceClient({ baseUrl: 'http://svc.test', apiKey: 'abcd' })).not.toThrow();
  });

  it('never lets any key, echoed anywhere in a service answer, out in any output form', () => {
    const keyChars = fc.constantFrom(...'abcXYZ019"\\\'%&/+=_-~!'.split(''));
    fc.assert(
      fc.property(
        fc
          .array(keyChars, { minLength: 4, maxLength: 24 })
          .map((chars) => chars.join(''))
          .filter((key) => key.trim() === key),
        fc.string({ maxLength: 600 }),
        fc.string({ maxLength: 40 }),
        fc.constantFrom<'type' | 'message' | 'path'>('type', 'message', 'path'),
        (key, before, after, field) => {
          const error = responseError(
            400,
            JSON.stringify({ error: { type: 'x', message: 'y', [field]: `${before}${key}${after}` } }),
            context(key),
          );
          const text = `${error.message} ${error.errorType ?? ''} ${error.path ?? ''}`;
          // As the apply report and plan print it: text, JSON, and a URL.
          for (const output of [text, JSON.stringify({ text }), encodeURIComponent(text)]) {
            const clean = redactSecrets(output, key);
            expect(clean.includes(key)).toBe(false);
            expect(clean.includes(JSON.stringify(key).slice(1, -1))).toBe(false);
            expect(clean.includes(encodeURIComponent(key))).toBe(false);
          }
        },
      ),
      { seed: 1701, numRuns: 300 },
    );
  });

  it('redacts the JSON-escaped form a key with quotes or backslashes takes in JSON output', () => {
    const key = 'k"ey\\x';
    const output = JSON.stringify({ error: { path: `a ${key} b` } });
    expect(output).not.toContain(key);
    expect(redactSecrets(output, key)).toBe(JSON.stringify({ error: { path: `a ${REDACTED} b` } }));
  });
});

describe('response bodies are bounded', () => {
  it('stops reading an endless body at the cap and names the route', async () => {
    const server = await serve((_hit, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const pump = (): void => {
        while (!res.destroyed && res.write(chunk));
        if (!res.destroyed) res.once('drain', pump);
      };
      res.write('{"result": [');
      pump();
    });
    const error = await serviceFailure(
      client(server.baseUrl, { maxBodyBytes: 256 * 1024 }).request({ method: 'GET', route: '/v1/recordings/views' }),
    );
    expect(error.code).toBe('service.response-too-large');
    expect(error.message).toContain('GET /v1/recordings/views');
  });

  it('refuses at once a body whose declared length passes the cap', async () => {
    const server = await serve((_hit, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(10 * 1024 * 1024) });
      res.write('{');
    });
    const error = await serviceFailure(
      client(server.baseUrl, { maxBodyBytes: 1024 }).request({ method: 'GET', route: '/v1/users' }),
    );
    expect(error.code).toBe('service.response-too-large');
  });
});

describe('response shapes are checked where they arrive', () => {
  it.each([
    ['/v1/workspaces/mine', { result: null }, 'result must be object'],
    ['/v1/deals/views', { result: { views: [] } }, 'result must be array'],
    ['/v1/deals/views', { result: [null] }, 'result/0 must be object'],
    ['/v1/admin-automations', { result: [{ name: 'x' }] }, "must have required property 'adminAutomationId'"],
  ])('GET %s answering %j is service.bad-response naming the route', async (route, body, problem) => {
    const server = await serve((_hit, res) => json(res, 200, body));
    const error = await serviceFailure(client(server.baseUrl).request({ method: 'GET', route }));
    expect(error.code).toBe('service.bad-response');
    expect(error.message).toContain(`GET ${route}`);
    expect(error.message).toContain(problem);
  });

  it('for any JSON result, a shaped route either accepts it or reports service.bad-response, never anything else', () => {
    fc.assert(
      fc.property(fc.constantFrom(...SHAPED_ROUTES), fc.jsonValue({ maxDepth: 4 }), (key, value) => {
        const [method = 'GET', route = '/'] = key.replace('{domain}', 'deals').split(' ');
        try {
          successResult(200, JSON.stringify({ result: value }), context(KEY, method, route));
        } catch (error) {
          expect(error).toBeInstanceOf(ServiceError);
          expect((error as ServiceError).code).toBe('service.bad-response');
        }
        return true;
      }),
      { seed: 1702, numRuns: 400 },
    );
    expect(responseShapeProblem('GET', '/v1/deals/views', [])).toBeUndefined();
  });
});

describe('a failed write says whether it may have landed', () => {
  it('a PATCH whose connection reset after sending, then whose service became unreachable, may have landed', async () => {
    let server: TestServer | undefined;
    server = await serve((_hit, res) => {
      res.socket?.destroy();
      void server?.close();
    });
    const error = await serviceFailure(
      client(server.baseUrl, { maxAttempts: 3 }).request({
        method: 'PATCH',
        route: '/v1/things/{id}',
        params: { id: 'a' },
        body: {},
      }),
    );
    expect(error.code).toBe('service.unreachable');
    expect(error.mayHaveLanded).toBe(true);
  });

  it('a 500 on a PUT may have landed; a 400, a 503 and any read never do', async () => {
    const statuses = [500, 400, 503];
    const server = await serve((_hit, res, index) =>
      json(res, statuses[index] ?? 503, { error: { type: 't', message: 'm' } }),
    );
    const put = { method: 'PUT' as const, route: '/v1/things/pinned', body: { viewIds: ['a'] } };
    expect((await serviceFailure(client(server.baseUrl, { maxAttempts: 1 }).request(put))).mayHaveLanded).toBe(true);
    expect((await serviceFailure(client(server.baseUrl, { maxAttempts: 1 }).request(put))).mayHaveLanded).toBe(false);
    expect((await serviceFailure(client(server.baseUrl, { maxAttempts: 1 }).request(put))).mayHaveLanded).toBe(false);
    expect(
      (await serviceFailure(client(server.baseUrl, { maxAttempts: 1 }).request({ method: 'GET', route: '/v1/things' })))
        .mayHaveLanded,
    ).toBe(false);
  });

  it('a create answered 200 with an unreadable body may have landed', async () => {
    const server = await serve((_hit, res) => json(res, 200, { result: { name: 'no id' } }));
    const error = await serviceFailure(
      client(server.baseUrl).request({ method: 'POST', route: '/v1/recordings/views', body: { name: 'A' } }),
    );
    expect(error.code).toBe('service.bad-response');
    expect(error.mayHaveLanded).toBe(true);
  });
});

describe('network failures name their cause', () => {
  it('a port fetch blocks is named, and not retried', () => {
    const result = classifyNetworkError(new TypeError('fetch failed', { cause: new Error('bad port') }));
    expect(result).toMatchObject({ code: 'ERR_BAD_PORT', permanent: true });
  });

  it('a refused connection through the real fetch says so, with the address', async () => {
    const error = await serviceFailure(
      client('http://127.0.0.1:1', { maxAttempts: 1 }).request({ method: 'GET', route: '/v1/things' }),
    );
    expect(error.message).toContain('http://127.0.0.1:1');
    expect(error.message).not.toContain('EUNKNOWN');
  });
});
