import type { Command } from 'commander';
import { demoWorkspace } from '../emulator/demo/demo-workspace.js';
import { loadEmulatorData } from '../emulator/data-file.js';
import { startEmulator, type EmulatorOptions, type RunningEmulator } from '../emulator/server.js';
import { UsageError } from '../errors.js';
import type { CliIo } from './io.js';
import type { Outcome } from './program.js';

/** EmulatorCommandDeps lets tests stop the command without sending signals to the test runner. */
export interface EmulatorCommandDeps {
  /** Resolves when the emulator should stop (default: SIGINT or SIGTERM). */
  untilStopped?: (emulator: RunningEmulator) => Promise<void>;
}

/** RawEmulatorFlags are the flag values as commander hands them over. */
export interface RawEmulatorFlags {
  port?: string;
  apiKey?: string;
  data?: string;
  state?: string;
  rate?: string;
  burst?: string;
  quota?: string;
  seed?: string;
  latencyMs?: string;
  failRate?: string;
  dropAfterCommitRate?: string;
  webhookUrl?: string;
}

/**
 * registerEmulatorCommand adds `viewctl emulator`: it serves the API on 127.0.0.1,
 * prints exactly one line `listening on http://127.0.0.1:PORT` on stdout when ready,
 * and serves until SIGINT or SIGTERM, then closes cleanly.
 */
export function registerEmulatorCommand(program: Command, io: CliIo, outcome: Outcome, deps: EmulatorCommandDeps = {}): void {
  program
    .command('emulator')
    .description('run the local emulator of the service (HTTP, on 127.0.0.1)')
    .option('--port <n>', 'port to listen on; 0 picks a free one', '0')
    .option('--api-key <key>', 'the X-Service-Key the emulator accepts (default emulator-key)')
    .option('--data <file>', 'serve this workspace JSON instead of the demo workspace')
    .option('--state <file>', 'keep state in this file, so it survives restarts')
    .option('--rate <n>', 'requests per second per endpoint', '3')
    .option('--burst <n>', 'burst allowance per endpoint', '3')
    .option('--quota <n>', 'requests per rolling 24 hours', '3000')
    .option('--seed <n>', 'seed of injected faults', '1')
    .option('--latency-ms <n>', 'delay before each request is handled', '0')
    .option('--fail-rate <x>', 'share of requests answered 503 without acting (0 to 1)', '0')
    .option('--drop-after-commit-rate <x>', 'share of writes applied then left unanswered (0 to 1)', '0')
    .option('--webhook-url <url>', 'deliver every webhook to this URL')
    .action(async (raw: RawEmulatorFlags) => {
      const options = parseEmulatorOptions(raw);
      const emulator = await startEmulator(options);
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
  const options: Omit<EmulatorOptions, 'data'> = {
    port: integer('--port', raw.port ?? '0', 0, 65535),
    rate: positive('--rate', raw.rate ?? '3'),
    burst: integer('--burst', raw.burst ?? '3', 1, Number.MAX_SAFE_INTEGER),
    quota: integer('--quota', raw.quota ?? '3000', 1, Number.MAX_SAFE_INTEGER),
    seed: integer('--seed', raw.seed ?? '1', 0, 2 ** 32 - 1),
    latencyMs: integer('--latency-ms', raw.latencyMs ?? '0', 0, 600_000),
    failRate: share('--fail-rate', raw.failRate ?? '0'),
    dropAfterCommitRate: share('--drop-after-commit-rate', raw.dropAfterCommitRate ?? '0'),
  };
  if (raw.apiKey !== undefined) {
    // The key is never echoed, not even in this error.
    if (raw.apiKey.trim() === '') throw new UsageError('emulator.option-invalid', '--api-key must not be empty');
    options.apiKey = raw.apiKey;
  }
  if (raw.state !== undefined) options.statePath = raw.state;
  if (raw.webhookUrl !== undefined) options.webhookUrl = webhookUrl(raw.webhookUrl);
  // Flags are checked before the data file is read, so a typo fails fast.
  const data = raw.data === undefined ? demoWorkspace() : loadEmulatorData(raw.data);
  return { ...options, data };
}

function integer(flag: string, text: string, min: number, max: number): number {
  const value = /^[0-9]+$/.test(text.trim()) ? Number(text.trim()) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw new UsageError('emulator.option-invalid', `${flag} must be an integer from ${min} to ${max}, got "${text}"`);
  }
  return value;
}

function positive(flag: string, text: string): number {
  const value = Number(text.trim());
  if (text.trim() === '' || !Number.isFinite(value) || value <= 0) {
    throw new UsageError('emulator.option-invalid', `${flag} must be a number above 0, got "${text}"`);
  }
  return value;
}

function share(flag: string, text: string): number {
  const value = Number(text.trim());
  if (text.trim() === '' || !Number.isFinite(value) || value < 0 || value > 1) {
    throw new UsageError('emulator.option-invalid', `${flag} must be a number from 0 to 1, got "${text}"`);
  }
  return value;
}

function webhookUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError('emulator.option-invalid', `--webhook-url must be an http or https URL, got "${text}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
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
