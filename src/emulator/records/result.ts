import type { RouteContext, RouteResult } from '../route-result.js';

/**
 * EndpointResult is what a records endpoint function returns to the HTTP layer: the
 * `result` payload of a 200 (records endpoints never change the workspace), or a 400 or
 * 404 the server wraps as `{error: {type, message, path?}}` (the service's "Errors").
 */
export type EndpointResult = RouteResult;

/**
 * RecordsContext carries what record endpoints need from outside the data: the clock
 * (`now`, ms since epoch: relative filters and transcript expiry), whether the key has
 * Full access (private recordings), the base URL that built URLs start with, and the
 * secret that signs media download links.
 */
export type RecordsContext = Pick<RouteContext, 'now' | 'fullAccess' | 'baseUrl' | 'mediaSecret'>;
