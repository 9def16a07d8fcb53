import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOMAINS, VIEW_KINDS } from '../../src/domain/domains.js';
import { isPublicSaved } from '../../src/domain/views.js';
import { demoWorkspace } from '../../src/emulator/demo/demo-workspace.js';
import type { EmulatorData } from '../../src/emulator/model.js';
import { startEmulator, type EmulatorOptions, type RunningEmulator } from '../../src/emulator/server.js';
import { duplicateNames, scratchDir, type CliResult } from '../support/cli.js';
import { FAST, inProcess, wrongExit } from './fault-runs.js';
import { holdingProxy, writesTogether } from './holding-proxy.js';
import { WORKLOAD_FILES, WORKLOAD_FLAGS, workloadVariant } from './workload.js';

/**
 * Two applies against one workspace at once: with identical manifests, with manifests
 * that set the same views differently, and with every answer lost so that neither run
 * knows which copy is its own. Each run goes through its own proxy, which holds its
 * writes until the other run writes too, so both planned on the workspace as it was
 * (both plan the same creates) before either wrote, whatever the machine's speed.
 * Afterwards no name is doubled, every view exports and validates, and each run ended
 * in success or a partial failure with its account. That running again converges is
 * the convergence property's (convergence.test.ts, two applies at once among its faults).
 */

let scratch: { dir: string; cleanup(): Promise<void> };
/** The public view names of the workload applied alone, fault-free. */
let expected: Record<string, string[]>;

beforeAll(async () => {
  const variant = workloadVariant();
  scratch = await scratchDir({
    ...Object.fromEntries(Object.entries(WORKLOAD_FILES).map(([path, text]) => [`a/${path}`, text])),
    ...Object.fromEntries(Object.entries(variant).map(([path, text]) => [`b/${path}`, text])),
  });
  const alone = await startEmulator({ data: demoWorkspace(), port: 0, ...FAST });
  try {
    const applied = await inProcess(
      ['apply', join(scratch.dir, 'a'), ...WORKLOAD_FLAGS, '--rate', '1000'],
      env(alone.url, alone),
    );
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    expected = publicNames(alone.snapshot());
  } finally {
    await alone.close();
  }
});

afterAll(async () => {
  await scratch.cleanup();
});

function env(url: string, emulator: RunningEmulator): Record<string, string> {
  return { VIEWCTL_BASE_URL: url, VIEWCTL_API_KEY: emulator.apiKey };
}

/**
 * together applies one manifest folder per run, all at once, each run through its own
 * proxy holding its writes until every run has sent one, and waits for all.
 */
async function together(
  options: Partial<EmulatorOptions>,
  folders: string[],
  check: (emulator: RunningEmulator, results: CliResult[]) => Promise<void>,
): Promise<void> {
  const emulator = await startEmulator({ data: demoWorkspace(), port: 0, ...FAST, ...options });
  const barrier = writesTogether(folders.length);
  const proxies = await Promise.all(folders.map((_, party) => holdingProxy(emulator.url, barrier(party))));
  try {
    const results = await Promise.all(
      folders.map((folder, party) =>
        inProcess(
          ['apply', join(scratch.dir, folder), ...WORKLOAD_FLAGS, '--rate', '1000'],
          env(proxies[party]?.url ?? '', emulator),
        ),
      ),
    );
    await check(emulator, results);
  } finally {
    await Promise.all(proxies.map((proxy) => proxy.close()));
    await emulator.close();
  }
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
  const exported = await inProcess(
    ['export', '--out', out, '--all-users', '--rate', '1000'],
    env(emulator.url, emulator),
  );
  expect(exported.code, exported.stderr).toBe(0);
  const validated = await inProcess(['validate', out], {});
  expect(validated.code, validated.stdout + validated.stderr).toBe(0);
}

/** publicNames lists each domain's public saved views by name, sorted: one copy of each is what must remain. */
function publicNames(data: EmulatorData): Record<string, string[]> {
  return Object.fromEntries(
    DOMAINS.map((domain) => [
      domain,
      data.views[domain]
        .filter(isPublicSaved)
        .map((view) => view.name)
        .sort(),
    ]),
  );
}

describe('two applies at once against one workspace', () => {
  it('with identical manifests: one copy of each view remains, every view valid, each run accounted', async () => {
    await together({}, ['a', 'a'], async (emulator, results) => {
      results.forEach(expectAccounted);
      expect(duplicateNames(emulator.snapshot())).toEqual([]);
      expect(publicNames(emulator.snapshot())).toEqual(expected);
      await expectValidWorkspace(emulator, 'same');
    });
  });

  it('with identical manifests and every answer lost after commit: neither run knows its copy, yet one copy of each view remains', async () => {
    await together({ dropAfterCommitRate: 1 }, ['a', 'a'], async (emulator, results) => {
      results.forEach(expectAccounted);
      expect(results.map((result) => result.code)).toEqual([4, 4]);
      expect(duplicateNames(emulator.snapshot())).toEqual([]);
      // Each run stopped in its creates, every one of which may have landed (and did):
      // each view a run lists as created is there once, whichever run's copy it is.
      const names = publicNames(emulator.snapshot());
      const landedOrMay = (output: string): string => /\nLanded:\n([\s\S]*?)\nFailed:/.exec(output)?.[1] ?? '';
      const created = results.flatMap((result) =>
        [...landedOrMay(result.stdout).matchAll(/^ {2}create\s+(\w+)\s+"([^"]+)"/gm)].map(([, kind, name]) => ({
          kind,
          name,
        })),
      );
      expect(created.length).toBeGreaterThan(0);
      for (const { kind, name } of created) {
        const domain = DOMAINS.find((candidate) => VIEW_KINDS[candidate] === kind);
        expect(
          domain === undefined ? [] : names[domain]?.filter((named) => named === name),
          `${kind} "${name}"`,
        ).toEqual([name]);
      }
    });
  });

  it('with manifests that set the same views differently: no doubled view, every view valid, each run accounted', async () => {
    await together({}, ['a', 'b'], async (emulator, results) => {
      results.forEach(expectAccounted);
      expect(duplicateNames(emulator.snapshot())).toEqual([]);
      await expectValidWorkspace(emulator, 'different');
    });
  });

  it('with saved plans of the same views: the first applied holds the targets it changed in the other, with nothing written (exit 0)', async () => {
    const emulator = await startEmulator({ data: demoWorkspace(), port: 0, ...FAST });
    try {
      // Both plans are computed before either is applied, as by two reviewers at once.
      const plans = { a: join(scratch.dir, 'plan-a.json'), b: join(scratch.dir, 'plan-b.json') };
      for (const folder of ['a', 'b'] as const) {
        const plan = await inProcess(
          ['plan', join(scratch.dir, folder), '--out', plans[folder], '--rate', '1000'],
          env(emulator.url, emulator),
        );
        expect(plan.code, plan.stderr).toBe(0);
      }
      const first = await inProcess(
        ['apply', '--plan', plans.a, '--max-deletes', '20', '--rate', '1000'],
        env(emulator.url, emulator),
      );
      expect(first.code, first.stdout + first.stderr).toBe(0);
      const afterFirst = emulator.snapshot();
      const writes = emulator.stats().writes;
      const second = await inProcess(
        ['apply', '--plan', plans.b, '--max-deletes', '20', '--rate', '1000'],
        env(emulator.url, emulator),
      );
      // Every change of b is now held (a target a changed otherwise) or already applied (a made it so): exit 0, nothing sent.
      expect(second.code, second.stdout + second.stderr).toBe(0);
      expect(second.stdout).toMatch(
        /^Held, nothing written: plan \w+: 8 changes are held and the other 17 are already applied/,
      );
      expect(second.stdout).toContain('create RecordingView "Escalations"  [apply.stale-target]');
      expect(wrongExit(second)).toBeUndefined();
      expect(emulator.stats().writes).toBe(writes);
      expect(emulator.snapshot()).toEqual(afterFirst);
    } finally {
      await emulator.close();
    }
  });
});
