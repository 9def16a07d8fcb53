import { existsSync, renameSync, writeFileSync } from 'node:fs';
import { checkEmulatorData, loadEmulatorData } from './data-file.js';
import type { EmulatorData } from './model.js';

/**
 * StateStore keeps the emulator's workspace in memory and, with a state file, on
 * disk: every change is written (temp file + rename, so a crash never leaves half a
 * file) before the request that made it is answered.
 */
export interface StateStore {
  data: EmulatorData;
  /** persist writes the data to the state file, if there is one. */
  persist(): void;
}

/**
 * openStateStore loads the state file when it exists (it wins over `seed`, so state
 * survives restarts), else starts from a copy of `seed` and writes it.
 */
export function openStateStore(seed: EmulatorData, statePath: string | undefined): StateStore {
  if (statePath === undefined) {
    return { data: structuredClone(checkEmulatorData(seed, 'given to the emulator')), persist: () => undefined };
  }
  const data = existsSync(statePath) ? loadEmulatorData(statePath) : structuredClone(checkEmulatorData(seed, 'given to the emulator'));
  const persist = (): void => {
    const temporary = `${statePath}.${process.pid}.tmp`;
    writeFileSync(temporary, `${JSON.stringify(data, null, 2)}\n`, 'utf8');
    renameSync(temporary, statePath);
  };
  persist();
  return { data, persist };
}
