import type { EmulatorData } from './model.js';

/**
 * RouteResult is what a route handler hands the HTTP layer: a 200 payload (and
 * whether the workspace changed, so the server persists and counts a write) or an
 * error the server wraps as `{error: {type, message, path?}}`.
 */
export type RouteResult =
  | { status: 200; result: unknown; changed?: boolean }
  | {
      status: 400 | 403 | 404;
      type: 'validation_error' | 'forbidden' | 'not_found';
      message: string;
      path?: string;
    };

/** RouteContext is everything a handler may read; only `data` may be mutated. */
export interface RouteContext {
  data: EmulatorData;
  /** Decoded values of the route template's `{placeholders}`. */
  params: Record<string, string>;
  query: URLSearchParams;
  /** The parsed JSON body; undefined when the request had none. */
  body: unknown;
  now: number;
  fullAccess: boolean;
  baseUrl: string;
  /** Signs the media download links the transcript endpoint hands out. */
  mediaSecret: string;
}

/** success wraps a payload as a 200; `changed` marks a write. */
export function success(result: unknown, changed?: boolean): RouteResult {
  return { status: 200, result, changed };
}

/** validationError builds a 400 `validation_error`; `path` names the attribute (dotted). */
export function validationError(path: string | undefined, message: string): RouteResult {
  return path === undefined
    ? { status: 400, type: 'validation_error', message }
    : { status: 400, type: 'validation_error', message, path };
}

export function notFound(message: string): RouteResult {
  return { status: 404, type: 'not_found', message };
}

export function forbidden(message: string): RouteResult {
  return { status: 403, type: 'forbidden', message };
}
