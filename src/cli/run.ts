import { CommanderError } from 'commander';
import { EXIT, InternalError, ServiceError, ViewctlError } from '../errors.js';
import { safeLines } from '../text/safe-text.js';
import { redactingStream } from '../secrets/redact.js';
import { commandSafeStream } from '../text/command-guard.js';
import type { CliIo } from './io.js';
import { buildProgram, COMMAND_NAMES } from './program.js';
import { commanderUsageError } from './commander-errors.js';
import type { Outcome } from './outcome.js';

/**
 * run parses argv, runs the command and returns the exit code. It is the one
 * top-level catch: a user error prints its message and hint,
 * never a stack; anything else is reported as a bug.
 */
export async function run(argv: string[], rawIo: CliIo): Promise<number> {
  // Every byte a command prints passes through redaction of the key, and no line of it
  // can start a pipeline's workflow command.
  const secret = rawIo.env.VIEWCTL_API_KEY;
  const io: CliIo = {
    ...rawIo,
    stdout: commandSafeStream(redactingStream(rawIo.stdout, secret)),
    stderr: commandSafeStream(redactingStream(rawIo.stderr, secret)),
  };
  const outcome: Outcome = { exitCode: EXIT.ok };
  try {
    const program = await buildProgram(io, outcome, argv);
    await program.parseAsync(argv, { from: 'user' });
    return outcome.exitCode;
  } catch (error) {
    // Commander's own errors are reported as ours are: a code and a hint.
    const usage = error instanceof CommanderError ? commanderUsageError(error, commandOf(argv)) : undefined;
    return reportError(usage ?? error, io, outcome);
  }
}

/** commandOf is the command `argv` names (as `help NAME` too), if it names one. */
function commandOf(argv: readonly string[]): string | undefined {
  const [first, second] = argv;
  const named = first === 'help' ? second : first;
  return named !== undefined && COMMAND_NAMES.includes(named) ? named : undefined;
}

/**
 * reportError prints what the run's error means for the user and returns the exit code.
 * `io.stderr` must be the redacting stream `run` makes: a bug's message may quote anything.
 */
export function reportError(error: unknown, io: Pick<CliIo, 'stderr'>, outcome: Outcome): number {
  const write = (text: string): boolean => io.stderr.write(text);
  if (error instanceof CommanderError) {
    // Help or the version, which commander printed (its errors come here as UsageErrors).
    return error.exitCode === 0 ? EXIT.ok : EXIT.error;
  }
  if (error instanceof ViewctlError) {
    // Messages carry names and text from manifests and the service: escaped for the terminal.
    write(`error[${error.code}]: ${safeLines(error.message)}${nothingWritten(error, outcome)}\n`);
    if (error.hint !== undefined) write(`  hint: ${safeLines(error.hint)}\n`);
    return error.exitCode;
  }
  const internal = error instanceof InternalError ? error : undefined;
  const detail = errorDetail(error);
  write(`internal error: ${safeLines(internal?.message ?? 'viewctl hit an unexpected condition')}\n`);
  write('This is a bug in viewctl, not in your manifests. Please report it with the lines below.\n');
  write(`${safeLines(detail)}\n`);
  if (outcome.writing !== true) return EXIT.error;
  write(
    'apply had begun writing: some changes may have landed. Run viewctl plan to see what the workspace holds now, then apply that plan.\n',
  );
  return EXIT.partial;
}

/** errorDetail is a bug's stack, and the stack of what caused it, and so on: what a bug report needs. */
function errorDetail(error: unknown): string {
  const lines: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current !== undefined && depth < 5; depth += 1) {
    const text = current instanceof Error ? (current.stack ?? current.message) : String(current);
    lines.push(depth === 0 ? text : `caused by: ${text}`);
    current = current instanceof Error ? current.cause : undefined;
  }
  return lines.join('\n');
}

/** CONNECTION_FAILURES are the errors of a service that did not answer: whoever reads one wonders what was written. */
const CONNECTION_FAILURES = new Set(['service.unreachable', 'service.timeout', 'service.unavailable']);

/**
 * nothingWritten says so after a connection failure that came before any write: the
 * case of every plan and export, and of an apply that had not begun writing (once it
 * has, apply's report lists what landed).
 */
function nothingWritten(error: ViewctlError, outcome: Outcome): string {
  return error instanceof ServiceError && CONNECTION_FAILURES.has(error.code) && outcome.writing !== true
    ? '; nothing was written'
    : '';
}
