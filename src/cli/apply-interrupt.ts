import { EXIT, ViewctlError } from '../errors.js';
import type { ServiceClient } from '../service/types.js';
import { interruptedError, listenForInterrupt, type Interrupt } from './interrupt.js';
import type { CliIo } from './io.js';

/**
 * The interrupt's rules for `viewctl apply` (README, "Exit codes"): until
 * writing begins a signal cancels the reads and nothing is written (exit 1); from then
 * on it only stops new writes, and the report says what landed; a second signal quits
 * at once, with exit 4 when writes were sent since writing began (they may have landed).
 */

/** ApplyRun is what the interrupt handler needs to know of a run: how to stop its reads, and whether and since when it writes. */
export interface ApplyRun {
  reads: AbortController;
  client: ServiceClient | undefined;
  /** The client's request count when writing began; undefined before. */
  writesFrom: number | undefined;
}

/**
 * whileInterruptible runs `body` with apply's interrupt listening, `run` telling it
 * how far the run got; a read or prompt the signal ended before any write ends as
 * `run.interrupted` (nothing was written).
 */
export async function whileInterruptible<T>(
  io: Pick<CliIo, 'stderr'>,
  body: (run: ApplyRun, interrupt: Interrupt) => Promise<T>,
): Promise<T> {
  const run: ApplyRun = { reads: new AbortController(), client: undefined, writesFrom: undefined };
  const writing = (): boolean => run.writesFrom !== undefined;
  const interrupt = listenForInterrupt(io, {
    notice: () =>
      writing()
        ? 'finishing the requests in flight and starting nothing new; the report follows'
        : 'stopping the reads; nothing was written',
    // Every request sent since writing began is a write or follows one: it may have landed.
    exitCode: () =>
      writing() && (run.client?.stats().requests ?? 0) > (run.writesFrom ?? 0) ? EXIT.partial : EXIT.error,
    exitNote: (code) =>
      code === EXIT.partial
        ? 'writes were sent and may have landed; run viewctl plan to see what the workspace holds now'
        : 'nothing was written',
    onFirst: () => {
      if (!writing()) run.reads.abort();
    },
  });
  try {
    return await body(run, interrupt);
  } catch (error) {
    const signal = interrupt.received();
    // A read cancelled by the interrupt, or the prompt it ended: nothing was written.
    if (signal !== undefined && !writing() && error instanceof ViewctlError) throw interruptedError(signal);
    throw error;
  } finally {
    interrupt.dispose();
  }
}
