import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ApiErrorType } from '../domain/api-types.js';

/** MAX_BODY_BYTES bounds request bodies; the largest real body (a view) is far smaller. */
const MAX_BODY_BYTES = 1024 * 1024;

/** readBody collects the request body; undefined when it exceeds MAX_BODY_BYTES. */
export async function readBody(request: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  let tooLarge = false;
  for await (const chunk of request) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    // Keep draining so the connection stays usable, but stop storing.
    if (size > MAX_BODY_BYTES) tooLarge = true;
    else chunks.push(buffer);
  }
  return tooLarge ? undefined : Buffer.concat(chunks).toString('utf8');
}

/** sendJson answers with a JSON body and the given headers, unless the socket is gone. */
export function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string>,
): void {
  sendBody(response, 'application/json; charset=utf-8', JSON.stringify(body), status, headers);
}

/** sendBody answers with a body of the given type (by default a 200 without headers: media downloads, app pages). */
export function sendBody(
  response: ServerResponse,
  contentType: string,
  body: string | Buffer,
  status = 200,
  headers = {},
): void {
  if (response.destroyed || response.writableEnded) return;
  response.writeHead(status, {
    ...headers,
    'content-type': contentType,
    'content-length': String(Buffer.byteLength(body)),
  });
  response.end(body);
}

/** errorBody builds `{error: {type, message, path?}}` (the service's "Errors"). */
export function errorBody(
  type: ApiErrorType,
  message: string,
  path?: string,
): { error: { type: ApiErrorType; message: string; path?: string } } {
  return { error: path === undefined ? { type, message } : { type, message, path } };
}

/** safeDecode decodes a percent-encoded path segment; undefined when the encoding is malformed. */
export function safeDecode(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}
