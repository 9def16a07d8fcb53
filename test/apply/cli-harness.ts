import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { Command } from 'commander';
import { registerApplyCommand } from '../../src/cli/apply-command.js';
import type { CliIo } from '../../src/cli/io.js';
import { ViewctlError } from '../../src/errors.js';
import type { RunningEmulator } from '../../src/emulator/server.js';

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
 * runApply runs `viewctl apply ARGS` in-process against the emulator, with the same
 * handling of typed errors as the top-level catch (exit code from the error).
 */
export async function runApply(args: string[], emulator: RunningEmulator, options: { cwd: string; stdin?: CliIo['stdin'] }): Promise<CliRun> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out: string[] = [];
  const err: string[] = [];
  stdout.on('data', (chunk: Buffer) => out.push(chunk.toString()));
  stderr.on('data', (chunk: Buffer) => err.push(chunk.toString()));
  const io: CliIo = {
    stdout,
    stderr,
    stdin: options.stdin ?? new PassThrough(),
    env: { VIEWCTL_BASE_URL: emulator.url, VIEWCTL_API_KEY: emulator.apiKey, NO_COLOR: '1' },
    cwd: options.cwd,
  };
  const outcome = { exitCode: 0 };
  const program = new Command('viewctl').exitOverride().configureOutput({ writeOut: (text) => out.push(text), writeErr: (text) => err.push(text) });
  registerApplyCommand(program, io, outcome);
  const result: CliRun = { exitCode: 0, stdout: '', stderr: '' };
  try {
    await program.parseAsync(['apply', '--rate', '1000', ...args], { from: 'user' });
    result.exitCode = outcome.exitCode;
  } catch (error) {
    if (!(error instanceof ViewctlError)) throw error;
    err.push(`error[${error.code}]: ${error.message}\n`);
    if (error.hint !== undefined) err.push(`  hint: ${error.hint}\n`);
    result.exitCode = error.exitCode;
    result.errorCode = error.code;
  }
  await new Promise((resolve) => setImmediate(resolve));
  result.stdout = out.join('');
  result.stderr = err.join('');
  return result;
}

/** tempDir makes a scratch folder and returns it with its cleanup. */
export async function tempDir(): Promise<{ dir: string; write: (name: string, text: string) => Promise<string>; remove: () => Promise<void> }> {
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
