/**
 * Time as the client sees it. Every delay the client takes (rate-limit spacing,
 * backoff, Retry-After, per-attempt timeouts) goes through a Clock, so tests inject a
 * fake one and run in milliseconds.
 */
import { performance } from 'node:perf_hooks';

/** Clock gives the time in epoch milliseconds and an abortable sleep. */
export interface Clock {
  now(): number;
  /** sleep resolves after `ms`, or rejects with the signal's reason when it aborts first. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/**
 * sleep waits `ms` on a real timer. The timer stays referenced (a CLI waiting for a
 * rate-limit slot must not exit early) and is cleared when the signal aborts, so an
 * aborted wait leaves nothing behind that keeps the process alive.
 */
function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted === true) {
      reject(abortReason(signal));
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(abortReason(signal));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, Math.max(0, ms));
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * systemClock is the real clock: epoch milliseconds from the monotonic high-resolution
 * timer (a wall-clock step, common in VMs, must not shrink rate-limit spacing), and a
 * timer-based sleep.
 */
export const systemClock: Clock = { now: () => performance.timeOrigin + performance.now(), sleep };

function abortReason(signal: AbortSignal | undefined): unknown {
  return signal?.reason ?? new DOMException('The operation was aborted', 'AbortError');
}
