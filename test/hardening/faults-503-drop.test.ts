import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scratchDir } from '../support/cli.js';
import type { comparable } from '../support/cli.js';
import { faultFreeState, faultScenario, inProcess, runScenario, spawned, type FaultKind, type Runner, type ScenarioResult } from './fault-runs.js';
import { WORKLOAD_FILES } from './workload.js';

/**
 * The workload through the real CLI against an emulator answering 503 without acting,
 * or acting and then dropping the connection (the response lost after commit): every
 * seed converges within three applies, with no duplicate and the same final
 * workspace as a fault-free run.
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

async function converges(kind: FaultKind, seed: number, runner: Runner): Promise<ScenarioResult> {
  const result = await runScenario(faultScenario(kind, seed), workload.dir, expected, runner);
  const context = `${kind} seed ${seed}\n${result.transcript.join('\n')}`;
  expect(result.convergedAfter, context).not.toBeNull();
  expect(result.duplicates, context).toEqual([]);
  expect(result.matchesFaultFree, context).toBe(true);
  // An apply under faults ends in success or a partial failure with its account, never a crash.
  for (const code of result.applies) expect([0, 4], context).toContain(code);
  expect(result.transcript.join('\n'), context).not.toMatch(/internal error|\n\s+at /);
  return result;
}

describe.concurrent('apply under 503s and lost responses, through the CLI', () => {
  // Seeds run side by side, each against its own emulator: the runs mostly wait out backoffs.
  it('converges under 503s for several seeds', async () => {
    const results = await Promise.all([1, 2, 3, 4].map((seed) => converges('fail-503', seed, inProcess)));
    expect(results.reduce((sum, result) => sum + result.faultsInjected, 0)).toBeGreaterThan(16);
  });

  it('converges when responses are lost after commit, for several seeds', async () => {
    const results = await Promise.all([3, 5, 6, 7].map((seed) => converges('drop-after-commit', seed, inProcess)));
    expect(results.reduce((sum, result) => sum + result.faultsInjected, 0)).toBeGreaterThan(16);
  });

  it('converges under mixed faults in the built CLI, in a child process', async () => {
    const result = await converges('mixed', 1, spawned);
    expect(result.faultsInjected).toBeGreaterThan(0);
  });
});
