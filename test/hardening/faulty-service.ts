import type { EmulatorData } from '../../src/emulator/model.js';
import { buildRoutes, matchRoute } from '../../src/emulator/routes.js';
import type { RouteResult } from '../../src/emulator/route-result.js';
import { ruleChecker } from '../../src/emulator/views/rule-checker.js';
import type { WebhookDispatcher } from '../../src/emulator/webhooks.js';
import type { Clock } from '../../src/service/clock.js';
import type { FetchLike } from '../../src/service/http-attempt.js';

/**
 * The emulator's route table behind a `fetch` that misbehaves on a schedule, for the
 * real client (retries, backoff, Retry-After, its rate limiter) to talk to in memory:
 * no socket and no timer, so a property can run hundreds of plans and applies under
 * faults in seconds, and the same schedule always gives the same run. Writes are
 * carried out on a copy swapped in only when they succeed, as the emulator does. Only
 * the routes plan and apply use are served: views, pinned lists, users, the workspace
 * and its automations.
 */

/** MEMORY_URL is where the client is pointed; nothing listens there. */
export const MEMORY_URL = 'http://memory.test';

/** Fault is what the service does with one request instead of answering it plainly. */
export type Fault =
  /** 503 before acting: the service did nothing. */
  | { kind: 'unavailable' }
  /** 429 before acting, with a Retry-After in seconds or without one. */
  | { kind: 'rate-limited'; retryAfterS: number | null }
  /** Carried out, then the connection drops before the answer (a read is re-answered by its retry). */
  | { kind: 'lost-answer' }
  /** Carried out, then answered 502 by a gateway that lost the service's answer. */
  | { kind: 'bad-gateway' }
  /** The connection resets before the service acts: a restart in the middle of a request. */
  | { kind: 'reset' }
  /** The service is down (restarting): this request and the next `requests - 1` find nothing listening. */
  | { kind: 'outage'; requests: number }
  /** Taken but carried out only after `after` more requests, the connection reset now: a slow write that lands after the client gave up. */
  | { kind: 'late'; after: number }
  /** Answered only after `turns` turns of the event loop, so requests sent after it may be answered first. */
  | { kind: 'slow'; turns: number };

/** FaultKind names a Fault. */
export type FaultKind = Fault['kind'];

/** Schedule maps the number of a request (0-based, over every client of one service) to its fault. */
export type Schedule = ReadonlyMap<number, Fault>;

/** FaultyService is one in-memory service: its fetch, its workspace, and what it did. */
export interface FaultyService {
  fetch: FetchLike;
  /** data is the workspace now. */
  data(): EmulatorData;
  /** restart carries out every write it took (late ones too) and reloads the workspace as its state file holds it. */
  restart(): void;
  /** settle carries out the late writes still pending: the service finishes what it took before the next run. */
  settle(): void;
  /** requests is how many requests arrived so far. */
  requests(): number;
  /** down says whether an outage is still under way: the next request finds nothing listening. */
  down(): boolean;
  /** met counts, per kind, the faults that changed what a request did (a lost answer to a refusal is none). */
  met: Record<FaultKind, number>;
}

// The routes the planner and apply use never trigger a webhook.
const NO_WEBHOOKS = {} as WebhookDispatcher;
const NOW = Date.parse('2026-01-15T12:00:00Z');

/** faultyService serves `initial` in memory with the faults of `schedule`. */
export function faultyService(initial: EmulatorData, schedule: Schedule): FaultyService {
  const routes = buildRoutes({ checker: ruleChecker, webhooks: NO_WEBHOOKS });
  let data = structuredClone(initial);
  let count = 0;
  let downUntil = -1;
  const late: { due: number; run(): void }[] = [];
  const met = {
    unavailable: 0,
    'rate-limited': 0,
    'lost-answer': 0,
    'bad-gateway': 0,
    reset: 0,
    outage: 0,
    late: 0,
    slow: 0,
  };

  // carry runs the handler on a copy (for a write), swapped in only when it changed
  // something. The writes plan and apply send change views, pinned lists and the id
  // counters only: those are copied, the rest (the records, most of the bytes) shared.
  const carry = (method: string, url: URL, body: unknown): RouteResult => {
    const matched = matchRoute(routes, method, url.pathname);
    if (matched === undefined) return { status: 404, type: 'not_found', message: `no route ${method} ${url.pathname}` };
    const target =
      method === 'GET'
        ? data
        : {
            ...data,
            views: structuredClone(data.views),
            pinned: structuredClone(data.pinned),
            nextIds: { ...data.nextIds },
          };
    const result = matched.route.handle({
      data: target,
      params: matched.params,
      query: url.searchParams,
      body,
      now: NOW,
      fullAccess: true,
      baseUrl: MEMORY_URL,
      mediaSecret: 'memory',
    });
    if (result.status === 200 && result.changed === true) data = target;
    return result;
  };
  const runDue = (): void => {
    for (const write of late.filter((entry) => entry.due <= count)) {
      late.splice(late.indexOf(write), 1);
      write.run();
    }
  };
  const settle = (): void => {
    for (const write of late.splice(0)) write.run();
  };

  const fetch: FetchLike = async (raw, init) => {
    const index = count;
    count += 1;
    runDue();
    const method = init.method ?? 'GET';
    const url = new URL(raw);
    const body = typeof init.body === 'string' && init.body !== '' ? (JSON.parse(init.body) as unknown) : undefined;
    const fault = schedule.get(index);
    if (fault?.kind === 'outage') downUntil = Math.max(downUntil, index + fault.requests - 1);
    if (index <= downUntil) {
      met.outage += 1;
      throw networkError('ECONNREFUSED');
    }
    switch (fault?.kind) {
      case 'unavailable':
        met.unavailable += 1;
        return answer(503, {
          error: { type: 'internal_error', message: 'injected failure: the service is unavailable, nothing was done' },
        });
      case 'rate-limited':
        met['rate-limited'] += 1;
        return answer(
          429,
          { error: { type: 'rate_limited', message: 'rate limit exceeded' } },
          {
            'x-ratelimit-remaining': '0',
            ...(fault.retryAfterS === null ? {} : { 'retry-after': String(fault.retryAfterS) }),
          },
        );
      case 'reset':
        met.reset += 1;
        throw networkError('ECONNRESET');
      case 'late':
        if (method !== 'GET') {
          met.late += 1;
          late.push({ due: index + 1 + fault.after, run: () => void carry(method, url, body) });
          throw networkError('ECONNRESET');
        }
        break;
      case 'slow':
        met.slow += 1;
        for (let turn = 0; turn < fault.turns; turn += 1) await new Promise((resolve) => setImmediate(resolve));
        break;
      default:
        break;
    }
    const result = carry(method, url, body);
    if (result.status === 200 && fault?.kind === 'lost-answer') {
      met['lost-answer'] += 1;
      throw networkError('ECONNRESET');
    }
    if (result.status === 200 && fault?.kind === 'bad-gateway') {
      met['bad-gateway'] += 1;
      return answer(502, { error: { type: 'internal_error', message: 'bad gateway' } });
    }
    if (result.status !== 200)
      return answer(result.status, {
        error: {
          type: result.type,
          message: result.message,
          ...(result.path === undefined ? {} : { path: result.path }),
        },
      });
    return answer(200, { result: result.result });
  };

  return {
    fetch,
    data: () => data,
    restart: () => {
      settle();
      data = JSON.parse(JSON.stringify(data)) as EmulatorData;
    },
    settle,
    requests: () => count,
    down: () => count <= downUntil,
    met,
  };
}

/** answer is a JSON response as the emulator sends it, with limits that never get in the way. */
function answer(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'x-ratelimit-limit': '1000',
      'x-ratelimit-remaining': '999',
      ...headers,
    },
  });
}

/** networkError is a fetch failure as Node reports it: the system error code in the cause. */
function networkError(code: 'ECONNREFUSED' | 'ECONNRESET'): TypeError {
  return new TypeError('fetch failed', { cause: Object.assign(new Error(`connect ${code}`), { code }) });
}

/**
 * VIRTUAL_TIMEOUT_MS is the attempt timeout the client is given here: in memory every
 * request is answered within a few turns of the event loop, so no attempt times out,
 * and a sleep this long is taken for the timeout's and never ends by itself.
 */
export const VIRTUAL_TIMEOUT_MS = 3_600_000;

/**
 * virtualClock is a Clock for a client whose requests never wait on I/O: a backoff,
 * a Retry-After or a rate-limit slot ends on the next turn of the event loop and moves
 * the time on by its length; the attempt timeout (VIRTUAL_TIMEOUT_MS) ends only when
 * cancelled, which it always is once its attempt has its answer.
 */
export function virtualClock(start = NOW): Clock {
  let now = start;
  return {
    now: () => now,
    sleep: (ms, signal) =>
      new Promise<void>((resolve, reject) => {
        if (signal?.aborted === true) {
          reject(signal.reason);
          return;
        }
        const abort = (): void => {
          clearImmediate(timer);
          reject(signal?.reason);
        };
        const timer =
          ms >= VIRTUAL_TIMEOUT_MS
            ? undefined
            : setImmediate(() => {
                signal?.removeEventListener('abort', abort);
                now += Math.max(0, ms);
                resolve();
              });
        signal?.addEventListener('abort', abort, { once: true });
      }),
  };
}
