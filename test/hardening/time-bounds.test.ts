import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planWorkspace } from '../../src/flows/plan-workspace.js';
import { ServiceError, ViewctlError } from '../../src/errors.js';
import { createServiceClient, type ClientOptions } from '../../src/service/client.js';
import type { Clock } from '../../src/service/clock.js';
import type { FetchLike } from '../../src/service/http-attempt.js';
import { DEFAULT_RETRY_POLICY } from '../../src/service/retry-policy.js';
import type { Desired } from '../../src/state/types.js';
import { FakeClock, runOnFakeClock } from '../service/helpers.js';
import { runInProcess, scratchDir } from '../support/cli.js';
import { RETRY_BUDGET_MS } from './fault-runs.js';
import { WORKLOAD_FILES } from './workload.js';

/**
 * How long a plan takes to give up on a service that accepts connections and never
 * answers, or that is not there. With the defaults (15 s per attempt, 5 attempts,
 * backoff 500 ms doubling) the bound is 5 × 15 s + (0.5 + 1 + 2 + 4) s = 82.5 s for a
 * silent service and 7.5 s for an unreachable one: under the two minutes a CI job can
 * afford. The bounds are measured on a virtual clock, and no test waits on a real timer.
 */

const DEFAULT_TIMEOUT_MS = 15_000;
const desired: Desired = {
  workspace: { prune: false, ignore: [] },
  views: [{ domain: 'deals', name: 'X', managed: {}, source: { file: 'x.yaml', line: 1, column: 1 } }],
  pins: [],
};

/**
 * sequentialClock is a virtual clock for one request at a time, over a fetch that
 * settles without real I/O: each sleep ends on the next turn of the event loop (after
 * the fetch settled, when it does) and moves the time on by its length, so the time
 * read at the end is the sum of every wait the client took. A sleep cancelled first
 * adds nothing.
 */
function sequentialClock(): Clock & { elapsed(): number } {
  let now = 0;
  return {
    now: () => now,
    elapsed: () => now,
    sleep: (ms, signal) =>
      new Promise<void>((resolve, reject) => {
        if (signal?.aborted === true) {
          reject(signal.reason);
          return;
        }
        const timer = setImmediate(() => {
          now += ms;
          resolve();
        });
        signal?.addEventListener(
          'abort',
          () => {
            clearImmediate(timer);
            reject(signal.reason);
          },
          { once: true },
        );
      }),
  };
}

/** neverAnswers is a fetch that waits until it is aborted, as against a server that never answers. */
const neverAnswers: FetchLike = (_url, init) =>
  new Promise<Response>((_resolve, reject) => {
    init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')), { once: true });
  });

/** refused is a fetch whose connection is refused, as fetch reports it (the code in the cause). */
const refused: FetchLike = () =>
  Promise.reject(
    new TypeError('fetch failed', {
      cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
    }),
  );

let silent: Server;
let silentUrl: string;
const sockets = new Set<Socket>();
let closedUrl: string;

beforeAll(async () => {
  // Accepts every connection, reads every byte, answers nothing.
  silent = createServer((socket) => {
    sockets.add(socket);
    socket.on('data', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  closedUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
});

afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise<void>((resolve) => silent.close(() => resolve()));
});

async function planFailure(
  options: Partial<ClientOptions> & { baseUrl: string },
  drive: (plan: Promise<unknown>) => Promise<unknown> = (plan) => plan,
): Promise<ServiceError> {
  const client = createServiceClient({ apiKey: 'key-time-bounds', ...options });
  const error = await drive(planWorkspace(desired, client)).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ServiceError);
  return error as ServiceError;
}

describe.concurrent('time bounds of a plan against a service that does not answer', () => {
  it('gives up on a silent service after every attempt timed out, within attempts × timeout + backoff (default 82.5 s)', async () => {
    const clock = sequentialClock();
    // Worst-case jitter: every backoff takes its whole ceiling. The fetch, like the
    // silent server, never answers: only the per-attempt timeout ends an attempt.
    const error = await planFailure({ baseUrl: silentUrl, clock, random: () => 0.999_999, fetch: neverAnswers });
    expect(error.code).toBe('service.timeout');
    expect(error.message).toBe(`no answer from ${silentUrl} to GET /v1/workspaces/mine within 15 s (5 attempts)`);
    const bound = DEFAULT_RETRY_POLICY.maxAttempts * DEFAULT_TIMEOUT_MS + RETRY_BUDGET_MS;
    expect(bound).toBe(82_500);
    expect(clock.elapsed()).toBeGreaterThan(bound - 10);
    expect(clock.elapsed()).toBeLessThanOrEqual(bound);
  });

  it('fails with a clear error and hint against a real silent server, with no stack in the message', async () => {
    // Real sockets to a server that never answers; the 100 ms timeouts run on a fake
    // clock the test moves, so the real fetch is aborted and nothing waits on a timer.
    const clock = new FakeClock();
    const error = await planFailure(
      { baseUrl: silentUrl, timeoutMs: 100, backoff: { baseMs: 5, capMs: 10 }, clock },
      (plan) => runOnFakeClock(clock, plan),
    );
    expect(error).toBeInstanceOf(ViewctlError);
    expect(error.code).toBe('service.timeout');
    expect(error.message).toMatch(
      /^no answer from http:\/\/127\.0\.0\.1:\d+ to GET \/v1\/workspaces\/mine within 100 ms \(5 attempts\)$/,
    );
    expect(error.hint).toMatch(/not answering/);
  });

  it('gives up on an unreachable service after the backoff alone (default at most 7.5 s)', async () => {
    const clock = sequentialClock();
    const error = await planFailure({ baseUrl: closedUrl, clock, random: () => 0.999_999, fetch: refused });
    expect(error.code).toBe('service.unreachable');
    expect(clock.elapsed()).toBeLessThanOrEqual(RETRY_BUDGET_MS);
    expect(RETRY_BUDGET_MS).toBe(7_500);
  });

  it('the CLI reports an unreachable service with the address and what to check, exit 1, no stack', async () => {
    const workload = await scratchDir(WORKLOAD_FILES);
    try {
      const result = await runInProcess(['plan', workload.dir], {
        env: { VIEWCTL_BASE_URL: closedUrl, VIEWCTL_API_KEY: 'key-time-bounds' },
      });
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(
        new RegExp(
          `^error\\[service\\.unreachable\\]: cannot reach the service at ${closedUrl.replace(/\./g, '\\.')} for GET /v1/workspaces/mine \\(ECONNREFUSED: the connection was refused: nothing is listening at that address and port\\) after 5 attempts; nothing was written\\n  hint: .*VIEWCTL_BASE_URL`,
        ),
      );
      expect(result.stderr).not.toMatch(/\n\s+at |internal error/);
      expect(result.stdout).toBe('');
    } finally {
      await workload.cleanup();
    }
  });
});
