import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DAILY_QUOTA, DEFAULT_RATE } from '../domain/domains.js';
import { ViewctlError } from '../errors.js';
import { errorBody, readBody, sendBody, sendJson } from './http-io.js';
import { attachHttpLayer, MAX_HEADER_BYTES, requestTarget } from './http-layer.js';
import type { EmulatorData } from './model.js';
import { ownValue, setOwn } from './own.js';
import { createRateLimiter, type LimitDecision } from './rate-limit.js';
import { createRng } from './rng.js';
import { APP_PREFIX, MEDIA_PREFIX, serveAppPage, serveMedia } from './records/media.js';
import { validationError } from './route-result.js';
import { buildRoutes, matchRoute } from './routes.js';
import { openStateStore } from './state-store.js';
import type { AttributeChecker } from './views/body.js';
import { ruleChecker } from './views/rule-checker.js';
import { createWebhookDispatcher, DEFAULT_WEBHOOK_SETTINGS, type DeliveryReport } from './webhooks.js';

/**
 * The emulator of the service: the whole API on node:http, with
 * its auth, limits and faults. Order of checks for every request, so behaviour is
 * predictable: a request that is not well-formed HTTP (http-layer.ts: 400, 408, 417,
 * 431, never counted), auth (401, never counted), rate limit and daily quota (429),
 * latency, injected failure (503, nothing done), routing (404), body parsing (400),
 * the handler (on a copy of the workspace for writes), persistence of any change
 * then the swap to the changed copy, then either the answer or, for an injected
 * drop, a destroyed socket. Every answer carries the rate-limit headers.
 *
 * Draws from the seeded RNG, in request order, so a seed replays the same faults:
 * one for a per-endpoint 429 (whether to send Retry-After); one for the fail rate on
 * every request within the limits; one for the drop rate on every non-GET request
 * the handler carried out (200, changed or not). A refused write (400/403/404) is
 * never dropped, so its refusal always reaches the client. Rates of 0 and 1 draw
 * nothing (see rng.ts).
 */

/** EmulatorOptions configure one emulator; only `data` is required. */
export interface EmulatorOptions {
  /** The workspace to serve (the demo or `--data`); copied, never mutated. */
  data: EmulatorData;
  /** 0 or absent picks a free port. The host is always 127.0.0.1. */
  port?: number;
  /** The accepted `X-Service-Key` (default `emulator-key`). */
  apiKey?: string;
  /** Keep state in this file: loaded when it exists, written on every change. */
  statePath?: string;
  /** Steady rate per endpoint, requests per second (default 3). */
  rate?: number;
  /** Burst allowance per endpoint (default 3). */
  burst?: number;
  /** Requests per rolling 24 hours (default 3,000). */
  quota?: number;
  /** Seed of the fault and Retry-After choices (default 1). */
  seed?: number;
  /** Delay before each request is handled. */
  latencyMs?: number;
  /** Share of requests answered 503 without acting. */
  failRate?: number;
  /** Share of writes (non-GET requests answered 200) applied and then left unanswered (socket destroyed). */
  dropAfterCommitRate?: number;
  /** Deliver every webhook here instead of the webhook's own url. */
  webhookUrl?: string;
  /** The clock (ms) for limits, quota, relative filters and transcript expiry. */
  now?: () => number;
  /** Whether the key has Full access, which shows private recordings (default true). */
  fullAccess?: boolean;
  /** Webhook try timeout (default 5,000 ms). */
  webhookTimeoutMs?: number;
  /** Delays before webhook retries (default 0, 60,000, 300,000 ms). */
  webhookRetryDelaysMs?: readonly number[];
  /** Told of each webhook try and its outcome. */
  onWebhookDelivery?: (report: DeliveryReport) => void;
  /** How latency waits; tests may pass a fake. */
  sleep?: (ms: number) => Promise<void>;
  /** Checks view columns, filters and sort (default: the emulator's own rules, views/rule-checker.ts). */
  attributeChecker?: AttributeChecker;
}

/** EmulatorStats are the emulator's counters since start or the last reset. */
interface EmulatorStats {
  requests: number;
  /** Successful POST/PATCH/PUT/DELETE requests that changed the workspace. */
  writes: number;
  /** Requests per `METHOD /route/{template}` (unknown routes under `METHOD (no route)`). */
  byEndpoint: Record<string, number>;
  rateLimited: number;
  /** 503s, dropped connections. */
  faultsInjected: number;
}

export interface RunningEmulator {
  /** Base URL, before `/v1`. */
  url: string;
  apiKey: string;
  close(): Promise<void>;
  /** snapshot returns a copy of the workspace as it is now. */
  snapshot(): EmulatorData;
  stats(): EmulatorStats;
  resetStats(): void;
}

// The limiter key of requests that name no endpoint; no route template looks like it.
const NO_ENDPOINT = '(no endpoint)';

const DEFAULT_API_KEY = 'emulator-key';

/** startEmulator starts an emulator on 127.0.0.1 and resolves once it listens. */
export async function startEmulator(options: EmulatorOptions): Promise<RunningEmulator> {
  const apiKey = options.apiKey ?? DEFAULT_API_KEY;
  const rate = options.rate ?? DEFAULT_RATE;
  const now = options.now ?? Date.now;
  const fullAccess = options.fullAccess ?? true;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  checkLimits(options);
  const store = openStateStore(options.data, options.statePath);
  const limiter = createRateLimiter({ rate, burst: options.burst ?? 3, quota: options.quota ?? DAILY_QUOTA });
  const rng = createRng(options.seed ?? 1);
  const mediaSecret = randomBytes(32).toString('hex');
  const webhooks = createWebhookDispatcher({
    timeoutMs: options.webhookTimeoutMs ?? DEFAULT_WEBHOOK_SETTINGS.timeoutMs,
    retryDelaysMs: options.webhookRetryDelaysMs ?? DEFAULT_WEBHOOK_SETTINGS.retryDelaysMs,
    overrideUrl: options.webhookUrl,
    onDelivery: options.onWebhookDelivery,
  });
  const routes = buildRoutes({ checker: options.attributeChecker ?? ruleChecker, webhooks });
  let stats = emptyStats();
  let closed = false;
  let baseUrl = '';

  const limitHeaders = (decision: Pick<LimitDecision, 'remaining' | 'dailyRemaining'>): Record<string, string> => ({
    'x-ratelimit-limit': String(rate),
    'x-ratelimit-remaining': String(decision.remaining),
    'x-ratelimit-daily-remaining': String(decision.dailyRemaining),
  });
  // Headers for answers that take no token (401, a fault before the limiter ran, a
  // malformed request): the endpoint's current allowance; a request with no known
  // endpoint reads as a fresh one, still capped by the daily remainder.
  const peekHeaders = (endpoint: string | undefined): Record<string, string> =>
    limitHeaders(limiter.peek(endpoint ?? NO_ENDPOINT, now()));

  // `seen` tells the fault handler which headers this request has earned so far.
  const handle = async (request: IncomingMessage, response: ServerResponse, seen: SeenRequest): Promise<void> => {
    const method = request.method ?? 'GET';
    const rawBody = await readBody(request);
    const url = requestTarget(request.url ?? '');
    if (url === undefined || (request.httpVersion === '1.1' && request.headers.host === undefined)) {
      const message =
        url === undefined
          ? `the request target ${JSON.stringify(request.url ?? '')} is not a path`
          : 'an HTTP/1.1 request needs a Host header';
      sendJson(response, 400, errorBody('validation_error', message), peekHeaders(undefined));
      return;
    }
    const isPage = url.pathname.startsWith(APP_PREFIX);
    if ((url.pathname.startsWith(MEDIA_PREFIX) || isPage) && (method === 'GET' || method === 'HEAD')) {
      // Signed download links carry their own credentials and app pages stand for the
      // application: neither is an API endpoint, so no key, limits or limit headers.
      const answer = isPage ? serveAppPage(store.data, url) : serveMedia(store.data, url, now(), mediaSecret);
      if (answer.status === 200) sendBody(response, answer.contentType, answer.body);
      else
        sendJson(
          response,
          answer.status,
          errorBody(answer.status === 403 ? 'forbidden' : 'not_found', answer.message),
          {},
        );
      return;
    }
    stats.requests += 1;
    const matched = matchRoute(routes, method, url.pathname);
    const endpoint = matched === undefined ? `${method} (no route)` : `${method} ${matched.route.template}`;
    seen.endpoint = endpoint;
    if (request.headers['x-service-key'] !== apiKey) {
      sendJson(
        response,
        401,
        errorBody('unauthorized', 'missing or invalid X-Service-Key header'),
        peekHeaders(endpoint),
      );
      return;
    }
    setOwn(stats.byEndpoint, endpoint, (ownValue(stats.byEndpoint, endpoint) ?? 0) + 1);
    const decision = limiter.take(endpoint, now());
    const headers = limitHeaders(decision);
    seen.headers = headers;
    if (!decision.allowed) {
      stats.rateLimited += 1;
      // The quota always says when it frees up; the per-endpoint limit only sometimes
      // does, so clients must cope with both (the service's "Rate limits").
      const tell = decision.reason === 'quota' || rng.chance(0.5);
      const retryAfter: Record<string, string> =
        tell && decision.retryAfterSeconds !== undefined ? { 'retry-after': String(decision.retryAfterSeconds) } : {};
      const message =
        decision.reason === 'quota' ? 'daily request quota exceeded' : `rate limit of ${endpoint} exceeded`;
      sendJson(response, 429, errorBody('rate_limited', message), { ...headers, ...retryAfter });
      return;
    }
    if ((options.latencyMs ?? 0) > 0) await sleep(options.latencyMs ?? 0);
    if (closed) return;
    if (rng.chance(options.failRate ?? 0)) {
      stats.faultsInjected += 1;
      sendJson(
        response,
        503,
        errorBody('internal_error', 'injected failure: the service is unavailable, nothing was done'),
        headers,
      );
      return;
    }
    if (matched === undefined) {
      sendJson(response, 404, errorBody('not_found', `no route ${method} ${url.pathname}`), headers);
      return;
    }
    const body = parseBody(rawBody);
    const isWrite = method !== 'GET';
    // Writes change a copy, swapped in only once persisted: a handler that throws or a
    // state file that cannot be written leaves the workspace as it was.
    const data = isWrite ? store.draft() : store.data;
    const result = body.ok
      ? matched.route.handle({
          data,
          params: matched.params,
          query: url.searchParams,
          body: body.value,
          now: now(),
          fullAccess,
          baseUrl,
          mediaSecret,
        })
      : validationError(undefined, body.message);
    if (result.status === 200 && result.changed === true) {
      store.commit(data);
      stats.writes += 1;
    }
    // Only a write that was carried out is dropped: dropping a refusal would turn a
    // definite answer into an ambiguous transport failure.
    if (isWrite && result.status === 200 && rng.chance(options.dropAfterCommitRate ?? 0)) {
      stats.faultsInjected += 1;
      request.socket.destroy();
      return;
    }
    if (result.status === 200) sendJson(response, 200, { result: result.result }, headers);
    else sendJson(response, result.status, errorBody(result.type, result.message, result.path), headers);
  };

  // Node answers a missing Host with a bare 400; the emulator answers it as JSON (http-layer.ts).
  const server = createServer({ maxHeaderSize: MAX_HEADER_BYTES, requireHostHeader: false }, (request, response) => {
    track(request, response);
    const seen: SeenRequest = {};
    handle(request, response, seen).catch((error: unknown) => {
      const reason = error instanceof Error ? error.message : String(error);
      sendJson(
        response,
        500,
        errorBody('internal_error', `emulator fault: ${reason}`),
        seen.headers ?? peekHeaders(seen.endpoint),
      );
    });
  });
  const track = attachHttpLayer(server, { apiKey, headers: () => peekHeaders(undefined) });
  const port = options.port ?? 0;
  await new Promise<void>((resolve, reject) => {
    const refuse = (error: NodeJS.ErrnoException): void =>
      reject(
        error.code === 'EADDRINUSE'
          ? new ViewctlError('emulator.port-in-use', `port ${port} on 127.0.0.1 is already in use`, {
              hint: 'stop the program listening there, choose another port, or use port 0 to pick a free one',
              cause: error,
            })
          : error.code === 'EACCES'
            ? new ViewctlError(
                'emulator.port-forbidden',
                `port ${port} on 127.0.0.1 needs privileges this process does not have`,
                {
                  hint: 'use a port above 1023, or port 0 to pick a free one',
                  cause: error,
                },
              )
            : error,
      );
    server.once('error', refuse);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', refuse);
      resolve();
    });
  });
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: baseUrl,
    apiKey,
    snapshot: () => structuredClone(store.data),
    stats: () => structuredClone(stats),
    resetStats: () => {
      stats = emptyStats();
    },
    close: async () => {
      if (closed) return;
      closed = true;
      webhooks.close();
      const done = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await done;
    },
  };
}

// The CLI checks its flags with friendly messages; this guards programmatic callers
// against values that would make the limiter divide by zero or never refill.
function checkLimits(options: EmulatorOptions): void {
  const positive = { rate: options.rate, burst: options.burst, quota: options.quota };
  for (const [name, value] of Object.entries(positive)) {
    if (value !== undefined && !(value > 0))
      throw new RangeError(`emulator option ${name} must be above 0, got ${value}`);
  }
  const shares = { failRate: options.failRate, dropAfterCommitRate: options.dropAfterCommitRate };
  for (const [name, value] of Object.entries(shares)) {
    if (value !== undefined && !(value >= 0 && value <= 1))
      throw new RangeError(`emulator option ${name} must be from 0 to 1, got ${value}`);
  }
}

// What the fault handler needs to know about a request that threw.
interface SeenRequest {
  endpoint?: string;
  headers?: Record<string, string>;
}

function emptyStats(): EmulatorStats {
  return { requests: 0, writes: 0, byEndpoint: {}, rateLimited: 0, faultsInjected: 0 };
}

function parseBody(raw: string | undefined): { ok: true; value: unknown } | { ok: false; message: string } {
  if (raw === undefined) return { ok: false, message: 'the request body is too large' };
  if (raw.trim() === '') return { ok: true, value: undefined };
  try {
    return { ok: true, value: JSON.parse(raw) as unknown };
  } catch {
    return { ok: false, message: 'the request body is not valid JSON' };
  }
}
