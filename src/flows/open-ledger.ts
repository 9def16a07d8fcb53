import { resolve } from 'node:path';
import { type Clock, systemClock } from '../service/clock.js';
import { fileLedgerStore } from '../state/ledger-file-store.js';
import { type LedgerRun, openLedgerRun, type Stderr } from '../state/ledger-run.js';

/**
 * The sweep memory of `--ledger FILE` for one run: the file store built from the path
 * as given (state/ledger-file-store.ts), opened by the run's clock. A flow that is
 * handed a store instead (a test's in-memory one) calls `openLedgerRun` itself.
 */

export type { LedgerRun } from '../state/ledger-run.js';
export type { LedgerStore } from '../state/ledger-store.js';

/** LedgerEdges are what opening the memory file touches: the working directory, the run's clock, and where warnings go. */
export interface LedgerEdges {
  cwd: string;
  /** The run's wall clock (the memory's times); default the system clock. */
  clock?: Pick<Clock, 'now'>;
  stderr?: Stderr['stderr'];
}

/**
 * openLedgerFile loads the memory file `file` (resolved against `edges.cwd`) before any
 * request: a missing file is an empty memory; one that cannot be read, is not a sweep
 * memory, or stands where no memory file can (a folder, a named pipe, a socket, a
 * device) stops the run here. Dates after the run's clock are said on `edges.stderr`.
 */
export function openLedgerFile(edges: LedgerEdges, file: string): Promise<LedgerRun> {
  const clock = edges.clock ?? systemClock;
  return openLedgerRun(fileLedgerStore(resolve(edges.cwd, file), file), () => clock.now(), edges);
}
