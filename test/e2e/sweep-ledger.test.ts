import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDirs, withEmulator } from './harness.js';
import { simulatedDays } from './days.js';
import { memoryFile } from '../support/memory-file.js';

/**
 * The nightly sweep with its memory, through the built CLI against the emulator on
 * simulated nights (README, "The nightly sweep's promise"): `plan --budget 5 --ledger
 * FILE` reads the lists it never read first, then the least recently read, says so,
 * and reads every list within the nights it states.
 */

const { dir, cleanupAll } = tempDirs();
afterEach(cleanupAll);

const days = simulatedDays('2026-03-01T02:00:00.000Z');
const runOn = days.run;
const MEMBERS = ['olivia.park', 'adam.reyes', 'mia.chen', 'noah.patel', 'lena.fischer', 'sam.okafor', 'ines.duarte'];

function dealTabs(): Record<string, string> {
  const files: Record<string, string> = { 'workspace.yaml': 'kind: Workspace\nworkspaceId: ws_acme\n' };
  for (const member of MEMBERS)
    files[`pins/${member}.yaml`] =
      `kind: PinnedViews\nuserEmail: ${member}@acme.test\nunpinPrivate: true\ndeals: [All deals]\n`;
  return files;
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
        const memory = await memoryFile(ledger);
        const tonight = days.on(night);
        readOn.push(
          Object.entries(memory.lists)
            .filter(([, list]) => list.lastRead === tonight)
            .map(([key]) => key)
            .sort(),
        );
      }
      // 7 lists, a room of 3 (the workspace and the deals listing take 2 of 5): 3 nights.
      expect(texts[0]).toBe(
        'Scope: read 3 of 7 pinned lists (--budget 5: all new to the sweep; 4 due within 2 nights; every list is read within 3 nights at this budget); the 4 unread lists were not checked for drift.',
      );
      expect(texts[1]).toContain('(--budget 5: all new to the sweep; 4 due within 2 nights;');
      expect(texts[2]).toContain(
        '(--budget 5: 1 new to the sweep, the rest least recently read; 4 due within 2 nights; every list is read within 3 nights at this budget)',
      );
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
