/**
 * CliIo is everything a command touches outside the process: streams, environment and
 * working directory. Commands receive it, so tests run them in-process with buffers.
 */
export interface CliIo {
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
  cwd: string;
}

/** CommandResult is what a command action reports back: its exit code. */
export type CommandResult = { exitCode: number };
