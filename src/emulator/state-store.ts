import { existsSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { ViewctlError } from '../errors.js';
import { checkEmulatorData, loadEmulatorData } from './data-file.js';
import type { EmulatorData } from './model.js';

/**
 * StateStore keeps the emulator's workspace in memory and, with a state file, on
 * disk. A change is made on a copy and committed: written first (temp file + rename,
 * so a crash never leaves half a file), then swapped in. A write that fails leaves
 * both the memory and the file as they were, so they never disagree.
 */
interface StateStore {
  /** The workspace as it is now; read it, change only a `draft()`. */
  readonly data: EmulatorData;
  /** draft returns a copy of the workspace for a request to change. */
  draft(): EmulatorData;
  /** commit writes `next` to the state file, if there is one, then makes it the workspace; it throws, changing nothing, when the write fails. */
  commit(next: EmulatorData): void;
}

/**
 * openStateStore loads the state file when it exists (it wins over `seed`, so state
 * survives restarts), else starts from a copy of `seed` and writes it. A state file
 * that cannot be written is `emulator.state-unwritable`.
 */
export function openStateStore(seed: EmulatorData, statePath: string | undefined): StateStore {
  const fromSeed = (): EmulatorData => structuredClone(checkEmulatorData(seed, 'given to the emulator'));
  let data = statePath !== undefined && existsSync(statePath) ? loadEmulatorData(statePath) : fromSeed();
  const write = statePath === undefined ? () => undefined : (next: EmulatorData) => writeState(statePath, next);
  write(data);
  return {
    get data() {
      return data;
    },
    draft: () => structuredClone(data),
    commit: (next) => {
      write(next);
      data = next;
    },
  };
}

function writeState(statePath: string, data: EmulatorData): void {
  const temporary = `${statePath}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, `${JSON.stringify(data, null, 2)}\n`, 'utf8');
    renameSync(temporary, statePath);
  } catch (error) {
    removeQuietly(temporary);
    const code = (error as NodeJS.ErrnoException).code;
    const reason =
      code === 'ENOENT'
        ? `its folder ${dirname(statePath)} does not exist`
        : error instanceof Error
          ? error.message
          : String(error);
    throw new ViewctlError(
      'emulator.state-unwritable',
      `cannot write the emulator state file ${statePath}: ${reason}`,
      {
        hint: 'name a file in an existing folder the emulator may write to',
        cause: error,
      },
    );
  }
}

// Cleanup after a failed write: the write's own error is the one worth reporting.
function removeQuietly(path: string): void {
  try {
    rmSync(path, { force: true });
  } catch {
    return;
  }
}
