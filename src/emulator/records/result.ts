/**
 * EndpointResult is what a records endpoint function returns to the HTTP layer: either
 * the `result` payload of a 200, or an error the server wraps as
 * `{error: {type, message, path?}}` (the service's "Errors").
 */
export type EndpointResult =
  | { status: 200; result: unknown }
  | { status: 400 | 404; type: 'validation_error' | 'not_found'; message: string; path?: string };

/**
 * RecordsContext carries what record endpoints need from outside the data: the clock
 * (`now`, ms since epoch: relative filters and transcript expiry), whether the key has
 * Full access (private recordings), the base URL that built URLs start with, and the
 * secret that signs media download links.
 */
export interface RecordsContext {
  now: number;
  fullAccess: boolean;
  baseUrl: string;
  mediaSecret: string;
}

/** ok wraps a payload as a 200 EndpointResult. */
export function ok(result: unknown): EndpointResult {
  return { status: 200, result };
}

/** invalid builds a 400 `validation_error` naming the offending attribute. */
export function invalid(path: string, message: string): EndpointResult {
  return { status: 400, type: 'validation_error', message, path };
}

/** notFound builds a 404 `not_found`. */
export function notFound(message: string): EndpointResult {
  return { status: 404, type: 'not_found', message };
}
