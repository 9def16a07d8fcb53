import { Option, type Command } from 'commander';
import { demoWorkspace } from '../emulator/demo/demo-workspace.js';
import { MAX_SCALED_MEMBERS, scaledWorkspace } from '../emulator/demo/scaled-workspace.js';
import { loadEmulatorData } from '../emulator/data-file.js';
import { startEmulator, type EmulatorOptions, type RunningEmulator } from '../emulator/server.js';
import { DAILY_QUOTA, DEFAULT_RATE } from '../domain/domains.js';
import { UsageError, ViewctlError } from '../errors.js';
import type { CliIo } from './io.js';
import { parseNumberFlag } from './parse-options.js';
import type { Outcome } from './outcome.js';

/** EmulatorCommandDeps lets tests stop the command without sending signals to the test runner. */
interface EmulatorCommandDeps {
  /** Resolves when the emulator should stop (default: SIGINT or SIGTERM). */
  untilStopped?: (emulator: RunningEmulator) => Promise<void>;
}

/**
 * RawEmulatorFlags are the flag values as commander hands them over: strings when
 * given, the numbers of EMULATOR_DEFAULTS when not.
 */
type RawEmulatorFlags = Partial<Record<keyof typeof EMULATOR_DEFAULTS, string | number>> & {
  apiKey?: string;
  data?: string;
  members?: string;
  state?: string;
  webhookUrl?: string;
};

/** EMULATOR_DEFAULTS are the numeric flag defaults, shown as numbers by `--help`. */
const EMULATOR_DEFAULTS = {
  port: 0,
  rate: DEFAULT_RATE,
  burst: 3,
  quota: DAILY_QUOTA,
  seed: 1,
  latencyMs: 0,
  failRate: 0,
  dropAfterCommitRate: 0,
} as const;

/**
 * registerEmulatorCommand adds `viewctl emulator`: it serves the API on 127.0.0.1,
 * prints exactly one line `listening on http://127.0.0.1:PORT` on stdout when ready,
 * and serves until SIGINT or SIGTERM, then closes cleanly.
 */
export function registerEmulatorCommand(
  program: Command,
  io: CliIo,
  outcome: Outcome,
  deps: EmulatorCommandDeps = {},
): void {
  const defaults = EMULATOR_DEFAULTS;
  program
    .command('emulator')
    .description('run the local emulator of the service (HTTP, on 127.0.0.1)')
    .addOption(numeric('--port <n>', 'port to listen on; 0 picks a free one', defaults.port))
    .option('--api-key <key>', 'the X-Service-Key the emulator accepts (default emulator-key)')
    .option('--data <file>', 'serve this workspace JSON instead of the demo workspace')
    .option(
      '--members <n>',
      `serve the demo workspace grown to N members (up to ${MAX_SCALED_MEMBERS}), for quota studies at company size`,
    )
    .option('--state <file>', 'keep state in this file, so it survives restarts')
    .addOption(numeric('--rate <n>', 'requests per second per endpoint', defaults.rate))
    .addOption(numeric('--burst <n>', 'burst allowance per endpoint', defaults.burst))
    .addOption(numeric('--quota <n>', 'requests per rolling 24 hours', defaults.quota))
    .addOption(numeric('--seed <n>', 'seed of injected faults', defaults.seed))
    .addOption(numeric('--latency-ms <n>', 'delay before each request is handled', defaults.latencyMs))
    .addOption(numeric('--fail-rate <x>', 'share of requests answered 503 without acting (0 to 1)', defaults.failRate))
    .addOption(
      numeric(
        '--drop-after-commit-rate <x>',
        'share of writes applied then left unanswered (0 to 1)',
        defaults.dropAfterCommitRate,
      ),
    )
    .option('--webhook-url <url>', 'deliver every webhook to this URL')
    .action(async (raw: RawEmulatorFlags) => {
      const options = parseEmulatorOptions(raw);
      const emulator = await startEmulator(options).catch((error: unknown) => {
        throw asFlagError(error, options);
      });
      io.stdout.write(`listening on ${emulator.url}\n`);
      try {
        await (deps.untilStopped ?? untilSignal)(emulator);
      } finally {
        await emulator.close();
      }
      outcome.exitCode = 0;
    });
}

/** parseEmulatorOptions turns the flags into EmulatorOptions, with a UsageError naming any bad value. */
export function parseEmulatorOptions(raw: RawEmulatorFlags): EmulatorOptions {
  const text = (value: string | number | undefined, fallback: number): string => String(value ?? fallback);
  const defaults = EMULATOR_DEFAULTS;
  const options: Omit<EmulatorOptions, 'data'> = {
    port: integer('--port', text(raw.port, defaults.port), 0, 65535),
    rate: positive('--rate', text(raw.rate, defaults.rate)),
    burst: integer('--burst', text(raw.burst, defaults.burst), 1, Number.MAX_SAFE_INTEGER),
    quota: integer('--quota', text(raw.quota, defaults.quota), 1, Number.MAX_SAFE_INTEGER),
    seed: integer('--seed', text(raw.seed, defaults.seed), 0, 2 ** 32 - 1),
    latencyMs: integer('--latency-ms', text(raw.latencyMs, defaults.latencyMs), 0, 600_000),
    failRate: share('--fail-rate', text(raw.failRate, defaults.failRate)),
    dropAfterCommitRate: share('--drop-after-commit-rate', text(raw.dropAfterCommitRate, defaults.dropAfterCommitRate)),
  };
  if (raw.apiKey !== undefined) {
    // The key is never echoed, not even in this error.
    if (raw.apiKey.trim() === '') throw new UsageError('emulator.option-invalid', '--api-key must not be empty');
    options.apiKey = raw.apiKey;
  }
  if (raw.state !== undefined) options.statePath = raw.state;
  if (raw.webhookUrl !== undefined) options.webhookUrl = webhookUrl(raw.webhookUrl);
  // Flags are checked before the data file is read, so a typo fails fast.
  if (raw.data !== undefined && raw.members !== undefined) {
    throw new UsageError(
      'emulator.option-invalid',
      '--members grows the demo workspace and cannot be combined with --data',
      'drop one of the two',
    );
  }
  if (raw.members !== undefined)
    return { ...options, data: scaledWorkspace(integer('--members', raw.members, 1, MAX_SCALED_MEMBERS)) };
  const data = raw.data === undefined ? demoWorkspace() : loadEmulatorData(raw.data);
  return { ...options, data };
}

// A numeric default handed to commander as a number, so `--help` shows `(default: 3)`, not `"3"`.
function numeric(flags: string, description: string, value: number): Option {
  return new Option(flags, description).default(value);
}

// Start-up failures caused by a flag's value become usage errors naming the flag.
function asFlagError(error: unknown, options: EmulatorOptions): unknown {
  if (!(error instanceof ViewctlError)) return error;
  if (error.code === 'emulator.port-in-use') {
    return new UsageError(
      error.code,
      `--port ${options.port ?? 0}: port ${options.port ?? 0} on 127.0.0.1 is already in use`,
      'stop the program listening there, pass another --port, or pass --port 0 to pick a free one',
    );
  }
  if (error.code === 'emulator.port-forbidden') {
    return new UsageError(
      error.code,
      `--port ${options.port ?? 0}: ${error.message}`,
      'pass a port above 1023, or --port 0 to pick a free one',
    );
  }
  if (error.code === 'emulator.state-unwritable') {
    return new UsageError(
      error.code,
      `--state ${options.statePath ?? ''}: ${error.message}`,
      'name a file in an existing folder you may write to; the folder is not created for you',
    );
  }
  return error;
}

// Every numeric flag goes through the one parser of numeric flags, with this command's code.
function integer(flag: string, text: string, min: number, max: number): number {
  return parseNumberFlag(text, flag, { min, max, integer: true, code: 'emulator.option-invalid' });
}

function positive(flag: string, text: string): number {
  return parseNumberFlag(text, flag, {
    min: 0,
    max: Number.MAX_SAFE_INTEGER,
    aboveMin: true,
    code: 'emulator.option-invalid',
  });
}

function share(flag: string, text: string): number {
  return parseNumberFlag(text, flag, { min: 0, max: 1, code: 'emulator.option-invalid' });
}

function webhookUrl(text: string): string {
  const protocol = URL.canParse(text) ? new URL(text).protocol : undefined;
  if (protocol !== 'http:' && protocol !== 'https:') {
    throw new UsageError('emulator.option-invalid', `--webhook-url must be an http or https URL, got "${text}"`);
  }
  return text;
}

function untilSignal(): Promise<void> {
  return new Promise((resolve) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
