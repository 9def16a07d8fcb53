import { systemClock, type Clock } from '../../src/service/clock.js';

/**
 * OutageClock is a client clock for runs against a real emulator that a test stops and
 * starts: the waits the client chooses (backoff, Retry-After, rate-limit spacing) are
 * virtual, so they end on the next turn of the event loop while the service is up,
 * and while it is down they end only once the test says it is back. Retries across a
 * restart then wait for the restart, not for a timer that a busy machine may outrun.
 * The attempt timeout (`timeoutMs` and longer) stays on the real clock: every attempt
 * is answered, or cut when the emulator closes, long before it.
 */
export interface OutageClock extends Clock {
  down(): void;
  up(): void;
}

/** outageClock returns an OutageClock; `timeoutMs` is the client's attempt timeout (the CLI's is 15 s). */
export function outageClock(timeoutMs = 15_000): OutageClock {
  let now = Date.parse('2026-01-15T12:00:00Z');
  let back: Promise<void> = Promise.resolve();
  let reopen: () => void = () => undefined;
  return {
    now: () => now,
    sleep: (ms, signal) => {
      if (ms >= timeoutMs) return systemClock.sleep(ms, signal);
      return new Promise<void>((resolve, reject) => {
        if (signal?.aborted === true) {
          reject(signal.reason);
          return;
        }
        const abort = (): void => reject(signal?.reason);
        signal?.addEventListener('abort', abort, { once: true });
        void back.then(() =>
          setImmediate(() => {
            signal?.removeEventListener('abort', abort);
            now += Math.max(0, ms);
            resolve();
          }),
        );
      });
    },
    down: () => {
      back = new Promise<void>((resolve) => (reopen = resolve));
    },
    up: () => reopen(),
  };
}
