/**
 * The HTTP client of the service: every request goes through one per-endpoint rate
 * limiter, a bounded retry loop and the daily quota guard, and comes back as the
 * response's `result` or a ServiceError. All delays, the fetch and
 * the randomness are options, so tests run in milliseconds.
 */
import { setMaxListeners } from 'node:events';
import { DEFAULT_RATE } from '../domain/domains.js';
import { ServiceError, UsageError } from '../errors.js';
import { MIN_KEY_LENGTH } from '../secrets/redact.js';
import { VERSION } from '../version.js';
import { systemClock, type Clock } from './clock.js';
import { sendAttempt, type AttemptResult, type FetchLike } from './http-attempt.js';
import { QuotaTracker, readDailyRemaining } from './quota.js';
import { RateLimiter } from './rate-limiter.js';
import {
  abortedError,
  networkError,
  redirectError,
  responseError,
  retryAfterTooLongError,
  successResult,
  timeoutError,
  tooLargeError,
  type RequestContext,
} from './response.js';
import {
  DEFAULT_RETRY_POLICY,
  REFUSED_UNPROCESSED,
  decideRetry,
  parseRetryAfter,
  type AttemptOutcome,
  type RetryPolicy,
} from './retry-policy.js';
import type { RequestEvent, RequestOptions, ServiceClient, ServiceRequest, ServiceStats } from './types.js';
import { endpointKey, parseBaseUrl, requestPath } from './url.js';

export interface ClientOptions {
  /** Service root before `/v1` (`--base-url` / `VIEWCTL_BASE_URL`). */
  baseUrl: string;
  /** Workspace key (`VIEWCTL_API_KEY`), sent as `X-Service-Key` and nowhere else. */
  apiKey: string;
  /** Requests per second per endpoint (`--rate`); default 3, the service's limit. */
  rate?: number;
  /** Back-to-back requests allowed per endpoint; default 1: never faster than `rate`. */
  burst?: number;
  /** Attempts per request, the first included; default 5. */
  maxAttempts?: number;
  /** Time limit of one attempt, body included; default 15,000 ms. */
  timeoutMs?: number;
  /** Longest response body read; default 16 MiB (500 views of a domain take about 2). */
  maxBodyBytes?: number;
  /** Backoff and Retry-After bounds; defaults 500 ms base, 10 s cap, 60 s longest Retry-After. */
  backoff?: Partial<Pick<RetryPolicy, 'baseMs' | 'capMs' | 'maxRetryAfterMs'>>;
  fetch?: FetchLike;
  clock?: Clock;
  /** Source of jitter in [0, 1); default Math.random. */
  random?: () => number;
  /** Called once per attempt (`--verbose`); see verboseLogger. */
  onRequest?: (event: RequestEvent) => void;
  /** Aborting cancels in-flight and queued requests (Ctrl-C). */
  signal?: AbortSignal;
  /** Daily requests to leave unused; a request that would dig into them is refused. Default 0. */
  dailyReserve?: number;
  userAgent?: string;
}

/**
 * createServiceClient checks the options (UsageError on a bad base URL, key or number)
 * and returns a ServiceClient. A request without `idempotent` is idempotent unless it
 * is a POST.
 */
export function createServiceClient(options: ClientOptions): ServiceClient {
  const baseUrl = parseBaseUrl(options.baseUrl);
  const apiKey = checkApiKey(options.apiKey);
  const rate = positive('rate', options.rate ?? DEFAULT_RATE);
  const burst = wholeNumber('burst', options.burst ?? 1, 1);
  const timeoutMs = positive('timeoutMs', options.timeoutMs ?? 15_000);
  const maxBodyBytes = wholeNumber('maxBodyBytes', options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES, 1);
  const reserve = wholeNumber('dailyReserve', options.dailyReserve ?? 0, 0);
  const policy: RetryPolicy = {
    ...DEFAULT_RETRY_POLICY,
    ...options.backoff,
    maxAttempts: wholeNumber('maxAttempts', options.maxAttempts ?? DEFAULT_RETRY_POLICY.maxAttempts, 1),
  };
  const clock = options.clock ?? systemClock;
  const random = options.random ?? Math.random;
  const fetchImpl: FetchLike = options.fetch ?? ((url, init) => fetch(url, init));
  const signal = options.signal;
  // Every request in flight or waiting listens for the abort: dozens at once are
  // expected, so Node's leak warning (past 10 listeners) would be a false alarm on stderr.
  if (signal !== undefined) setMaxListeners(0, signal);
  const limiter = new RateLimiter({ rate, burst, clock, signal });
  const quota = new QuotaTracker();
  const counters = { requests: 0, retries: 0, rateLimited: 0 };
  const headers = {
    'X-Service-Key': apiKey,
    Accept: 'application/json',
    'User-Agent': options.userAgent ?? `viewctl/${VERSION}`,
  };
  let inFlight = 0;

  // A failed write whose request may have reached the service is marked, so apply lists
  // it as "may have landed" rather than as not done.
  async function request<T>(req: ServiceRequest, call: RequestOptions = {}): Promise<T> {
    const reached = { value: false };
    try {
      return await send<T>(req, reached, call);
    } catch (error) {
      if (
        error instanceof ServiceError &&
        req.method !== 'GET' &&
        (reached.value || error.code === 'service.outcome-unknown')
      )
        error.mayHaveLanded = true;
      throw error;
    }
  }

  async function send<T>(req: ServiceRequest, reached: { value: boolean }, call: RequestOptions): Promise<T> {
    const { signal: own, allowances = [] } = call;
    const endpoint = endpointKey(req.method, req.route);
    const path = requestPath(req);
    const idempotent = req.idempotent ?? req.method !== 'POST';
    const body = req.body === undefined ? undefined : JSON.stringify(req.body);
    const context: RequestContext = {
      method: req.method,
      route: req.route,
      endpoint,
      target: `${req.method} ${path}`,
      baseUrl,
      apiKey,
      attempts: 0,
    };
    const attemptHeaders = body === undefined ? headers : { ...headers, 'Content-Type': 'application/json' };
    const emit = (event: Omit<RequestEvent, 'method' | 'route' | 'path'>): void =>
      options.onRequest?.({ method: req.method, route: req.route, path, ...event });

    for (let attempt = 1; ; attempt += 1) {
      // Checked before queueing (fail fast) and again at the slot (in-flight count and
      // the run's other attempts moved). A retry is a request sent like any other.
      quota.check(inFlight, reserve, context.target);
      for (const allowance of allowances) allowance.check(context.target, endpoint);
      try {
        await limiter.acquire(endpoint, { front: attempt > 1, signal: own });
      } catch {
        throw abortedError(context, false);
      }
      quota.check(inFlight, reserve, context.target);
      for (const allowance of allowances) allowance.check(context.target, endpoint);

      for (const allowance of allowances) allowance.count(attempt);
      counters.requests += 1;
      if (attempt > 1) counters.retries += 1;
      context.attempts = attempt;
      inFlight += 1;
      const started = clock.now();
      let result: AttemptResult;
      try {
        result = await sendAttempt({
          url: baseUrl + path,
          method: req.method,
          headers: attemptHeaders,
          body,
          timeoutMs,
          clock,
          fetch: fetchImpl,
          signal,
          maxBodyBytes,
        });
      } finally {
        inFlight -= 1;
      }
      const ms = Math.round(clock.now() - started);
      if (mayHaveReached(result)) reached.value = true;

      let outcome: AttemptOutcome;
      let retryAfterMs: number | undefined;
      switch (result.kind) {
        case 'aborted':
          // Cancelled while in flight: the service may have received it.
          emit({ attempt, error: 'service.aborted', ms });
          throw abortedError(context, true);
        case 'timeout':
          outcome = { kind: 'timeout' };
          break;
        case 'too-large':
          quota.observe(readDailyRemaining(result.headers));
          emit({ attempt, status: result.status, ms, error: 'service.response-too-large' });
          throw tooLargeError(result.status, result.limitBytes, context);
        case 'network':
          outcome = { kind: 'network', code: result.code, beforeSend: result.beforeSend, permanent: result.permanent };
          break;
        case 'response': {
          quota.observe(readDailyRemaining(result.headers));
          if (result.headers.get('x-ratelimit-remaining')?.trim() === '0') {
            limiter.exhausted(endpoint, readLimit(result.headers));
          }
          if (result.status >= 200 && result.status < 300) {
            emit({ attempt, status: result.status, ms });
            return successResult(result.status, result.text, context) as T;
          }
          if (result.status >= 300 && result.status < 400) {
            emit({ attempt, status: result.status, ms });
            throw redirectError(result.status, result.headers.get('location'), context);
          }
          if (result.status === 429) counters.rateLimited += 1;
          retryAfterMs = parseRetryAfter(result.headers.get('retry-after'), clock.now());
          outcome = { kind: 'status', status: result.status, retryAfterMs };
          break;
        }
      }

      const decision = decideRetry(outcome, { attempt, idempotent }, policy, random);
      emit({
        attempt,
        ms,
        ...(result.kind === 'response'
          ? { status: result.status }
          : { error: result.kind === 'timeout' ? 'service.timeout' : 'service.unreachable' }),
        ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
        ...(decision.action === 'retry' ? { retryInMs: decision.delayMs } : {}),
      });
      if (decision.action === 'fail') {
        if (decision.reason === 'retry-after-too-long')
          throw retryAfterTooLongError(decision.retryAfterMs, clock.now(), context);
        const unknown = decision.reason === 'outcome-unknown';
        if (result.kind === 'response') throw responseError(result.status, result.text, context, unknown);
        if (result.kind === 'network') throw networkError(result, context, unknown);
        throw timeoutError(timeoutMs, context, unknown);
      }
      if (decision.pauseEndpoint) {
        // A 429 pauses the whole endpoint, so requests queued behind do not hit 429 too.
        limiter.pause(endpoint, clock.now() + decision.delayMs);
      } else {
        try {
          // The call's own signal ends the wait too: a retry is a new send.
          await clock.sleep(
            decision.delayMs,
            own === undefined || signal === undefined ? (own ?? signal) : AbortSignal.any([signal, own]),
          );
        } catch {
          throw abortedError(context, false);
        }
      }
    }
  }

  return {
    request,
    stats: (): ServiceStats => ({ ...counters, dailyRemaining: quota.dailyRemaining }),
  };
}

/** DEFAULT_MAX_BODY_BYTES caps a response body: far above any real answer, far below what would hurt. */
const DEFAULT_MAX_BODY_BYTES = 16 * 1024 * 1024;

/**
 * mayHaveReached tells whether the service may have carried an attempt out: it timed
 * out or was cancelled in flight, lost its connection after the request could have been
 * sent, or got an answer other than a refusal (a 2xx, even unreadable, or a 500, 502 or
 * 504). A 3xx, a 4xx, a 503 and a connection that never opened mean it was not done.
 */
function mayHaveReached(result: AttemptResult): boolean {
  switch (result.kind) {
    case 'timeout':
    case 'aborted':
      return true;
    case 'network':
      return !result.beforeSend;
    case 'response':
    case 'too-large':
      return (
        (result.status >= 200 && result.status < 300) ||
        (result.status >= 500 && !REFUSED_UNPROCESSED.has(result.status))
      );
  }
}

/** The service's advertised steady rate (`X-RateLimit-Limit`, requests per second), if sent. */
function readLimit(headers: Headers): number | undefined {
  const value = Number(headers.get('x-ratelimit-limit') ?? Number.NaN);
  return Number.isFinite(value) && value > 0 ? value : undefined;
}

function checkApiKey(raw: string): string {
  // A key read with `$(cat file)` or pasted often ends with a newline.
  const key = raw.trim();
  if (key === '') {
    throw new UsageError(
      'usage.api-key',
      'VIEWCTL_API_KEY is not set',
      'set it to the workspace key from the settings section for API and webhooks',
    );
  }
  // Redaction needs a key long enough not to match ordinary words in the output.
  if (key.length < MIN_KEY_LENGTH) {
    throw new UsageError(
      'usage.api-key',
      `VIEWCTL_API_KEY is ${key.length} ${key.length === 1 ? 'character' : 'characters'} long, too short to be a workspace key`,
      'copy the key again from the settings section for API and webhooks',
    );
  }
  // fetch would reject such a header with a message that quotes the key.
  if (!/^[\x21-\x7e]+$/.test(key)) {
    throw new UsageError(
      'usage.api-key',
      'VIEWCTL_API_KEY contains spaces, control or non-ASCII characters, which cannot go in an HTTP header',
      'copy the key again from the settings section for API and webhooks',
    );
  }
  return key;
}

function positive(name: string, value: number): number {
  if (!Number.isFinite(value) || value <= 0)
    throw new UsageError('usage.bad-number', `${name} must be a number above 0, got ${value}`);
  return value;
}

function wholeNumber(name: string, value: number, min: number): number {
  if (!Number.isInteger(value) || value < min)
    throw new UsageError('usage.bad-count', `${name} must be a whole number of at least ${min}, got ${value}`);
  return value;
}
