import { afterEach } from 'vitest';
import { startEmulator, type EmulatorOptions, type RunningEmulator } from '../../src/emulator/server.js';
import { fixture } from './fixture.js';

/** FAST raises the limits for tests whose subject is not the limit. */
export const FAST = { rate: 1000, burst: 1000, quota: 1_000_000 } as const;

/** Reply is one HTTP answer, body parsed when it is JSON. */
export interface Reply {
  status: number;
  headers: Headers;
  body: any;
}

const running: RunningEmulator[] = [];

/**
 * useEmulator returns a starter for emulators serving the fixture with fast limits;
 * every emulator started is closed after the test.
 */
export function useEmulator(): (options?: Partial<EmulatorOptions>) => Promise<RunningEmulator> {
  afterEach(async () => {
    await Promise.all(running.splice(0).map((emulator) => emulator.close()));
  });
  return async (options = {}) => {
    const emulator = await startEmulator({ data: fixture(), ...FAST, ...options });
    running.push(emulator);
    return emulator;
  };
}

/** call sends one request with the emulator's key (or `key`, or none when null). */
export async function call(
  emulator: RunningEmulator,
  method: string,
  path: string,
  options: { body?: unknown; rawBody?: string; key?: string | null } = {},
): Promise<Reply> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  const key = options.key === undefined ? emulator.apiKey : options.key;
  if (key !== null) headers['x-service-key'] = key;
  const body = options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  const response = await fetch(`${emulator.url}${path}`, { method, headers, ...(body === undefined ? {} : { body }) });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text === '' ? undefined : JSON.parse(text) };
}
