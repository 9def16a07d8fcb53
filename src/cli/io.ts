import type { Clock } from '../service/clock.js';

/**
 * CliIo is everything a command touches outside the process: streams, environment and
 * working directory. Commands receive it, so tests run them in-process with buffers.
 */
export interface CliIo {
  /** `columns` is a terminal's width (Node sets it on a TTY): text output is wrapped to it. */
  stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
  cwd: string;
  /**
   * Waits the CLI takes between attempts, for tests that run commands in-process: the
   * client's backoff bounds, the re-listings after a create lost its answer, and the
   * clock the client waits on (a test's virtual one, so that retries across a restart
   * wait for the restart, not for a timer). Unset (the built CLI), the defaults of
   * createServiceClient and executeOperations apply.
   */
  /** The wall clock of the run (the sweep memory's times): a test's simulated days; unset, the system clock. */
  clock?: Pick<Clock, 'now'>;
  waits?: { backoff?: { baseMs: number; capMs: number }; relistDelaysMs?: readonly number[]; clock?: Clock };
}
