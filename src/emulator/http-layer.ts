import { STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { errorBody, sendJson } from './http-io.js';

/**
 * Answers to requests that never reach a route, in the contract's JSON error shape
 * (the service's "Errors") instead of Node's bare status lines:
 *
 * - requests Node's HTTP parser refuses (`clientError`): request line and headers
 *   above MAX_HEADER_BYTES are 431, a request not received within Node's timeouts 408,
 *   anything else that is not HTTP/1.1 (unknown method, `Content-Length: abc`, both
 *   Content-Length and chunked, a malformed chunk) 400; the connection is then closed,
 *   since the parser cannot find the next request on it;
 * - `Expect` other than `100-continue`: 417; `CONNECT`: 404 (no route), or 401 without
 *   the key, like every unknown route;
 * - an HTTP/1.1 request without `Host`, or whose target is not a path: 400 (see
 *   `requestTarget`).
 *
 * All are `validation_error` except CONNECT's, all carry the rate-limit headers, none is
 * counted against the limits: they name no endpoint.
 */

/** MAX_HEADER_BYTES bounds the request line plus headers (Node's own default, pinned so flags cannot change it). */
export const MAX_HEADER_BYTES = 16 * 1024;

interface HttpLayerOptions {
  apiKey: string;
  /** The rate-limit headers of a request that names no endpoint. */
  headers: () => Record<string, string>;
}

const PARSER_ERRORS = new Map<string, string>([
  ['HPE_INVALID_METHOD', 'the request method is not an HTTP method'],
  ['HPE_INVALID_CONTENT_LENGTH', 'Content-Length must be a number of bytes'],
  ['HPE_UNEXPECTED_CONTENT_LENGTH', 'Content-Length is given more than once, or with Transfer-Encoding'],
  ['HPE_INVALID_TRANSFER_ENCODING', 'Transfer-Encoding cannot be combined with Content-Length'],
  ['HPE_INVALID_CHUNK_SIZE', 'a chunk of the chunked body has no valid size'],
  ['HPE_INVALID_URL', 'the request target contains characters a URL cannot hold'],
  ['HPE_INVALID_VERSION', 'the HTTP version is not 1.0 or 1.1'],
  ['HPE_INVALID_HEADER_TOKEN', 'a header name contains characters it cannot hold'],
]);

/**
 * attachHttpLayer installs the answers above on `server`. It returns `track`, which
 * the request listener calls first: a parser error in the middle of a body arrives
 * while that request's response is still unsent, and is answered through it.
 */
export function attachHttpLayer(
  server: Server,
  options: HttpLayerOptions,
): (request: IncomingMessage, response: ServerResponse) => void {
  const pending = new WeakMap<Duplex, ServerResponse>();
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    const { status, message } = describeClientError(error);
    const response = pending.get(socket);
    if (response !== undefined && !response.headersSent) {
      response.shouldKeepAlive = false;
      sendJson(response, status, errorBody('validation_error', message), options.headers());
      socket.end();
      return;
    }
    if (error.code === 'ECONNRESET' || !socket.writable || response !== undefined) {
      socket.destroy();
      return;
    }
    socket.end(rawAnswer(status, errorBody('validation_error', message), options.headers()));
  });
  server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) => {
    const expectation = String(request.headers.expect ?? '');
    sendJson(
      response,
      417,
      errorBody('validation_error', `Expect: ${expectation} is not supported; only 100-continue is`),
      options.headers(),
    );
  });
  server.on('connect', (request: IncomingMessage, socket: Duplex) => {
    const answer =
      request.headers['x-service-key'] === options.apiKey
        ? rawAnswer(404, errorBody('not_found', `no route CONNECT ${request.url ?? ''}`), options.headers())
        : rawAnswer(401, errorBody('unauthorized', 'missing or invalid X-Service-Key header'), options.headers());
    socket.end(answer);
  });
  return (request, response) => {
    pending.set(request.socket, response);
    response.once('close', () => pending.delete(request.socket));
  };
}

/** describeClientError is the status and message of a request Node's parser refused. */
function describeClientError(error: NodeJS.ErrnoException): { status: number; message: string } {
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    return { status: 431, message: `the request line and headers exceed ${MAX_HEADER_BYTES / 1024} KB` };
  }
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return { status: 408, message: 'the request did not arrive in time' };
  const known = error.code === undefined ? undefined : PARSER_ERRORS.get(error.code);
  const reason = (error as { reason?: unknown }).reason;
  return {
    status: 400,
    message: known ?? `the request is not valid HTTP/1.1${typeof reason === 'string' ? `: ${reason}` : ''}`,
  };
}

/**
 * requestTarget reads a request's target as a URL: the usual path form, or the
 * absolute form (`http://host/path`) HTTP/1.1 servers must accept. Anything else
 * (`*`, a bare host) is undefined, answered 400. The path is never read as a URL
 * relative to a base, where `//host/v1/...` would name another host.
 */
export function requestTarget(raw: string): URL | undefined {
  try {
    if (raw.startsWith('/')) return new URL(`http://emulator.invalid${raw}`);
    const url = new URL(raw);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
  } catch {
    return undefined;
  }
}

function rawAnswer(status: number, body: ReturnType<typeof errorBody>, headers: Record<string, string>): string {
  const text = JSON.stringify(body);
  const lines = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
    'content-type: application/json; charset=utf-8',
    `content-length: ${Buffer.byteLength(text)}`,
    'connection: close',
  ];
  return `${lines.join('\r\n')}\r\n\r\n${text}`;
}
