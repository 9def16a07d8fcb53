/**
 * The service client's public surface, for the CLI and the core. Import from here
 * rather than from the individual files.
 */
export { createServiceClient, type ClientOptions } from './client.js';
export { systemClock, sleep, type Clock } from './clock.js';
export type { FetchLike } from './http-attempt.js';
export { formatRequestEvent, verboseLogger, type TextSink } from './verbose-log.js';
export { endpointKey, requestPath } from './url.js';
export type { HttpMethod, RequestEvent, ServiceClient, ServiceRequest, ServiceStats } from './types.js';
