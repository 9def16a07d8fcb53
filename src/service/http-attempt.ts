/**
 * One HTTP attempt: fetch with a per-attempt timeout, read the whole body, and sort
 * the result into response / network error / timeout / aborted. No retries and no
 * interpretation of statuses here; client.ts decides what a result means.
 */
import type { Clock } from './clock.js';
import type { HttpMethod } from './types.js';

/** FetchLike is the part of `fetch` the client uses, so tests can inject their own. */
export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

/** AttemptInput is everything one attempt needs. */
export interface AttemptInput {
  url: string;
  method: HttpMethod;
  headers: Record<string, string>;
  body: string | undefined;
  timeoutMs: number;
  clock: Clock;
  fetch: FetchLike;
  /** The client's signal: aborting cancels the attempt (Ctrl-C). */
  signal: AbortSignal | undefined;
}

/** AttemptResult is how one attempt ended. */
export type AttemptResult =
  | { kind: 'response'; status: number; headers: Headers; text: string }
  | { kind: 'network'; code: string; beforeSend: boolean; permanent: boolean; cause: unknown }
  | { kind: 'timeout' }
  | { kind: 'aborted' };

// Codes meaning the connection never opened, so the request cannot have been processed.
const BEFORE_SEND = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);
// The host name does not exist: retrying will not change that.
const PERMANENT = new Set(['ENOTFOUND']);

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
    const text = await response.text();
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

// A function, so TypeScript does not narrow `aborted` across the awaits above.
function isAborted(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true;
}

/** classifyNetworkError finds the system error code in a fetch failure's cause chain. */
export function classifyNetworkError(error: unknown): Extract<AttemptResult, { kind: 'network' }> {
  const code = findCode(error, 0) ?? 'EUNKNOWN';
  return { kind: 'network', code, beforeSend: BEFORE_SEND.has(code), permanent: PERMANENT.has(code), cause: error };
}

function findCode(error: unknown, depth: number): string | undefined {
  if (typeof error !== 'object' || error === null || depth > 5) return undefined;
  const { code, cause, errors } = error as { code?: unknown; cause?: unknown; errors?: unknown };
  if (typeof code === 'string' && code !== '') return code;
  const fromCause = findCode(cause, depth + 1);
  if (fromCause !== undefined) return fromCause;
  // Node reports a failed multi-address connect as an AggregateError.
  if (Array.isArray(errors)) {
    for (const inner of errors) {
      const found = findCode(inner, depth + 1);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}
