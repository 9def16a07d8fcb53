/**
 * Time as the client sees it. Every delay the client takes (rate-limit spacing,
 * backoff, Retry-After, per-attempt timeouts) goes through a Clock, so tests inject a
 * fake one and run in milliseconds.
 */
import { performance } from 'node:perf_hooks';
import { setTimeout } from 'node:timers/promises';

/** Clock gives the time in epoch milliseconds and an abortable sleep. */
export interface Clock {
  now(): number;
  /** sleep resolves after `ms`, or rejects when the signal aborts first. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/**
 * systemClock is the real clock: epoch milliseconds from the monotonic high-resolution
 * timer (a wall-clock step, common in VMs, must not shrink rate-limit spacing), and a
 * sleep on a real timer. The timer stays referenced (a CLI waiting for a rate-limit slot
 * must not exit early) and is cleared when the signal aborts, so an aborted wait leaves
 * nothing behind that keeps the process alive.
 */
export const systemClock: Clock = {
  now: () => performance.timeOrigin + performance.now(),
  sleep: (ms, signal) => setTimeout(Math.max(0, ms), undefined, { signal }),
};
