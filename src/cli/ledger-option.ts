import { resolve } from 'node:path';
import { Option } from 'commander';
import { systemClock } from '../service/clock.js';
import { fileLedgerStore } from '../state/ledger-file-store.js';
import { type LedgerRun, openLedgerRun } from '../state/ledger-run.js';
import type { CliIo } from './io.js';

/**
 * `--ledger FILE` (plan, apply): the sweep memory (README, "The sweep memory"). This
 * file defines the option and turns the flag into the memory's store and run; reading,
 * checking, locking, merging and writing the file live in `state/` (ledger-run.ts,
 * ledger-file-store.ts).
 */

export type { LedgerRun } from '../state/ledger-run.js';

/** ledgerOption is `--ledger FILE`; there is no default path. */
export function ledgerOption(): Option {
  return new Option(
    '--ledger <file>',
    'the sweep memory: read before planning (when the file exists) and written after the run, merged with what it holds then',
  );
}

/**
 * openLedger loads `--ledger FILE` before any request: a missing file is an empty
 * memory (the run creates it); one that cannot be read, or is not a sweep memory
 * (`ledger.invalid`), stops the run here, as does a path that cannot hold the file (a
 * folder, a named pipe, a socket, a device). Dates after the run's clock are said on
 * stderr and not trusted.
 */
export async function openLedger(
  io: Pick<CliIo, 'cwd' | 'clock'> & Partial<Pick<CliIo, 'stderr'>>,
  file: string | undefined,
): Promise<LedgerRun | undefined> {
  if (file === undefined) return undefined;
  const clock = io.clock ?? systemClock;
  return openLedgerRun(fileLedgerStore(resolve(io.cwd, file), file), () => clock.now(), io);
}
