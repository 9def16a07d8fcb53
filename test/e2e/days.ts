import { execFileSync } from 'node:child_process';
import { cp } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { run as sourceRun } from '../../src/cli/run.js';
import { TEST_WAITS } from '../support/cli.js';
import { EXAMPLES, type CliRun } from './harness.js';

/**
 * Simulated days for the tests of the sweep memory: the built CLI run in this process
 * with its clock set to a day (the clock the memory dates its reads by and the
 * `--budget` night follows), and a git repository of manifests whose commits the
 * memory records as applied.
 */

const BUILT_RUN = pathToFileURL(fileURLToPath(new URL('../../dist/cli/run.js', import.meta.url))).href;
export const DAY_MS = 24 * 60 * 60 * 1000;

/** SimulatedDays runs the CLI on day N (1 = `first`) and names each day's time. */
export interface SimulatedDays {
  run(day: number, args: string[], env: Record<string, string>, cwd: string): Promise<CliRun>;
  /** The ISO time of day N, as the memory records it. */
  on(day: number): string;
}

/** simulatedDays starts day 1 at `first` (an ISO time); the CLI runs with `--rate 1000` and no colour. */
export function simulatedDays(first: string): SimulatedDays {
  const start = Date.parse(first);
  const at = (day: number): number => start + (day - 1) * DAY_MS;
  return {
    async run(day, args, env, cwd) {
      const { run } = (await import(BUILT_RUN)) as { run: typeof sourceRun };
      const stdout = new PassThrough();
      const stderr = new PassThrough();
      let out = '';
      let err = '';
      stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
      stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
      const now = at(day);
      const code = await run([...args, '--rate', '1000'], {
        stdout,
        stderr,
        stdin: new PassThrough().end(),
        env: { NO_COLOR: '1', ...env },
        cwd,
        waits: TEST_WAITS,
        clock: { now: () => now },
      });
      // The streams deliver their last chunks on the next turn.
      await new Promise((resolve) => setImmediate(resolve));
      return { code, stdout: out, stderr: err };
    },
    on: (day) => new Date(at(day)).toISOString(),
  };
}

/** git runs git in `cwd` with no user or system configuration, and answers its trimmed stdout. */
export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-C', cwd, ...args], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', GIT_CONFIG_NOSYSTEM: '1', HOME: cwd },
  }).trim();
}

/** exampleRepository makes `root` (an empty folder) a git repository with the examples committed under `manifests/`. */
export async function exampleRepository(root: string): Promise<string> {
  await cp(EXAMPLES, join(root, 'manifests'), { recursive: true });
  return commitAll(root);
}

/** commitAll makes `root` a git repository on `main` with everything in it committed as one commit; answers `root`. */
export function commitAll(root: string): string {
  git(root, 'init', '--quiet', '--initial-branch=main');
  git(root, 'config', 'user.email', 'ci@example.com');
  git(root, 'config', 'user.name', 'CI');
  git(root, 'add', '.');
  git(root, 'commit', '--quiet', '-m', 'manifests');
  return root;
}
