import { Option } from 'commander';
import { type LedgerRun, openLedgerFile } from '../flows/open-ledger.js';
import type { CliIo } from './io.js';

/**
 * `--ledger FILE` (plan, apply): the sweep memory (README, "The sweep memory"). This
 * file defines the option and turns the flag into the run's memory; reading, checking,
 * locking, merging and writing the file live in `state/` (ledger-run.ts,
 * ledger-file-store.ts), opened through `flows/open-ledger.ts`.
 */

export type { LedgerRun } from '../flows/open-ledger.js';

/** ledgerOption is `--ledger FILE`; there is no default path. */
export function ledgerOption(): Option {
  return new Option(
    '--ledger <file>',
    'the sweep memory: read before planning (when the file exists) and written after the run, merged with what it holds then',
  );
}

/**
 * openLedger loads `--ledger FILE` before any request (`openLedgerFile`); without the
 * flag there is no memory. Dates after the run's clock are said on stderr.
 */
export async function openLedger(
  io: Pick<CliIo, 'cwd' | 'clock'> & Partial<Pick<CliIo, 'stderr'>>,
  file: string | undefined,
): Promise<LedgerRun | undefined> {
  return file === undefined ? undefined : openLedgerFile(io, file);
}
