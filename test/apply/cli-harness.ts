import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import type { CliIo } from '../../src/cli/io.js';
import type { RunningEmulator } from '../../src/emulator/server.js';
import { runInProcess } from '../support/cli.js';

/** CliRun is what one in-process `viewctl apply` printed and returned. */
export interface CliRun {
  exitCode: number;
  /** The stable code of the error that ended the run, if one did. */
  errorCode?: string;
  stdout: string;
  stderr: string;
}

/** Terminal input: a stream that says it is a TTY, fed `answer`. */
export function terminalInput(answer: string): PassThrough & { isTTY: boolean } {
  const stream = Object.assign(new PassThrough(), { isTTY: true });
  stream.end(answer);
  return stream;
}

/**
 * runApply runs `viewctl apply ARGS` in-process against the emulator, through the real
 * top-level catch; `errorCode` is the code of the error that ended the run, if one did.
 */
export async function runApply(
  args: string[],
  emulator: RunningEmulator,
  options: { cwd: string; stdin?: CliIo['stdin'] },
): Promise<CliRun> {
  const run = await runInProcess(['apply', '--rate', '1000', ...args], {
    env: { VIEWCTL_BASE_URL: emulator.url, VIEWCTL_API_KEY: emulator.apiKey },
    cwd: options.cwd,
    ...(options.stdin === undefined ? {} : { stdin: options.stdin }),
  });
  const errorCode = /^error\[([^\]]+)\]/m.exec(run.stderr)?.[1];
  return {
    exitCode: run.code,
    ...(errorCode === undefined ? {} : { errorCode }),
    stdout: run.stdout,
    stderr: run.stderr,
  };
}

/** tempDir makes a scratch folder and returns it with its cleanup. */
export async function tempDir(): Promise<{
  dir: string;
  write: (name: string, text: string) => Promise<string>;
  remove: () => Promise<void>;
}> {
  const dir = await mkdtemp(join(tmpdir(), 'viewctl-apply-'));
  return {
    dir,
    write: async (name, text) => {
      const path = join(dir, name);
      await writeFile(path, text, 'utf8');
      return path;
    },
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}
