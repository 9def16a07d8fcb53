/**
 * `--verbose`: one line per HTTP attempt on stderr. Lines are built from RequestEvent
 * only (method, path, status, timing), never from headers, so the key cannot appear.
 */
import type { RequestEvent } from './types.js';

/**
 * formatRequestEvent renders one attempt, e.g. `GET /v1/deals/views 200 123ms`,
 * `PATCH /v1/deals/views/dv_1 429 8ms retry-after 1s`,
 * `GET /v1/users 503 5ms (retrying in 412ms)`, `GET /v1/users 200 9ms retry 1`.
 */
export function formatRequestEvent(event: RequestEvent): string {
  const parts = [
    event.method,
    event.path,
    event.status === undefined ? (event.error ?? 'failed') : String(event.status),
    `${event.ms}ms`,
  ];
  if (event.attempt > 1) parts.push(`retry ${event.attempt - 1}`);
  if (event.retryAfterMs !== undefined) parts.push(`retry-after ${seconds(event.retryAfterMs)}`);
  else if (event.retryInMs !== undefined) parts.push(`(retrying in ${event.retryInMs}ms)`);
  return parts.join(' ');
}

/** verboseLogger returns an `onRequest` callback that writes one line per attempt to `stream`. */
export function verboseLogger(stream: { write(text: string): unknown }): (event: RequestEvent) => void {
  return (event) => {
    stream.write(`${formatRequestEvent(event)}\n`);
  };
}

function seconds(ms: number): string {
  return `${Math.round(ms / 100) / 10}s`;
}
