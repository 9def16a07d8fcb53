import { resolve } from 'node:path';
import { viewDigests } from '../kinds/view-sweep-memory.js';
import { type Clock, systemClock } from '../service/clock.js';
import { fileMemoryStore } from '../state/memory-file-store.js';
import { type MemoryFileRun, openMemoryFileRun, type Stderr } from '../state/memory-run.js';

/**
 * The sweep memory of `--ledger FILE` for one run: the file store built from the path
 * as given (state/memory-file-store.ts), opened by the run's clock. A flow that is
 * handed a store instead (a test's in-memory one) calls `openMemoryFileRun` itself.
 */

export type { MemoryFileRun } from '../state/memory-run.js';
export type { MemoryStore } from '../state/memory-store.js';

/** MemoryFileEdges are what opening the memory file touches: the working directory, the run's clock, and where warnings go. */
export interface MemoryFileEdges {
  cwd: string;
  /** The run's wall clock (the memory's times); default the system clock. */
  clock?: Pick<Clock, 'now'>;
  stderr?: Stderr['stderr'];
}

/**
 * openMemoryFile loads the memory file `file` (resolved against `edges.cwd`) before any
 * request: a missing file is an empty memory; one that cannot be read, is not a sweep
 * memory, or stands where no memory file can (a folder, a named pipe, a socket, a
 * device) stops the run here. Dates after the run's clock are said on `edges.stderr`.
 * The views the run sees are remembered with their digests (`viewDigests`).
 */
export function openMemoryFile(edges: MemoryFileEdges, file: string): Promise<MemoryFileRun> {
  const clock = edges.clock ?? systemClock;
  return openMemoryFileRun(fileMemoryStore(resolve(edges.cwd, file), file), () => clock.now(), edges, viewDigests);
}
