import { spawn } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { run as sourceRun } from '../../src/cli/run.js';
import { demoWorkspace } from '../../src/emulator/demo/demo-workspace.js';
import type { EmulatorData } from '../../src/emulator/model.js';
import { startEmulator } from '../../src/emulator/server.js';
import type { EmulatorOptions, RunningEmulator } from '../../src/emulator/server.js';
import { runThrough, scratchDir } from '../support/cli.js';

/** CLI is the built entry point; `npm test` builds before running the tests. */
export const CLI = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));

/** EXAMPLES is the examples folder, planned by the demo. */
export const EXAMPLES = fileURLToPath(new URL('../../examples', import.meta.url));

/** CliRun is what one CLI invocation printed and returned. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * runCli runs the built CLI in a child process, with a clean environment (only PATH
 * and what the test passes), so nothing of the developer's shell leaks in. `signal`
 * kills the child when aborted (a test that may hang ends its run with it).
 */
export function runCli(
  args: string[],
  options: { env?: Record<string, string>; cwd?: string; input?: string; signal?: AbortSignal } = {},
): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: options.cwd ?? process.cwd(),
      env: { PATH: process.env.PATH ?? '', NO_COLOR: '1', ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}

/** BUILT_RUN is run() of the build, what the bin entry (dist/cli.js) calls. */
const BUILT_RUN = pathToFileURL(fileURLToPath(new URL('../../dist/cli/run.js', import.meta.url))).href;

/**
 * runBuilt runs the built CLI's run() in this process (the code `npm test` built, with
 * the validators compiled at build), with streams captured and only the given
 * environment. It is runCli without the process: the bin entry only hands run() the
 * process's streams, environment and working directory and sets the exit code, which
 * the tests that use runCli still cover. Waits are test/support/cli.ts's TEST_WAITS.
 */
export async function runBuilt(
  args: string[],
  options: { env?: Record<string, string>; cwd?: string; input?: string } = {},
): Promise<CliRun> {
  const { run } = (await import(BUILT_RUN)) as { run: typeof sourceRun };
  const stdin = new PassThrough();
  stdin.end(options.input ?? '');
  return runThrough(run, args, {
    stdin,
    ...(options.env === undefined ? {} : { env: options.env }),
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
  });
}

/** FAST_LIMITS raise the emulator's limits for tests whose subject is not the limit. */
export const FAST_LIMITS = { rate: 1000, burst: 1000, quota: 1_000_000 } as const;

/** withEmulator serves `data` (the demo by default) on a free loopback port for the duration of `body`. */
export async function withEmulator<T>(
  body: (emulator: RunningEmulator, env: Record<string, string>) => Promise<T>,
  options: Partial<EmulatorOptions> = {},
): Promise<T> {
  const emulator = await startEmulator({ data: demoWorkspace(), port: 0, ...FAST_LIMITS, ...options });
  try {
    return await body(emulator, { VIEWCTL_BASE_URL: emulator.url, VIEWCTL_API_KEY: emulator.apiKey });
  } finally {
    await emulator.close();
  }
}

/** cloneData deep-copies emulator data so a test can change it without touching the demo. */
export function cloneData(data: EmulatorData = demoWorkspace()): EmulatorData {
  return structuredClone(data);
}

/**
 * tempDirs hands out manifest folders (`dir(files)`) and removes them all in
 * `cleanupAll`, meant for `afterEach`.
 */
export function tempDirs(): { dir(files: Record<string, string>): Promise<string>; cleanupAll(): Promise<void> } {
  const cleanups: Array<() => Promise<void>> = [];
  return {
    async dir(files) {
      const made = await scratchDir(files);
      cleanups.push(made.cleanup);
      return made.dir;
    },
    async cleanupAll() {
      while (cleanups.length > 0) await cleanups.pop()?.();
    },
  };
}
