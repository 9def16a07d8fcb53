/**
 * Test doubles for the service client: a fake clock that only moves when told, and a
 * tiny node:http server on 127.0.0.1 that records what it received.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';
import { ServiceError } from '../../src/errors.js';
import type { Clock } from '../../src/service/clock.js';
import type { FetchLike } from '../../src/service/http-attempt.js';
import type { RequestEvent } from '../../src/service/types.js';

interface Timer {
  at: number;
  order: number;
  resolve: () => void;
}

/** FakeClock is a Clock whose time advances only through `advance`. */
export class FakeClock implements Clock {
  private current = 0;
  private order = 0;
  private timers: Timer[] = [];

  now(): number {
    return this.current;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted === true) {
        reject(signal.reason);
        return;
      }
      const timer: Timer = { at: this.current + Math.max(0, ms), order: this.order++, resolve };
      this.timers.push(timer);
      signal?.addEventListener(
        'abort',
        () => {
          this.timers = this.timers.filter((t) => t !== timer);
          reject(signal.reason);
        },
        { once: true },
      );
    });
  }

  /** pending is the number of sleeps not yet over. */
  get pending(): number {
    return this.timers.length;
  }

  /** nextAt is when the earliest sleep ends, if any. */
  get nextAt(): number | undefined {
    return this.timers.reduce<number | undefined>(
      (min, t) => (min === undefined || t.at < min ? t.at : min),
      undefined,
    );
  }

  /** advance moves time forward by `ms`, waking sleepers in time order and letting them run. */
  async advance(ms: number): Promise<void> {
    const target = this.current + ms;
    for (;;) {
      await settle();
      const next = [...this.timers].sort((a, b) => a.at - b.at || a.order - b.order)[0];
      if (next === undefined || next.at > target) break;
      this.timers = this.timers.filter((t) => t !== next);
      this.current = next.at;
      next.resolve();
    }
    this.current = target;
    await settle();
  }
}

/**
 * WireTracker counts a client's attempts out on the wire: its `fetch` counts each call
 * and its `onRequest` (which the client calls once as each attempt ends) counts it back.
 */
export interface WireTracker {
  fetch: FetchLike;
  onRequest(event: RequestEvent): void;
  /** Every attempt that ended, in order. */
  events: RequestEvent[];
  /** onWire is the number of attempts sent and not yet ended. */
  onWire(): number;
}

/** wireTracker returns a WireTracker over the real `fetch`. */
export function wireTracker(): WireTracker {
  let calls = 0;
  const events: RequestEvent[] = [];
  return {
    fetch: (url, init) => {
      calls += 1;
      return fetch(url, init);
    },
    onRequest: (event) => void events.push(event),
    events,
    onWire: () => calls - events.length,
  };
}

/**
 * runOnFakeClock drives `work` to its end on a fake clock over real HTTP: it wakes the
 * next sleeper only when `onWire` says no attempt is out, so a fake per-attempt timeout
 * never races a real answer, and the times the test reads are exact however loaded the
 * machine is. Without `onWire` the clock moves even with attempts out: for a server
 * that never answers, where only the timeout can end an attempt.
 */
export async function runOnFakeClock<T>(clock: FakeClock, work: Promise<T>, onWire?: () => number): Promise<T> {
  let done = false;
  const watched = work.then(
    () => void (done = true),
    () => void (done = true),
  );
  while (!done) {
    await settle();
    const next = clock.nextAt;
    if ((onWire !== undefined && onWire() > 0) || next === undefined) {
      // Real I/O is under way: poll for it without spinning a core. How long this
      // takes does not matter; nothing the test checks is read from a real timer.
      await new Promise((resolve) => setTimeout(resolve, 1));
      continue;
    }
    await clock.advance(next - clock.now());
  }
  await watched;
  return work;
}

/** settle lets pending promise callbacks and I/O callbacks run. */
export function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Hit is one request the test server received. */
export interface Hit {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
  /**
   * Arrival time on the test's FakeClock, which the handler sets (`hit.at = clock.now()`);
   * 0 until then. Never a real time: no test here judges how fast the machine is.
   */
  at: number;
}

/** Handler answers one request; `index` counts hits from 0. */
export type Handler = (hit: Hit, res: ServerResponse, index: number) => void;

/** TestServer is a running server with its recorded hits. */
export interface TestServer {
  baseUrl: string;
  hits: Hit[];
  close(): Promise<void>;
}

/** startServer listens on a free loopback port and records every request before handing it on. */
export async function startServer(handler: Handler): Promise<TestServer> {
  const hits: Hit[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const hit: Hit = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: 0,
      };
      hits.push(hit);
      handler(hit, res, hits.length - 1);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** json writes a JSON response with optional extra headers. */
export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** closedPort returns a loopback port that nothing listens on (it was just released). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** serviceFailure is the ServiceError `promise` must reject with. */
export async function serviceFailure(promise: Promise<unknown>): Promise<ServiceError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ServiceError);
  return error as ServiceError;
}
