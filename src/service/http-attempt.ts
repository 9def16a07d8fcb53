/**
 * One HTTP attempt: fetch with a per-attempt timeout, read the whole body, and sort
 * the result into response / network error / timeout / aborted. No retries and no
 * interpretation of statuses here; client.ts decides what a result means.
 */
import type { Clock } from './clock.js';
import type { HttpMethod } from './types.js';

/** FetchLike is the part of `fetch` the client uses, so tests can inject their own. */
export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

interface AttemptInput {
  url: string;
  method: HttpMethod;
  headers: Record<string, string>;
  body: string | undefined;
  timeoutMs: number;
  clock: Clock;
  fetch: FetchLike;
  /** The client's signal: aborting cancels the attempt (Ctrl-C). */
  signal: AbortSignal | undefined;
  /** Longest body read; a longer one ends the attempt as `too-large`. */
  maxBodyBytes: number;
}

export type AttemptResult =
  | { kind: 'response'; status: number; headers: Headers; text: string }
  /** The body passed `maxBodyBytes`; it was not read further. */
  | { kind: 'too-large'; status: number; headers: Headers; limitBytes: number }
  | { kind: 'network'; code: string; beforeSend: boolean; permanent: boolean; cause: unknown }
  | { kind: 'timeout' }
  | { kind: 'aborted' };

// Codes meaning the connection never opened, so the request cannot have been processed.
const BEFORE_SEND = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
  'ERR_BAD_PORT',
  'ERR_INVALID_URL',
]);
// The host name does not exist: retrying will not change that.
const PERMANENT = new Set(['ENOTFOUND', 'ERR_BAD_PORT', 'ERR_INVALID_URL']);

/**
 * sendAttempt sends one request. The timeout covers the body too, so a service that
 * sends headers and then stalls still times out.
 */
export async function sendAttempt(input: AttemptInput): Promise<AttemptResult> {
  if (isAborted(input.signal)) return { kind: 'aborted' };
  const controller = new AbortController();
  const stopTimer = new AbortController();
  let timedOut = false;
  input.clock.sleep(input.timeoutMs, stopTimer.signal).then(
    () => {
      timedOut = true;
      controller.abort();
    },
    () => undefined, // the attempt finished first and cancelled the timer
  );
  const onAbort = (): void => controller.abort();
  input.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const response = await input.fetch(input.url, {
      method: input.method,
      headers: input.headers,
      ...(input.body === undefined ? {} : { body: input.body }),
      signal: controller.signal,
      // A redirect could carry X-Service-Key to another host: never follow one.
      redirect: 'manual',
    });
    const text = await readCapped(response, input.maxBodyBytes);
    if (text === undefined) {
      controller.abort();
      return { kind: 'too-large', status: response.status, headers: response.headers, limitBytes: input.maxBodyBytes };
    }
    return { kind: 'response', status: response.status, headers: response.headers, text };
  } catch (error) {
    if (timedOut) return { kind: 'timeout' };
    if (isAborted(input.signal)) return { kind: 'aborted' };
    return classifyNetworkError(error);
  } finally {
    stopTimer.abort();
    input.signal?.removeEventListener('abort', onAbort);
  }
}

/**
 * readCapped reads a body as UTF-8 up to `limit` bytes, or answers undefined as soon
 * as it grows past that: a service that never stops sending must not fill memory.
 */
async function readCapped(response: Response, limit: number): Promise<string | undefined> {
  if (response.body === null) return '';
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (Number.isFinite(declared) && declared > limit) return undefined;
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

// A function, so TypeScript does not narrow `aborted` across the awaits above.
function isAborted(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true;
}

/** classifyNetworkError finds the system error code in a fetch failure's cause chain. */
export function classifyNetworkError(error: unknown): Extract<AttemptResult, { kind: 'network' }> {
  // fetch reports some refusals with a message and no code: give them one.
  const code = findCode(error, 0) ?? (innermostMessage(error, 0) === 'bad port' ? 'ERR_BAD_PORT' : 'EUNKNOWN');
  return { kind: 'network', code, beforeSend: BEFORE_SEND.has(code), permanent: PERMANENT.has(code), cause: error };
}

/**
 * NETWORK_CAUSES explains the codes a user meets, for messages: what happened, in
 * words, so `(ECONNREFUSED)` reads as "nothing is listening there".
 */
export const NETWORK_CAUSES: ReadonlyMap<string, string> = new Map([
  ['ECONNREFUSED', 'the connection was refused: nothing is listening at that address and port'],
  ['ENOTFOUND', 'the host name does not resolve'],
  ['EAI_AGAIN', 'the host name could not be looked up (DNS is not answering)'],
  ['EHOSTUNREACH', 'the host cannot be reached'],
  ['ENETUNREACH', 'the network cannot be reached'],
  ['ECONNRESET', 'the connection was reset'],
  ['UND_ERR_SOCKET', 'the connection closed before the answer was complete'],
  ['UND_ERR_CONNECT_TIMEOUT', 'the connection could not be opened in time'],
  ['ERR_BAD_PORT', 'Node refuses to connect to that port (it is on the list of ports fetch blocks for safety)'],
  ['ERR_INVALID_URL', 'the URL is not valid'],
]);

function innermostMessage(error: unknown, depth: number): string | undefined {
  if (typeof error !== 'object' || error === null || depth > 5) return undefined;
  const { cause, message } = error as { cause?: unknown; message?: unknown };
  return innermostMessage(cause, depth + 1) ?? (typeof message === 'string' ? message : undefined);
}

function findCode(error: unknown, depth: number): string | undefined {
  if (typeof error !== 'object' || error === null || depth > 5) return undefined;
  const { code, cause, errors } = error as { code?: unknown; cause?: unknown; errors?: unknown };
  if (typeof code === 'string' && code !== '') return code;
  // The cause first; Node reports a failed multi-address connect as an AggregateError.
  for (const inner of [cause, ...(Array.isArray(errors) ? errors : [])]) {
    const found = findCode(inner, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}
