/**
 * What a response or a failed attempt means to the caller: the `result` of a success,
 * or a ServiceError with a stable code, a message naming the request
 * (`METHOD /v1/path?query`, never the key) and a hint on how to fix it
 * (the service's "Transport" and "Errors").
 */
import { isJsonObject } from '../domain/api-types.js';
import { ServiceError } from '../errors.js';
import { redactSecrets, redactValue } from '../secrets/redact.js';
import { NETWORK_CAUSES, type AttemptResult } from './http-attempt.js';
import { responseShapeProblem } from './response-shapes.js';

/** RequestContext names the request in messages and holds what redaction needs. */
export interface RequestContext {
  method: string;
  /** The route template: `/v1/deals/views/{viewId}`. */
  route: string;
  /** `METHOD /v1/route/{template}`: ServiceError.endpoint. */
  endpoint: string;
  /** `METHOD /v1/filled/path?query`: what messages show. */
  target: string;
  baseUrl: string;
  /** Only used to scrub the key from text the service sent back. */
  apiKey: string;
  /** Attempts made so far, this one included. */
  attempts: number;
}

interface ErrorBody {
  type?: string;
  message?: string;
  path?: string;
}

const BASE_URL_HINT = 'check --base-url or VIEWCTL_BASE_URL: it must be the service root, before /v1';

/**
 * successResult returns the `result` of a 2xx response: 200 must carry `{result}`;
 * 201 and other 2xx may also be empty, like 204 (the service: "accept 201 and 204").
 */
export function successResult(status: number, text: string, context: RequestContext): unknown {
  if (text.trim() === '' && status !== 200) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw badResponse(context, status, 'a body that is not JSON');
  }
  // Every string the service sent is cleaned of the key here, where it is read.
  const body = redactValue(parsed, context.apiKey);
  if (!isJsonObject(body) || !('result' in body)) {
    throw badResponse(context, status, 'JSON without a "result"');
  }
  const problem = responseShapeProblem(context.method, context.route, body.result);
  if (problem !== undefined) throw badResponse(context, status, `a result viewctl cannot use: ${problem}`);
  return body.result;
}

/** tooLargeError: the answer grew past the body cap, so the client stopped reading it. */
export function tooLargeError(status: number, limitBytes: number, context: RequestContext): ServiceError {
  const limit = `${Math.round(limitBytes / 1024 / 1024)} MiB`;
  return new ServiceError(
    'service.response-too-large',
    `the service's answer to ${context.target} (${status}) is larger than ${limit}; viewctl stopped reading it`,
    {
      endpoint: context.endpoint,
      status,
      hint: `no answer of the service is that large (500 views of a domain fit well under ${limit}): ${BASE_URL_HINT}, or look for a proxy in between`,
    },
  );
}

/** redirectError explains a 3xx: viewctl does not follow redirects (the key could leak). */
export function redirectError(status: number, location: string | null, context: RequestContext): ServiceError {
  const where = location === null ? '' : ` to ${safeOrigin(location, context.baseUrl)}`;
  return new ServiceError(
    'service.bad-response',
    `the service redirected ${context.target}${where} (${status}); viewctl does not follow redirects, so the key goes only to the base URL`,
    {
      endpoint: context.endpoint,
      status,
      hint: `${BASE_URL_HINT}; use the URL the service redirects to`,
    },
  );
}

/**
 * responseError turns a non-2xx response into a ServiceError. `outcomeUnknown` marks
 * a non-idempotent request that got a 5xx: it may have been processed.
 */
export function responseError(
  status: number,
  text: string,
  context: RequestContext,
  outcomeUnknown = false,
): ServiceError {
  const body = parseErrorBody(text, context.apiKey);
  const said = body.message === undefined ? '' : `: ${body.message}`;
  const details = {
    endpoint: context.endpoint,
    status,
    ...(body.type === undefined ? {} : { errorType: body.type }),
    ...(body.path === undefined ? {} : { path: body.path }),
  };
  const after = context.attempts > 1 ? ` after ${context.attempts} attempts` : '';
  if (outcomeUnknown) return outcomeUnknownError(`${context.target} failed with ${status}${said}`, details);
  if (status === 400) {
    const at = body.path === undefined ? '' : ` at "${body.path}"`;
    return new ServiceError('service.validation', `the service rejected ${context.target}${at}${said}`, {
      ...details,
      hint: body.path === undefined ? 'fix the request the message describes' : `fix the value of "${body.path}"`,
    });
  }
  if (status === 401) {
    return new ServiceError(
      'service.unauthorized',
      `the service did not accept the API key for ${context.target} (401)${said}`,
      {
        ...details,
        hint: 'check VIEWCTL_API_KEY; it is the workspace key from the settings section for API and webhooks',
      },
    );
  }
  if (status === 403) {
    return new ServiceError('service.forbidden', `the service refused ${context.target} (403)${said}`, {
      ...details,
      hint: "built-in default views can be neither updated nor deleted; other refusals come from the key's permissions",
    });
  }
  if (status === 404) {
    return new ServiceError('service.not-found', `not found: ${context.target} (404)${said}`, {
      ...details,
      hint: 'the id may be wrong or deleted, or the view is private (private views show only in pinned lists)',
    });
  }
  if (status === 429) {
    return new ServiceError('service.rate-limited', `${context.target} was still rate-limited (429)${after}${said}`, {
      ...details,
      hint: "another client may be sharing the workspace's limits: lower --rate or try again later",
    });
  }
  if (status >= 500) {
    return new ServiceError(
      'service.unavailable',
      `the service failed on ${context.target} (${status})${after}${said}`,
      {
        ...details,
        hint: 'the service is having trouble; try again later',
      },
    );
  }
  return new ServiceError('service.rejected', `the service rejected ${context.target} (${status})${said}`, {
    ...details,
    hint: BASE_URL_HINT,
  });
}

/** retryAfterTooLongError: the service asked for a wait longer than viewctl will sit through. */
export function retryAfterTooLongError(retryAfterMs: number, nowMs: number, context: RequestContext): ServiceError {
  const when = new Date(nowMs + retryAfterMs).toISOString();
  return new ServiceError(
    'service.rate-limited',
    `the service asked to wait ${Math.ceil(retryAfterMs / 1000)} s before retrying ${context.target} (429)`,
    {
      endpoint: context.endpoint,
      status: 429,
      hint: `try again after ${when}; the daily quota may be used up`,
    },
  );
}

/** networkError: no response (refused, DNS, reset). `outcomeUnknown` as in responseError. */
export function networkError(
  result: Extract<AttemptResult, { kind: 'network' }>,
  context: RequestContext,
  outcomeUnknown: boolean,
): ServiceError {
  const details = { endpoint: context.endpoint, cause: result.cause };
  if (outcomeUnknown)
    return outcomeUnknownError(`the connection failed during ${context.target} (${result.code})`, details);
  const after = context.attempts > 1 ? ` after ${context.attempts} attempts` : '';
  const why = NETWORK_CAUSES.get(result.code);
  return new ServiceError(
    'service.unreachable',
    `cannot reach the service at ${context.baseUrl} for ${context.target} (${result.code}${why === undefined ? '' : `: ${why}`})${after}`,
    {
      ...details,
      hint:
        result.code === 'ERR_BAD_PORT'
          ? 'serve the service (or `viewctl emulator --port N`) on another port and point --base-url at it'
          : `${BASE_URL_HINT}, and that the service (or \`viewctl emulator\`) is running`,
    },
  );
}

/** timeoutError: no complete answer within the per-attempt timeout. */
export function timeoutError(timeoutMs: number, context: RequestContext, outcomeUnknown: boolean): ServiceError {
  const within = `within ${timeoutMs < 1000 ? `${timeoutMs} ms` : `${Math.round(timeoutMs / 100) / 10} s`}`;
  if (outcomeUnknown)
    return outcomeUnknownError(`no answer to ${context.target} ${within}`, { endpoint: context.endpoint });
  const after = context.attempts > 1 ? ` (${context.attempts} attempts)` : '';
  return new ServiceError(
    'service.timeout',
    `no answer from ${context.baseUrl} to ${context.target} ${within}${after}`,
    {
      endpoint: context.endpoint,
      hint: `the service is slow or not answering; ${BASE_URL_HINT}, or try again later`,
    },
  );
}

/** abortedError: the run was cancelled (Ctrl-C) before or while the request was sent. */
export function abortedError(context: RequestContext, inFlight: boolean): ServiceError {
  const state = inFlight ? 'while it was in flight (the service may have carried it out)' : 'before it was sent';
  return new ServiceError('service.aborted', `${context.target} was cancelled ${state}`, {
    endpoint: context.endpoint,
    hint: 'run viewctl plan to see the live state',
  });
}

/** outcomeUnknownError: a write failed after it may have reached the service, so it was not repeated. */
function outcomeUnknownError(what: string, details: ConstructorParameters<typeof ServiceError>[2]): ServiceError {
  return new ServiceError(
    'service.outcome-unknown',
    `${what}; the service may or may not have carried it out, so viewctl did not repeat it`,
    {
      ...details,
      hint: 'read the live state again (viewctl plan) before retrying, so nothing is created twice',
    },
  );
}

function badResponse(context: RequestContext, status: number, what: string): ServiceError {
  return new ServiceError('service.bad-response', `the service answered ${context.target} (${status}) with ${what}`, {
    endpoint: context.endpoint,
    status,
    hint: BASE_URL_HINT,
  });
}

// The service should never echo the key, but a proxy or a faulty service might: each
// field is redacted before it is cut to length, so no fragment of the key survives.
function parseErrorBody(text: string, apiKey: string): ErrorBody {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return {};
  }
  const error = isJsonObject(body) ? body.error : undefined;
  if (!isJsonObject(error)) return {};
  const { type, message, path } = error;
  return {
    ...(typeof type === 'string' ? { type: redactSecrets(type, apiKey).slice(0, 100) } : {}),
    ...(typeof message === 'string' && message !== '' ? { message: redactSecrets(message, apiKey).slice(0, 500) } : {}),
    ...(typeof path === 'string' ? { path: redactSecrets(path, apiKey).slice(0, 200) } : {}),
  };
}

function safeOrigin(location: string, base: string): string {
  try {
    return new URL(location, base).origin;
  } catch {
    return 'an invalid location';
  }
}
