import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoWorkspace } from '../../src/emulator/demo/demo-workspace.js';
import { startEmulator, type EmulatorOptions } from '../../src/emulator/server.js';
import type { comparable } from '../support/cli.js';
import {
  comparable as comparableState,
  duplicateNames,
  runInProcess,
  scratchDir,
  TEST_WAITS,
  type CliResult,
} from '../support/cli.js';
import {
  FAST,
  applyAcrossRestart,
  faultFreeState,
  faultScenario,
  inProcess,
  spawned,
  type Restart,
} from './fault-runs.js';
import { outageClock } from './outage-clock.js';
import { WORKLOAD_FILES, WORKLOAD_FLAGS } from './workload.js';

/**
 * The workload through the real CLI against a service whose rate limit the client is
 * told to exceed (429s), and a service that restarts in the middle of an apply,
 * keeping its state in a file. The restart comes under a chosen request, which the
 * emulator holds until it is closed, so that request is in flight whatever the
 * machine's speed; the client's waits are on a clock that holds them while the
 * service is down. Whether the runs converge afterwards is the convergence property's
 * (convergence.test.ts); these tests check what a restart does to the run under way.
 */

/** CREATES is how many views the workload creates: every create lands before the first update. */
const CREATES = 7;

let workload: { dir: string; cleanup(): Promise<void> };
let expected: ReturnType<typeof comparable>;

beforeAll(async () => {
  workload = await scratchDir(WORKLOAD_FILES);
  expected = await faultFreeState(workload.dir, inProcess);
});

afterAll(async () => {
  await workload.cleanup();
});

/**
 * restartUnder applies the workload in-process and restarts its emulator under the
 * first request `restart` holds. For a restart at once the client's waits are held
 * while the service is down; for an outage until the apply gives up, they are not.
 */
async function restartUnder(label: string, restart: Omit<Restart, 'onDown' | 'onUp'>) {
  const clock = outageClock();
  const options: EmulatorOptions = {
    data: demoWorkspace(),
    port: 0,
    ...FAST,
    statePath: join(workload.dir, `state-${label}.json`),
  };
  const counted = { faultsInjected: 0, rateLimited: 0 };
  const result = await applyAcrossRestart(
    options,
    restart.comesBack === 'at-once' ? { ...restart, onDown: () => clock.down(), onUp: () => clock.up() } : restart,
    // Re-listings after a lost create wait a millisecond: only their count matters here.
    (env) =>
      runInProcess(['apply', workload.dir, ...WORKLOAD_FLAGS, '--rate', '1000'], {
        env,
        waits: { ...TEST_WAITS, relistDelaysMs: [1, 1], clock },
      }),
    counted,
  );
  return { ...result, output: (apply: CliResult) => apply.stdout + apply.stderr };
}

describe.concurrent('apply against a rate-limiting service', () => {
  it('retries the 429s of a --rate above the service limit and still succeeds, in the built CLI', async () => {
    // The real limiter on both sides: the subject is the limit. Nothing here is timed.
    const scenario = faultScenario('rate-429', 1);
    const emulator = await startEmulator({ data: demoWorkspace(), port: 0, ...scenario.emulator });
    try {
      const apply = await spawned(['apply', workload.dir, ...WORKLOAD_FLAGS, '--rate', String(scenario.clientRate)], {
        VIEWCTL_BASE_URL: emulator.url,
        VIEWCTL_API_KEY: emulator.apiKey,
      });
      expect(emulator.stats().rateLimited, apply.stdout + apply.stderr).toBeGreaterThan(0);
      expect(apply.code, apply.stdout + apply.stderr).toBe(0);
      expect(comparableState(emulator.snapshot())).toEqual(expected);
    } finally {
      await emulator.close();
    }
  });
});

describe.concurrent('a service that restarts mid-apply (same port, same state file)', () => {
  it.each(['PATCH', 'PUT', 'DELETE'])(
    'sends a %s in flight during the restart again once the service is back, and the apply succeeds',
    async (method) => {
      const { emulator, apply, held, output } = await restartUnder(method, {
        holds: (endpoint) => endpoint.startsWith(`${method} `),
        comesBack: 'at-once',
      });
      try {
        expect(held, output(apply)).toMatch(new RegExp(`^${method} /v1/`));
        expect(apply.code, output(apply)).toBe(0);
        expect(output(apply)).not.toMatch(/internal error|\n\s+at /);
        expect(comparableState(emulator.snapshot())).toEqual(expected);
      } finally {
        await emulator.close();
      }
    },
  );

  it('never sends again a create in flight during the restart: it may have landed (exit 4), and no view is doubled', async () => {
    const { emulator, apply, held, before, output } = await restartUnder('POST', {
      holds: (endpoint, writes) => endpoint.startsWith('POST ') && writes >= 2,
      comesBack: 'at-once',
    });
    try {
      expect(held).toMatch(/^POST \/v1\/\w+\/views$/);
      expect(apply.code, output(apply)).toBe(4);
      expect(apply.stdout).toMatch(/May have landed \(the next plan shows whether it did\):\n {2}create /);
      expect(duplicateNames(emulator.snapshot())).toEqual([]);
      // Every create reached the service at most once, before the restart or after it.
      const posts = (byEndpoint: Record<string, number>): number =>
        Object.entries(byEndpoint)
          .filter(([endpoint]) => endpoint.startsWith('POST '))
          .reduce((sum, [, count]) => sum + count, 0);
      expect(posts(before) + posts(emulator.stats().byEndpoint)).toBeLessThanOrEqual(CREATES);
    } finally {
      await emulator.close();
    }
  });

  it('fails part-way with an account when the service stays down past the retries; the state file keeps what landed', async () => {
    const { emulator, apply, midApply, output } = await restartUnder('long', {
      holds: (endpoint) => endpoint.startsWith('PATCH '),
      comesBack: 'after-apply',
    });
    try {
      const text = output(apply);
      expect(midApply).toBe(true);
      expect(apply.code, text).toBe(4);
      // The account: what landed (every create: they all came before the first update),
      // what failed and why, and what was never tried (the pinned lists and the deletes).
      expect(text).toMatch(/Apply failed part-way: 7 created, 0 updated/);
      expect(text.match(/Landed:\n((?: {2}.*\n)+)/)?.[1]?.match(/^ {2}create /gm)).toHaveLength(CREATES);
      expect(text).toMatch(/(May have landed|Failed)[^\n]*:\n[\s\S]*cannot reach the service/);
      expect(text).toMatch(/Not attempted:\n(?: {2}.*\n)* {2}pin /);
      expect(text).toMatch(/Not attempted:\n(?: {2}.*\n)* {2}delete /);
      expect(text).not.toMatch(/internal error|\n\s+at /);
      // Started again from its state file, the service holds what landed before it went down.
      expect(emulator.stats().writes).toBe(0);
      const names = (domain: 'recordings' | 'deals'): string[] =>
        emulator.snapshot().views[domain].map((view) => view.name);
      expect(names('recordings')).toEqual(expect.arrayContaining(['Team calls', 'Escalations', 'Renewal calls']));
      expect(names('deals')).toEqual(expect.arrayContaining(['Closing soon', 'Expansion']));
    } finally {
      await emulator.close();
    }
  });
});
