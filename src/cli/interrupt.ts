import { EXIT, ViewctlError } from '../errors.js';
import type { RunStops } from '../flows/run-edges.js';
import type { CliIo } from './io.js';

/**
 * Interrupts: Ctrl-C (SIGINT), and SIGTERM, which CI runners, `timeout` and container
 * stops send. Both mean the same: the first stops the run cleanly (reads are cancelled;
 * an apply starts no new write, lets the one in flight finish and prints its report),
 * a second ends the process at once, with the exit code the run has earned by then
 * (README, "Exit codes": 1 when nothing was written, 4 when something may have landed).
 */

/** STOP_SIGNALS are the signals a command stops on. */
const STOP_SIGNALS = ['SIGINT', 'SIGTERM'] as const;

type StopSignal = (typeof STOP_SIGNALS)[number];

/** SignalSource is where signals come from and how the process ends: `process`, or a test's fake. */
export interface SignalSource {
  on(signal: StopSignal, listener: () => void): void;
  off(signal: StopSignal, listener: () => void): void;
  exit(code: number): void;
}

const processSignals: SignalSource = {
  on: (signal, listener) => process.on(signal, listener),
  off: (signal, listener) => process.off(signal, listener),
  exit: (code) => process.exit(code),
};

/** InterruptOptions say what an interrupt means at the moment it comes. */
interface InterruptOptions {
  /** What the run does after the first signal, e.g. "stopping the reads; nothing was written". */
  notice(): string;
  /** The exit code of a second signal: EXIT.partial once a write may have landed, else EXIT.error. */
  exitCode(): number;
  /** What that exit code means, for the line printed before quitting. */
  exitNote(code: number): string;
  /** Called once, at the first signal (apply cancels its reads only before it writes). */
  onFirst?(): void;
}

/** Interrupt is one command's listener; `dispose` removes it. */
export interface Interrupt {
  /** Aborted at the first signal. */
  readonly signal: AbortSignal;
  /** The first signal received, if one came. */
  received(): StopSignal | undefined;
  dispose(): void;
}

/**
 * listenForInterrupt handles SIGINT and SIGTERM for one command, until disposed: the
 * first prints what the run does now and aborts `signal`; a second prints the exit
 * code and what it means, and ends the process at once.
 */
export function listenForInterrupt(
  io: Pick<CliIo, 'stderr'>,
  options: InterruptOptions,
  source: SignalSource = processSignals,
): Interrupt {
  const controller = new AbortController();
  let first: StopSignal | undefined;
  const listeners = STOP_SIGNALS.map((name) => {
    const listener = (): void => {
      if (first !== undefined) {
        const code = options.exitCode();
        io.stderr.write(`\n${name} again: quitting at once (exit ${code}): ${options.exitNote(code)}\n`);
        source.exit(code);
        return;
      }
      first = name;
      io.stderr.write(
        `\n${name}: ${options.notice()} (${name === 'SIGINT' ? 'Ctrl-C' : 'SIGTERM'} again to quit at once)\n`,
      );
      options.onFirst?.();
      controller.abort();
    };
    source.on(name, listener);
    return [name, listener] as const;
  });
  return {
    signal: controller.signal,
    received: () => first,
    dispose: () => {
      for (const [name, listener] of listeners) source.off(name, listener);
    },
  };
}

/**
 * interruptedError is how a run stopped by a signal before any write ends: exit 1,
 * saying that nothing was written (`what` names anything else left undone).
 */
export function interruptedError(signal: string, what = ''): ViewctlError {
  return new ViewctlError('run.interrupted', `stopped by ${signal}: nothing was written${what}`, {
    hint: 'run the command again when it may finish',
  });
}

/** ReadsInterrupt is the interrupt of a command that reads the service and then writes local files. */
export interface ReadsInterrupt extends Interrupt {
  /**
   * writingFiles says the reads are over: a signal now lets the files being written
   * finish. `what` is what the run does (`writing plan.json`); `ifQuit`, what a second
   * signal leaves and how to recover (default: some files may be written, others not).
   */
  writingFiles(what: string, ifQuit?: string): void;
}

/**
 * listenForReads is the interrupt of a command that only reads the service (`plan`,
 * `export`): the first signal cancels the reads and nothing is written (`unwritten`
 * names a file the run would have written); a second quits at once with exit 1. Once
 * the reads are over, the local files are written whole, in a moment: a signal then
 * lets them finish.
 */
export function listenForReads(io: Pick<CliIo, 'stderr'>, unwritten = '', source?: SignalSource): ReadsInterrupt {
  let files: string | undefined;
  let leaves = 'some files may be written and others not';
  const interrupt = listenForInterrupt(
    io,
    {
      notice: () =>
        files === undefined
          ? `stopping the reads; nothing was written${unwritten}`
          : `the reads are done; finishing ${files}`,
      exitCode: () => EXIT.error,
      exitNote: () => (files === undefined ? `nothing was written${unwritten}` : `stopped while ${files}; ${leaves}`),
    },
    source,
  );
  return {
    ...interrupt,
    writingFiles: (what, ifQuit) => {
      files = what;
      if (ifQuit !== undefined) leaves = ifQuit;
    },
  };
}

/**
 * stopOnInterrupt runs the reads of `body`. Once the interrupt came, whatever they end
 * with (a cancelled read, or a result that is no longer wanted) is `run.interrupted`:
 * nothing was written. A bug still goes to the top-level catch as itself.
 */
export async function stopOnInterrupt<T>(interrupt: Interrupt, unwritten: string, body: () => Promise<T>): Promise<T> {
  let result: T;
  try {
    result = await body();
  } catch (error) {
    const signal = interrupt.received();
    if (signal !== undefined && error instanceof ViewctlError) throw interruptedError(signal, unwritten);
    throw error;
  }
  const signal = interrupt.received();
  if (signal !== undefined) throw interruptedError(signal, unwritten);
  return result;
}

/**
 * readStops are a flow's stops for a command that reads and then writes local files:
 * its reads stop on the interrupt (`stopOnInterrupt`), and once they are over a signal
 * lets the files being written finish.
 */
export function readStops(interrupt: ReadsInterrupt, unwritten: string): RunStops {
  return {
    reads: (body) => stopOnInterrupt(interrupt, unwritten, body),
    writingFiles: (what, ifQuit) => interrupt.writingFiles(what, ifQuit),
  };
}
