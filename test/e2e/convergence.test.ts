import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadEmulatorData } from '../../src/emulator/data-file.js';
import { comparable, duplicateNames } from '../support/cli.js';
import { wrongExit } from '../hardening/fault-runs.js';
import { WORKLOAD_FILES, WORKLOAD_FLAGS } from '../hardening/workload.js';
import { CLI, FAST_LIMITS, runBuilt, tempDirs, withEmulator, type CliRun } from './harness.js';

/**
 * Convergence end to end, once: the built CLI applies the hardening workload (every
 * domain, every kind of write) against `viewctl emulator` in a child process that
 * answers 503s and drops the answer to every write it carries out, keeping its state
 * in a file, so the run stops part-way (exit 4, truthfully). The emulator process is
 * then stopped and started again from that file, without faults, and the same
 * command is run again: that run applies the rest (exit 0) and leaves nothing to plan,
 * nothing is doubled, and the workspace is exactly the one a fault-free run leaves
 * (people's private views and tabs included). The property over random workspaces and fault schedules is
 * test/hardening/convergence.test.ts.
 */

const { dir, cleanupAll } = tempDirs();
afterEach(cleanupAll);

/** ChildEmulator is `viewctl emulator` running in its own process. */
interface ChildEmulator {
  url: string;
  stop(): Promise<void>;
}

const LIMITS = [
  '--rate',
  String(FAST_LIMITS.rate),
  '--burst',
  String(FAST_LIMITS.burst),
  '--quota',
  String(FAST_LIMITS.quota),
];

/** startChild runs the built `viewctl emulator FLAGS` and resolves once it says where it listens. */
function startChild(flags: string[]): Promise<ChildEmulator> {
  const child = spawn(process.execPath, [CLI, 'emulator', ...LIMITS, ...flags], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { PATH: process.env.PATH ?? '' },
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const url = /listening on (\S+)\n/.exec(stdout)?.[1];
      if (url !== undefined) {
        resolve({
          url,
          stop: async () => {
            child.kill('SIGTERM');
            expect(await exited, stderr).toBe(0);
          },
        });
      }
    });
    void exited.then((code) => reject(new Error(`viewctl emulator exited (${code}) before listening:\n${stderr}`)));
  });
}

describe('convergence end to end', () => {
  it('after an apply under 503s and lost answers, and a restart of the emulator process, running again leaves nothing to plan and the fault-free workspace', async () => {
    const manifests = await dir(WORKLOAD_FILES);
    const state = join(await dir({}), 'state.json');
    const apply = ['apply', manifests, ...WORKLOAD_FLAGS, '--rate', '1000'];
    const plan = ['plan', manifests, '--detailed-exitcode', '--rate', '1000'];
    const expected = await withEmulator(async (emulator, env) => {
      expect((await runBuilt(apply, { env })).code).toBe(0);
      return comparable(emulator.snapshot());
    });
    const honest = (run: CliRun): void => {
      const output = run.stdout + run.stderr;
      expect([0, 4], output).toContain(run.code);
      expect(wrongExit(run), output).toBeUndefined();
      expect(output).not.toMatch(/internal error|\n\s+at /);
    };

    // 503s on a fifth of the requests, and every write's answer lost once it was carried out.
    const faulty = await startChild([
      '--port',
      '0',
      '--state',
      state,
      '--seed',
      '7',
      '--fail-rate',
      '0.2',
      '--drop-after-commit-rate',
      '1',
    ]);
    const env = { VIEWCTL_BASE_URL: faulty.url, VIEWCTL_API_KEY: 'emulator-key' };
    const first = await runBuilt([...apply, '--verbose'], { env });
    await faulty.stop();
    honest(first);
    // Every write's answer lost: an update retried until it gave up stops the run part-way.
    expect(first.code, first.stdout + first.stderr).toBe(4);
    // Faults met: 503s answered, and writes whose answer never came.
    expect(first.stderr).toMatch(/ 503 \d+ms/);
    expect(first.stderr).toMatch(/ service\.unreachable \d+ms/);

    // The same port and state file, in a new process, without faults.
    const clean = await startChild(['--port', new URL(faulty.url).port, '--state', state]);
    try {
      expect((await runBuilt(plan, { env })).code).toBe(2);
      const again = await runBuilt(apply, { env });
      honest(again);
      expect(again.code, again.stdout + again.stderr).toBe(0);
      const planned = await runBuilt(plan, { env });
      expect(planned.code, planned.stdout + planned.stderr).toBe(0);
      expect(planned.stdout).toContain('No changes.');
    } finally {
      await clean.stop();
    }
    const final = loadEmulatorData(state);
    expect(duplicateNames(final)).toEqual([]);
    expect(comparable(final)).toEqual(expected);
  });
});
