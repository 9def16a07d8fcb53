import { describe, expect, it } from 'vitest';
import { MAX_HEADER_BYTES } from '../../src/emulator/http-layer.js';
import { useEmulator } from './helpers.js';
import { sendRaw } from './raw-http.js';

const start = useEmulator();
const KEY = 'x-service-key: emulator-key\r\n';

describe("answers from the HTTP layer are the contract's JSON error", () => {
  it.each([
    [
      'a request line over the header limit',
      `GET /v1/users?q=${'a'.repeat(MAX_HEADER_BYTES)} HTTP/1.1\r\nHost: x\r\n${KEY}\r\n`,
      431,
      'validation_error',
    ],
    [
      'headers over the header limit',
      `GET /v1/users HTTP/1.1\r\nHost: x\r\n${KEY}X-Big: ${'a'.repeat(MAX_HEADER_BYTES)}\r\n\r\n`,
      431,
      'validation_error',
    ],
    ['an unknown method', `FROB /v1/users HTTP/1.1\r\nHost: x\r\n${KEY}\r\n`, 400, 'validation_error'],
    [
      'Content-Length: abc',
      `POST /v1/deals/views HTTP/1.1\r\nHost: x\r\n${KEY}Content-Length: abc\r\n\r\n`,
      400,
      'validation_error',
    ],
    [
      'Content-Length and chunked',
      `POST /v1/deals/views HTTP/1.1\r\nHost: x\r\n${KEY}Content-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
      400,
      'validation_error',
    ],
    [
      'Content-Length twice',
      `POST /v1/deals/views HTTP/1.1\r\nHost: x\r\n${KEY}Content-Length: 1\r\nContent-Length: 2\r\n\r\nab`,
      400,
      'validation_error',
    ],
    [
      'a malformed chunk in the middle of a body',
      `POST /v1/deals/views HTTP/1.1\r\nHost: x\r\n${KEY}Transfer-Encoding: chunked\r\n\r\n2\r\n{}\r\nzz\r\n`,
      400,
      'validation_error',
    ],
    ['an HTTP version that does not exist', `GET /v1/users HTTP/3.7\r\nHost: x\r\n${KEY}\r\n`, 400, 'validation_error'],
    [
      'a header name with a space',
      `GET /v1/users HTTP/1.1\r\nHost: x\r\n${KEY}Bad Header: 1\r\n\r\n`,
      400,
      'validation_error',
    ],
    ['an HTTP/1.1 request without Host', `GET /v1/users HTTP/1.1\r\n${KEY}\r\n`, 400, 'validation_error'],
    ['the asterisk target', `OPTIONS * HTTP/1.1\r\nHost: x\r\n${KEY}\r\n`, 400, 'validation_error'],
    [
      'an Expect other than 100-continue',
      `POST /v1/deals/views HTTP/1.1\r\nHost: x\r\n${KEY}Expect: teapot\r\nContent-Length: 0\r\n\r\n`,
      417,
      'validation_error',
    ],
    [
      'CONNECT with the key',
      `CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n${KEY}\r\n`,
      404,
      'not_found',
    ],
    [
      'CONNECT without the key',
      'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n',
      401,
      'unauthorized',
    ],
    ['a path that starts with //', `GET //evil.test/v1/users HTTP/1.1\r\nHost: x\r\n${KEY}\r\n`, 404, 'not_found'],
  ])('%s', async (_name, request, status, type) => {
    const emulator = await start();
    const reply = await sendRaw(Number(new URL(emulator.url).port), request);
    expect(reply.status).toBe(status);
    expect(reply.headers.get('content-type')).toContain('application/json');
    expect(JSON.parse(reply.body)).toMatchObject({ error: { type, message: expect.any(String) } });
    expect(reply.headers.get('x-ratelimit-daily-remaining')).not.toBeUndefined();
    // The emulator is still serving.
    expect((await fetch(`${emulator.url}/v1/users`, { headers: { 'x-service-key': emulator.apiKey } })).status).toBe(
      200,
    );
  });

  it('the absolute form of a request target is served like its path', async () => {
    const emulator = await start();
    const reply = await sendRaw(
      Number(new URL(emulator.url).port),
      `GET http://other.test/v1/users?limit=1 HTTP/1.1\r\nHost: x\r\n${KEY}Connection: close\r\n\r\n`,
    );
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.body).result.users).toHaveLength(1);
  });
});
