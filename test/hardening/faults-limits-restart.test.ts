import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoWorkspace } from '../../src/emulator/demo/demo-workspace.js';
import { startEmulator } from '../../src/emulator/server.js';
import type { comparable } from '../support/cli.js';
import { comparable as comparableState } from '../support/cli.js';
import { duplicateNames, scratchDir } from '../support/cli.js';
import {
  FAST, applyAcrossRestart, faultFreeState, faultScenario, inProcess, runScenario, spawned,
} from './fault-runs.js';
import { WORKLOAD_FILES, WORKLOAD_FLAGS } from './workload.js';

/**
 * The workload through the real CLI against a slow service, a service whose rate
 * limit the client is told to exceed (429s), and a service that restarts in the
 * middle of an apply, keeping its state in a file. Each test has its own emulator and
 * mostly waits (Retry-After, backoff, an outage), so the tests run side by side.
 */

let workload: { dir: string; cleanup(): Promise<void> };
let expected: ReturnType<typeof comparable>;

beforeAll(async () => {
  workload = await scratchDir(WORKLOAD_FILES);
  expected = await faultFreeState(workload.dir, inProcess);
});

afterAll(async () => {
  await workload.cleanup();
});

describe.concurrent('apply against a slow or rate-limiting service', () => {
  it('applies in one run with latency', async () => {
    const result = await runScenario(faultScenario('latency', 2), workload.dir, expected, inProcess);
    expect(result.applies, result.transcript.join('\n')).toEqual([0]);
    expect(result.matchesFaultFree).toBe(true);
  });

  it('retries the 429s of a --rate above the service limit and still succeeds, in the built CLI', async () => {
    const result = await runScenario(faultScenario('rate-429', 1), workload.dir, expected, spawned);
    const context = result.transcript.join('\n');
    expect(result.rateLimited, context).toBeGreaterThan(0);
    expect(result.applies, context).toEqual([0]);
    expect(result.convergedAfter, context).toBe(1);
    expect(result.duplicates).toEqual([]);
    expect(result.matchesFaultFree, context).toBe(true);
  });
});

describe.concurrent('a service that restarts mid-apply (same port, same state file)', () => {
  it('bridges a short restart by retrying, then converges with nothing lost or doubled', async () => {
    const seeds = [1, 2, 3];
    const results = await Promise.all(
      seeds.map((seed) => runScenario(faultScenario('restart', seed, join(workload.dir, `state-${seed}.json`)), workload.dir, expected, inProcess)),
    );
    for (const result of results) {
      const context = `seed ${result.seed}\n${result.transcript.join('\n')}`;
      expect(result.restartedMidApply, context).toBe(true);
      expect([0, 1, 4], context).toContain(result.applies[0]);
      expect(result.convergedAfter, context).not.toBeNull();
      expect(result.duplicates, context).toEqual([]);
      expect(result.matchesFaultFree, context).toBe(true);
    }
  });

  it('fails part-way with an account when the service stays down past the retries, and re-running converges', async () => {
    const statePath = join(workload.dir, 'state-long.json');
    const options = { data: demoWorkspace(), port: 0, ...FAST, latencyMs: 10, statePath };
    const first = await startEmulator(options);
    const env = { VIEWCTL_BASE_URL: first.url, VIEWCTL_API_KEY: first.apiKey };
    const counted = { faultsInjected: 0, rateLimited: 0 };
    const { emulator, apply, midApply } = await applyAcrossRestart(
      first,
      options,
      // Down until the apply gave up: longer than all the retries of one request (at most RETRY_BUDGET_MS of backoff).
      { afterWrites: 3, downMs: 'until-apply-ends' },
      () => inProcess(['apply', workload.dir, ...WORKLOAD_FLAGS, '--rate', '1000'], env),
      counted,
    );
    try {
      const output = apply.stdout + apply.stderr;
      expect(midApply).toBe(true);
      expect(apply.code, output).toBe(4);
      // The account: what landed, what failed (and why), what was never tried.
      expect(output).toMatch(/Apply failed part-way/);
      expect(output).toMatch(/Landed:/);
      expect(output).toMatch(/Failed:[\s\S]*cannot reach the service/);
      expect(output).toMatch(/Not attempted:/);
      expect(output).not.toMatch(/internal error|\n\s+at /);
      // The state file kept what landed before the restart.
      expect(emulator.stats().writes).toBe(0);
      const again = await inProcess(['apply', workload.dir, ...WORKLOAD_FLAGS, '--rate', '1000'], env);
      expect(again.code, again.stdout + again.stderr).toBe(0);
      const plan = await inProcess(['plan', workload.dir, '--detailed-exitcode', '--rate', '1000'], env);
      expect(plan.code, plan.stdout).toBe(0);
      expect(duplicateNames(emulator.snapshot())).toEqual([]);
      expect(comparableState(emulator.snapshot())).toEqual(expected);
    } finally {
      await emulator.close();
    }
  });
});
