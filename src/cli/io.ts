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
  /**
   * Waits the CLI takes between attempts, for tests that run commands in-process: the
   * client's backoff bounds and the re-listings after a create lost its answer. Unset
   * (the built CLI), the defaults of createServiceClient and executeOperations apply.
   */
  waits?: { backoff?: { baseMs: number; capMs: number }; relistDelaysMs?: readonly number[] };
}
