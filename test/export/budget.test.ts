import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { demoWorkspace } from '../../src/emulator/demo/demo-workspace.js';
import { startEmulator } from '../../src/emulator/server.js';
import { budgetMembers, checkExportCeiling, exportFloor } from '../../src/export/pin-users.js';
import { readCeiling } from '../../src/state/read-ceiling.js';
import { FAST_LIMITS, runExport } from './helpers.js';
import { user } from './fixture.js';
import { runInProcess } from '../support/cli.js';

/** `export --all-users --budget N`: members in email order, a run at a time, each member once. */

describe('budgetMembers', () => {
  const members = ['a', 'b', 'c', 'd', 'e'].map((name) => user(`u_${name}`, `${name}@x.test`, name));
  const budget = (value: number, reserve = 0, remaining: number | null = null) =>
    readCeiling({ budget: value, reserve, spent: 1, remaining, least: 11 });
  const done =
    (...ids: string[]) =>
    (member: { id: string }): number =>
      ids.includes(member.id) ? 0 : 4;

  it('reads the members not yet exported, in order, as many as the room pays for at one request per domain', () => {
    const batch = budgetMembers(members, done('u_a', 'u_c'), { spent: 11, remaining: null, ceiling: budget(20) });
    expect(batch.read.map((member) => member.id)).toEqual(['u_b', 'u_d']);
    expect(batch).toMatchObject({ skipped: 2, remaining: 1 });
  });

  it('refuses a room that cannot pay for one member while some remain, with the least counted from what was read', () => {
    expect(() => budgetMembers(members, done(), { spent: 7, remaining: null, ceiling: budget(10) })).toThrow(
      expect.objectContaining({ code: 'usage.budget-too-small', hint: 'pass a --budget of at least 11' }),
    );
    expect(budgetMembers(members, () => 0, { spent: 10, remaining: null, ceiling: budget(10) })).toEqual({
      read: [],
      skipped: 5,
      remaining: 0,
    });
  });

  it('pays for the lists each member has left (a merge reads only undeclared domains), stopping at the first that does not fit', () => {
    const cost: Record<string, number> = { u_a: 0, u_b: 1, u_c: 4, u_d: 2, u_e: 1 };
    const batch = budgetMembers(members, (member) => cost[member.id] ?? 4, {
      spent: 14,
      remaining: null,
      ceiling: budget(20),
    });
    // b (1) and c (4) fit in 6; d (2) does not, so e waits too: later runs go on in order.
    expect(batch.read.map((member) => member.id)).toEqual(['u_b', 'u_c']);
    expect(batch).toMatchObject({ skipped: 1, remaining: 2 });
  });

  it('reads as many members as what is left today less the reserve pays for, when that is below the budget', () => {
    // 320 left when the export began: a ceiling of 20, of which the 7 reads so far leave 13: three members.
    const ceiling = budget(1000, 300, 319);
    expect(budgetMembers(members, done(), { spent: 7, remaining: 313, ceiling }).read).toHaveLength(3);
    expect(() => budgetMembers(members, done(), { spent: 7, remaining: 303, ceiling })).toThrow(
      expect.objectContaining({ code: 'export.over-budget' }),
    );
  });
});

describe('exportFloor and checkExportCeiling', () => {
  it("count the users by the member count and one member's pinned views; refuse by the quota first", () => {
    expect(exportFloor(false)).toEqual({ least: 6, exact: true });
    expect(exportFloor(true)).toEqual({ least: 11, exact: false });
    expect(exportFloor(true, 870)).toEqual({ least: 19, exact: true });
    const floor = exportFloor(true, 870);
    expect(() =>
      checkExportCeiling(
        readCeiling({ budget: 18, reserve: 300, spent: 1, remaining: 2000, least: floor.least }),
        floor,
        'only the workspace was read',
      ),
    ).toThrow(expect.objectContaining({ code: 'usage.budget-too-small', hint: 'pass a --budget of at least 19' }));
    expect(() =>
      checkExportCeiling(
        readCeiling({ budget: 19, reserve: 300, spent: 1, remaining: 317, least: floor.least }),
        floor,
        'only the workspace was read',
      ),
    ).toThrow(
      expect.objectContaining({
        code: 'export.over-budget',
        message: expect.stringContaining('318 are left today and --reserve keeps 300 of them'),
      }),
    );
    expect(() =>
      checkExportCeiling(
        readCeiling({ budget: 19, reserve: 300, spent: 1, remaining: 318, least: floor.least }),
        floor,
        'only the workspace was read',
      ),
    ).not.toThrow();
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
        const next = /continue with .*\n {2}viewctl export (.+)\n/.exec(result.stdout);
        if (next === null) {
          expect(result.stdout).toContain('every member is exported');
          break;
        }
        args = (next[1] ?? '').split(' ');
        expect(args).toEqual(['--merge', '--out', 'out', '--all-users', '--budget', '15']);
      }
      expect(written.map((files) => files.length)).toEqual([2, 2, 2, 1]);
      expect(new Set(written.flat()).size).toBe(active);
    } finally {
      await emulator.close();
      await rm(cwd, { recursive: true, force: true });
    }
  });
});

describe('viewctl export --all-users --budget under a quota smaller than the budget', () => {
  it('spends what is left today less the reserve, says so, and never meets the quota', async () => {
    // 330 left: the ceiling is 30 of the budget's 1,000, with 300 kept for the other integrations.
    const emulator = await startEmulator({ data: demoWorkspace(), port: 0, ...FAST_LIMITS, quota: 330 });
    const cwd = await mkdtemp(join(tmpdir(), 'viewctl-export-ceiling-'));
    const env = { VIEWCTL_BASE_URL: emulator.url, VIEWCTL_API_KEY: emulator.apiKey };
    try {
      const result = await runExport(['--out', 'out', '--all-users', '--budget', '1000'], { cwd, env });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toContain('--budget 1,000 lowered to 30, the 330 left today less --reserve 300\n');
      expect(emulator.stats().requests).toBeLessThanOrEqual(30);
      // The workspace, four listings, the automations, a page of members, then five members of four lists.
      expect(emulator.stats().requests).toBe(27);
      expect(await readdir(join(cwd, 'out', 'pins'))).toHaveLength(5);
    } finally {
      await emulator.close();
      await rm(cwd, { recursive: true, force: true });
    }
  });

  it('refuses --budget 0 before any request with a least that then works', async () => {
    const emulator = await startEmulator({ data: demoWorkspace(), port: 0, ...FAST_LIMITS });
    const cwd = await mkdtemp(join(tmpdir(), 'viewctl-export-least-'));
    const env = { VIEWCTL_BASE_URL: emulator.url, VIEWCTL_API_KEY: emulator.apiKey };
    try {
      const refused = await runExport(['--out', 'out', '--all-users', '--budget', '0'], { cwd, env });
      expect(refused.error?.code).toBe('usage.budget-too-small');
      expect(emulator.stats().requests).toBe(0);
      const least = /at least (\d+)/.exec(refused.error?.hint ?? '')?.[1] ?? '';
      expect(least).toBe('11');
      const works = await runExport(['--out', 'out', '--all-users', '--budget', least], { cwd, env });
      expect(works.code, works.stderr).toBe(0);
      expect(emulator.stats().requests).toBe(11);
      expect(await readdir(join(cwd, 'out', 'pins'))).toHaveLength(1);
    } finally {
      await emulator.close();
      await rm(cwd, { recursive: true, force: true });
    }
  });
});

describe('the next step a partial export prints', () => {
  it('is a plan the quota lets run: --budget with the figure when a full plan no longer fits today', async () => {
    // 50 a day: the export spends 27 (its fixed reads and five members), leaving 23; a full plan of the folder needs 26.
    const emulator = await startEmulator({ data: demoWorkspace(), port: 0, ...FAST_LIMITS, quota: 50 });
    const cwd = await mkdtemp(join(tmpdir(), 'viewctl-export-next-'));
    const env = { VIEWCTL_BASE_URL: emulator.url, VIEWCTL_API_KEY: emulator.apiKey };
    try {
      const exported = await runExport(['--out', 'out', '--all-users', '--budget', '27', '--reserve', '0'], {
        cwd,
        env,
      });
      expect(exported.code, exported.stderr).toBe(0);
      const next = /^next: viewctl (plan .+?) \(/m.exec(exported.stdout)?.[1];
      expect(next).toBe('plan out --budget 23 --reserve 0');
      expect(exported.stdout).toContain('a full plan reads about 26 requests, more than the 23 left today');
      const plan = await runInProcess((next ?? '').split(' '), { cwd, env });
      expect(plan.code, plan.stderr).toBe(0);
      expect(plan.stdout).toMatch(/^No changes\./);
    } finally {
      await emulator.close();
      await rm(cwd, { recursive: true, force: true });
    }
  });
});
