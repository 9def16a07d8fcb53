import type { Command } from 'commander';
import { Option } from 'commander';
import { DEFAULT_RATE } from '../domain/domains.js';
import { demoWorkspace } from '../emulator/demo/demo-workspace.js';
import { startEmulator } from '../emulator/server.js';
import { UsageError } from '../errors.js';
import { createServiceClient } from '../service/client.js';
import type { ServiceClient } from '../service/types.js';
import { verboseLogger } from '../service/verbose-log.js';
import type { CliIo } from './io.js';
import { parseRate } from './parse-options.js';

/** ConnectionOptions are the flags every command that talks to the service takes. */
export interface ConnectionOptions {
  baseUrl?: string;
  emulator?: boolean;
  rate: number;
  verbose?: boolean;
}

/** Connection is an open client, and how to release what opening it started. */
export interface Connection {
  client: ServiceClient;
  /**
   * close cancels every request still queued or in flight (after a failed read, its
   * siblings must not go on spending the daily quota) and stops the in-process
   * emulator, if one was started.
   */
  close(): Promise<void>;
}

/** addConnectionOptions adds `--base-url`, `--emulator`, `--rate` and `--verbose` to a command. */
export function addConnectionOptions(command: Command): Command {
  return command
    .addOption(new Option('--base-url <url>', 'service root, before /v1 (env VIEWCTL_BASE_URL)'))
    .addOption(
      new Option('--emulator', 'start the built-in emulator in-process, seeded with the demo workspace, and use it'),
    )
    .addOption(
      new Option('--rate <n>', 'requests per second per endpoint')
        .default(DEFAULT_RATE)
        .argParser((value) => parseRate(value)),
    )
    .addOption(new Option('--verbose', 'one line per HTTP request on stderr (key never shown)'));
}

/**
 * openConnection resolves where to send requests: the in-process emulator, or
 * `--base-url` / `VIEWCTL_BASE_URL` with the key from `VIEWCTL_API_KEY` (never a flag).
 * `limits.dailyReserve` (`--reserve`) is the part of what is left today the client
 * never spends: a request that would dip into it is refused (`service.quota-exhausted`).
 * Aborting `limits.stop` (an interrupt) cancels every request queued or in flight, as `close` does.
 */
export async function openConnection(
  options: ConnectionOptions,
  io: CliIo,
  limits: { dailyReserve?: number; stop?: AbortSignal } = {},
): Promise<Connection> {
  const { stop } = limits;
  const controller = new AbortController();
  if (stop?.aborted === true) controller.abort();
  stop?.addEventListener('abort', () => controller.abort(), { once: true });
  const common = {
    rate: options.rate,
    ...(limits.dailyReserve === undefined ? {} : { dailyReserve: limits.dailyReserve }),
    signal: controller.signal,
    onRequest: options.verbose === true ? verboseLogger(io.stderr) : undefined,
    backoff: io.waits?.backoff,
    clock: io.waits?.clock,
  };
  if (options.emulator === true && options.baseUrl !== undefined) {
    throw new UsageError(
      'usage.conflicting-options',
      '--emulator and --base-url both say where to send requests',
      'pass --emulator to use the built-in emulator, or --base-url URL for a service, not both',
    );
  }
  if (options.emulator === true) {
    const emulator = await startEmulator({ data: demoWorkspace(), port: 0 });
    const client = createServiceClient({ ...common, baseUrl: emulator.url, apiKey: emulator.apiKey });
    return {
      client,
      close: async () => {
        controller.abort();
        await emulator.close();
      },
    };
  }
  const baseUrl = options.baseUrl ?? nonEmpty(io.env.VIEWCTL_BASE_URL);
  if (baseUrl === undefined) {
    throw new UsageError(
      'connection.no-service',
      'no service to talk to: neither --base-url nor VIEWCTL_BASE_URL is set, and --emulator was not given',
      'set VIEWCTL_BASE_URL (or pass --base-url URL) to the service root before /v1, or pass --emulator to use the built-in emulator',
    );
  }
  const apiKey = nonEmpty(io.env.VIEWCTL_API_KEY);
  if (apiKey === undefined) {
    // An empty value (`VIEWCTL_API_KEY=` in a pipeline whose secret is missing) is no key either.
    throw new UsageError(
      'connection.no-key',
      io.env.VIEWCTL_API_KEY === undefined ? 'VIEWCTL_API_KEY is not set' : 'VIEWCTL_API_KEY is set but empty',
      'export VIEWCTL_API_KEY with the workspace key (created by an admin in the settings section for API and webhooks); it is never accepted as a flag',
    );
  }
  const client = createServiceClient({ ...common, baseUrl, apiKey });
  return { client, close: async () => controller.abort() };
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}
