import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { demoWorkspace } from '../../src/emulator/demo/demo-workspace.js';
import { startEmulator } from '../../src/emulator/server.js';
import { budgetMembers } from '../../src/export/pin-users.js';
import { FAST_LIMITS, runExport } from './helpers.js';
import { user } from './fixture.js';

/** `export --all-users --budget N`: members in email order, a run at a time, each member once. */

describe('budgetMembers', () => {
  const members = ['a', 'b', 'c', 'd', 'e'].map((name) => user(`u_${name}`, `${name}@x.test`, name));

  it('reads the members not yet exported, in order, as many as the room pays for at one request per domain', () => {
    const batch = budgetMembers(members, (member) => member.id === 'u_a' || member.id === 'u_c', 9, 20);
    expect(batch.read.map((member) => member.id)).toEqual(['u_b', 'u_d']);
    expect(batch).toMatchObject({ skipped: 2, remaining: 1 });
  });

  it('refuses a room that cannot pay for one member while some remain', () => {
    expect(() => budgetMembers(members, () => false, 3, 10)).toThrow(expect.objectContaining({ code: 'usage.budget-too-small' }));
    expect(budgetMembers(members, () => true, 0, 10)).toEqual({ read: [], skipped: 5, remaining: 0 });
  });
});

describe('viewctl export --all-users --budget', () => {
  it('spends at most the budget per run, says how many remain and how to continue, and covers every active member once', async () => {
    const emulator = await startEmulator({ data: demoWorkspace(), port: 0, ...FAST_LIMITS });
    const cwd = await mkdtemp(join(tmpdir(), 'viewctl-export-budget-'));
    const env = { VIEWCTL_BASE_URL: emulator.url, VIEWCTL_API_KEY: emulator.apiKey };
    try {
      const active = demoWorkspace().users.filter((member) => member.state === 'Active').length;
      const written: string[][] = [];
      let args = ['--out', 'out', '--all-users', '--budget', '15'];
      for (let run = 0; run < 10; run += 1) {
        const before = await readdir(join(cwd, 'out', 'pins')).catch(() => [] as string[]);
        emulator.resetStats();
        const result = await runExport(args, { cwd, env });
        expect(result.code, result.stderr).toBe(0);
        expect(emulator.stats().requests).toBeLessThanOrEqual(15);
        const after = await readdir(join(cwd, 'out', 'pins'));
        written.push(after.filter((file) => !before.includes(file)));
        const next = /continue with\n {2}viewctl export (.+)\n/.exec(result.stdout);
        if (next === null) {
          expect(result.stdout).toContain('every member is exported');
          break;
        }
        args = (next[1] ?? '').split(' ');
        expect(args).toEqual(['--out', 'out', '--all-users', '--budget', '15', '--force']);
      }
      expect(written.map((files) => files.length)).toEqual([2, 2, 2, 1]);
      expect(new Set(written.flat()).size).toBe(active);
    } finally {
      await emulator.close();
      await rm(cwd, { recursive: true, force: true });
    }
  });
});
