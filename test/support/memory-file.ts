import { readFile } from 'node:fs/promises';
import type { SweepMemory } from '../../src/state/sweep-memory.js';

/** memoryFile is the sweep memory a run saved at `path` (`--ledger FILE`), as JSON; it is read as the tests' witness, not checked against the schema. */
export async function memoryFile(path: string): Promise<SweepMemory> {
  return JSON.parse(await readFile(path, 'utf8')) as SweepMemory;
}
