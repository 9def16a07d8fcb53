import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { run as sourceRun } from '../../src/cli/run.js';
import type { SweepMemory } from '../../src/state/sweep-memory.js';
import { TEST_WAITS } from '../support/cli.js';
import { tempDirs, withEmulator, type CliRun } from './harness.js';

/**
 * The nightly sweep with its memory, through the built CLI against the emulator on
 * simulated nights (README, "The nightly sweep's promise"): `plan --budget 5 --ledger
 * FILE` reads the lists it never read first, then the least recently read, says so,
 * and reads every list within the nights it states.
 */

const { dir, cleanupAll } = tempDirs();
afterEach(cleanupAll);

const BUILT_RUN = pathToFileURL(fileURLToPath(new URL('../../dist/cli/run.js', import.meta.url))).href;
const NIGHT1 = Date.parse('2026-03-01T02:00:00.000Z');
const MEMBERS = ['olivia.park', 'adam.reyes', 'mia.chen', 'noah.patel', 'lena.fischer', 'sam.okafor', 'ines.duarte'];

function dealTabs(): Record<string, string> {
  const files: Record<string, string> = { 'workspace.yaml': 'kind: Workspace\nworkspaceId: ws_acme\n' };
  for (const member of MEMBERS) files[`pins/${member}.yaml`] = `kind: PinnedViews\nuserEmail: ${member}@acme.test\nunpinPrivate: true\ndeals: [All deals]\n`;
  return files;
}

/** runOn runs the built CLI in this process on simulated night `night` (1 = the first). */
async function runOn(night: number, args: string[], env: Record<string, string>, cwd: string): Promise<CliRun> {
  const { run } = (await import(BUILT_RUN)) as { run: typeof sourceRun };
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const at = NIGHT1 + (night - 1) * 86_400_000;
  const code = await run([...args, '--rate', '1000'], { stdout, stderr, stdin: new PassThrough().end(), env: { NO_COLOR: '1', ...env }, cwd, waits: TEST_WAITS, clock: { now: () => at } });
  await new Promise((resolve) => setImmediate(resolve));
  return { code, stdout: out, stderr: err };
}

describe('plan --budget --ledger FILE on consecutive nights', () => {
  it('reads the lists never read first, then the least recently read, and every list within the nights stated', async () => {
    const root = await dir(dealTabs());
    const ledger = join(root, 'ledger.json');
    await withEmulator(async (_emulator, env) => {
      const texts: string[] = [];
      const readOn: string[][] = [];
      for (let night = 1; night <= 4; night += 1) {
        const result = await runOn(night, ['plan', '.', '--budget', '5', '--ledger', ledger], env, root);
        expect(result.code, result.stderr).toBe(0);
        texts.push(/^Scope: .*$/m.exec(result.stdout)?.[0] ?? '');
        const memory = JSON.parse(await readFile(ledger, 'utf8')) as SweepMemory;
        const tonight = new Date(NIGHT1 + (night - 1) * 86_400_000).toISOString();
        readOn.push(Object.entries(memory.lists).filter(([, list]) => list.lastRead === tonight).map(([key]) => key).sort());
      }
      // 7 lists, a room of 3 (the workspace and the deals listing take 2 of 5): 3 nights.
      expect(texts[0]).toBe('Scope: read 3 of 7 pinned lists (--budget 5: all new to the sweep; 4 due within 2 nights; every list is read within 3 nights at this budget); the 4 unread lists were not checked for drift.');
      expect(texts[1]).toContain('(--budget 5: all new to the sweep; 4 due within 2 nights;');
      expect(texts[2]).toContain('(--budget 5: 1 new to the sweep, the rest least recently read; 4 due within 2 nights; every list is read within 3 nights at this budget)');
      expect(readOn.map((keys) => keys.length)).toEqual([3, 3, 3, 3]);
      // Any three nights in a row read every list; the fourth night starts with the night-one list the third left.
      expect(new Set(readOn.slice(0, 3).flat()).size).toBe(7);
      expect(new Set(readOn.slice(1, 4).flat()).size).toBe(7);
      const left = (readOn[0] ?? []).filter((key) => !(readOn[2] ?? []).includes(key));
      expect(left).toHaveLength(1);
      expect(readOn[3]).toEqual(expect.arrayContaining(left));
    });
  });
});
