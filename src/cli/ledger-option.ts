import { Option } from 'commander';
import { type MemoryFileRun, openMemoryFile } from '../flows/open-memory.js';
import type { CliIo } from './io.js';

/**
 * `--ledger FILE` (plan, apply): the sweep memory (README, "The sweep memory"). This
 * file defines the option and turns the flag into the run's memory; reading, checking,
 * locking, merging and writing the file live in `state/` (memory-run.ts,
 * memory-file-store.ts), opened through `flows/open-memory.ts`.
 */

export type { MemoryFileRun } from '../flows/open-memory.js';

/** ledgerOption is `--ledger FILE`; there is no default path. */
export function ledgerOption(): Option {
  return new Option(
    '--ledger <file>',
    'the sweep memory: read before planning (when the file exists) and written after the run, merged with what it holds then',
  );
}

/**
 * openSweepMemory loads `--ledger FILE` before any request (`openMemoryFile`); without the
 * flag there is no memory. Dates after the run's clock are said on stderr.
 */
export async function openSweepMemory(
  io: Pick<CliIo, 'cwd' | 'clock'> & Partial<Pick<CliIo, 'stderr'>>,
  file: string | undefined,
): Promise<MemoryFileRun | undefined> {
  return file === undefined ? undefined : openMemoryFile(io, file);
}
