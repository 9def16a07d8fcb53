import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoWorkspace } from '../../src/emulator/demo/demo-workspace.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/server.js';
import { comparable } from '../support/cli.js';
import { duplicateNames, scratchDir, type CliResult } from '../support/cli.js';
import { FAST, faultFreeState, inProcess, spawned, wrongExit } from './fault-runs.js';
import { WORKLOAD_FILES, WORKLOAD_FLAGS, workloadVariant } from './workload.js';

/**
 * Two applies against one workspace at once, in two processes: with identical
 * manifests (both plan the same creates before either lands them) and with manifests
 * that set the same views differently, and with every answer lost so that neither run
 * knows which copy is its own. Afterwards no name is doubled, every view
 * exports and validates, each run ended in success, a stale refusal or a partial
 * failure with its account, and running again converges.
 */

let scratch: { dir: string; cleanup(): Promise<void> };
let expected: ReturnType<typeof comparable>;

beforeAll(async () => {
  const variant = workloadVariant();
  scratch = await scratchDir({
    ...Object.fromEntries(Object.entries(WORKLOAD_FILES).map(([path, text]) => [`a/${path}`, text])),
    ...Object.fromEntries(Object.entries(variant).map(([path, text]) => [`b/${path}`, text])),
  });
  expected = await faultFreeState(join(scratch.dir, 'a'), inProcess);
});

afterAll(async () => {
  await scratch.cleanup();
});

function env(emulator: RunningEmulator): Record<string, string> {
  return { VIEWCTL_BASE_URL: emulator.url, VIEWCTL_API_KEY: emulator.apiKey };
}

/** together spawns one apply per manifest folder, all at once, and waits for all. */
function together(emulator: RunningEmulator, folders: string[]): Promise<CliResult[]> {
  return Promise.all(folders.map((folder) => spawned(['apply', join(scratch.dir, folder), ...WORKLOAD_FLAGS, '--rate', '1000'], env(emulator))));
}

/**
 * expectAccounted checks a concurrent apply ended in success or a partial failure (4),
 * and that its exit code agrees with its own account of what landed (`wrongExit`): 0
 * only when all of it applied and verified. A refusal (3) is not accepted: these runs
 * apply manifests, planned and applied in one go, so the stale check (which guards
 * saved plans) cannot refuse them, and nothing in them exceeds --max-deletes.
 */
function expectAccounted(result: CliResult): void {
  const output = result.stdout + result.stderr;
  expect([0, 4], output).toContain(result.code);
  expect(wrongExit(result), output).toBeUndefined();
}

/** expectValidWorkspace exports the workspace and validates the export: every view is one a manifest can declare. */
async function expectValidWorkspace(emulator: RunningEmulator, label: string): Promise<void> {
  const out = join(scratch.dir, `export-${label}`);
  const exported = await inProcess(['export', '--out', out, '--all-users', '--rate', '1000'], env(emulator));
  expect(exported.code, exported.stderr).toBe(0);
  const validated = await inProcess(['validate', out], {});
  expect(validated.code, validated.stdout + validated.stderr).toBe(0);
}

/** convergeWith re-runs apply of `folder` until a plan is empty (two more runs at most) and returns how many it took. */
async function convergeWith(emulator: RunningEmulator, folder: string): Promise<number> {
  for (let run = 1; run <= 2; run += 1) {
    const apply = await inProcess(['apply', join(scratch.dir, folder), ...WORKLOAD_FLAGS, '--rate', '1000'], env(emulator));
    expect([0, 4], apply.stdout + apply.stderr).toContain(apply.code);
    const plan = await inProcess(['plan', join(scratch.dir, folder), '--detailed-exitcode', '--rate', '1000'], env(emulator));
    if (plan.code === 0) return run;
  }
  throw new Error(`apply of ${folder} did not converge in two more runs`);
}

describe('two applies at once against one workspace', () => {
  it('with identical manifests: no doubled view, every view valid, and the workspace converges to the manifests', async () => {
    const emulator = await startEmulator({ data: demoWorkspace(), port: 0, ...FAST, latencyMs: 15 });
    try {
      const results = await together(emulator, ['a', 'a']);
      results.forEach(expectAccounted);
      expect(duplicateNames(emulator.snapshot())).toEqual([]);
      await expectValidWorkspace(emulator, 'same');
      expect(await convergeWith(emulator, 'a')).toBeLessThanOrEqual(2);
      expect(duplicateNames(emulator.snapshot())).toEqual([]);
      expect(comparable(emulator.snapshot())).toEqual(expected);
    } finally {
      await emulator.close();
    }
  });

  it('with identical manifests and every answer lost after commit: neither run knows its copy, yet one copy of each view remains', async () => {
    const emulator = await startEmulator({ data: demoWorkspace(), port: 0, ...FAST, latencyMs: 5, dropAfterCommitRate: 1 });
    try {
      const results = await together(emulator, ['a', 'a']);
      results.forEach(expectAccounted);
      expect(results.map((result) => result.code)).toEqual([4, 4]);
      expect(duplicateNames(emulator.snapshot())).toEqual([]);
    } finally {
      await emulator.close();
    }
  });

  it('with manifests that set the same views differently: no doubled view, every view valid, and re-running one converges', async () => {
    const emulator = await startEmulator({ data: demoWorkspace(), port: 0, ...FAST, latencyMs: 15 });
    try {
      const results = await together(emulator, ['a', 'b']);
      results.forEach(expectAccounted);
      expect(duplicateNames(emulator.snapshot())).toEqual([]);
      await expectValidWorkspace(emulator, 'different');
      expect(await convergeWith(emulator, 'b')).toBeLessThanOrEqual(2);
      expect(duplicateNames(emulator.snapshot())).toEqual([]);
    } finally {
      await emulator.close();
    }
  });

  it('with saved plans of the same views: the first applied makes the other stale, refused (exit 3) with nothing written', async () => {
    const emulator = await startEmulator({ data: demoWorkspace(), port: 0, ...FAST });
    try {
      // Both plans are computed before either is applied, as by two reviewers at once.
      const plans = { a: join(scratch.dir, 'plan-a.json'), b: join(scratch.dir, 'plan-b.json') };
      for (const folder of ['a', 'b'] as const) {
        const plan = await inProcess(['plan', join(scratch.dir, folder), '--out', plans[folder], '--rate', '1000'], env(emulator));
        expect(plan.code, plan.stderr).toBe(0);
      }
      const first = await inProcess(['apply', '--plan', plans.a, '--max-deletes', '20', '--rate', '1000'], env(emulator));
      expect(first.code, first.stdout + first.stderr).toBe(0);
      const afterFirst = emulator.snapshot();
      const writes = emulator.stats().writes;
      const second = await inProcess(['apply', '--plan', plans.b, '--max-deletes', '20', '--rate', '1000'], env(emulator));
      expect(second.code, second.stdout + second.stderr).toBe(3);
      expect(second.stderr).toContain('error[apply.stale-plan]');
      expect(wrongExit(second)).toBeUndefined();
      expect(emulator.stats().writes).toBe(writes);
      expect(emulator.snapshot()).toEqual(afterFirst);
    } finally {
      await emulator.close();
    }
  });
});
