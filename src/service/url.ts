/**
 * URL building for service requests. The route template stays the rate-limit endpoint
 * key (the service's "Rate limits": method + route template), while the filled
 * path is what goes on the wire and into messages.
 */
import { InternalError, UsageError } from '../errors.js';
import type { HttpMethod, ServiceRequest } from './types.js';

const PLACEHOLDER = /\{([A-Za-z0-9_]+)\}/g;

/** endpointKey is the rate-limit key of a request: `METHOD /v1/route/{template}`. */
export function endpointKey(method: HttpMethod, route: string): string {
  return `${method} ${route}`;
}

/**
 * fillRoute replaces each `{name}` of `route` with its URL-encoded value. A missing or
 * unused parameter is a bug in the caller, so it throws InternalError rather than
 * sending a request to a wrong path.
 */
export function fillRoute(route: string, params: Record<string, string> = {}): string {
  const used = new Set<string>();
  const path = route.replace(PLACEHOLDER, (_match, name: string) => {
    const value = params[name];
    if (value === undefined) throw new InternalError(`route ${route} needs parameter "${name}"`);
    if (value === '') throw new InternalError(`route ${route} got an empty "${name}"`);
    used.add(name);
    return encodeURIComponent(value);
  });
  const unused = Object.keys(params).filter((name) => !used.has(name));
  if (unused.length > 0) throw new InternalError(`route ${route} has no parameter ${unused.join(', ')}`);
  return path;
}

/** buildQuery renders a query string (without `?`), skipping undefined values, in key order. */
export function buildQuery(query: ServiceRequest['query'] = {}): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined) search.append(name, String(value));
  }
  return search.toString();
}

/** requestPath is the path and query of a request, e.g. `/v1/deals/views/pinned?userEmail=a%40b.co`. */
export function requestPath(request: Pick<ServiceRequest, 'route' | 'params' | 'query'>): string {
  const path = fillRoute(request.route, request.params);
  const query = buildQuery(request.query);
  return query === '' ? path : `${path}?${query}`;
}

/**
 * parseBaseUrl checks the service root (`--base-url` / `VIEWCTL_BASE_URL`) and returns
 * it without a trailing slash. It must be http(s), carry no credentials (they would
 * be printed in messages), no query or fragment, and end before `/v1`.
 */
export function parseBaseUrl(raw: string): string {
  const hint =
    'set --base-url or VIEWCTL_BASE_URL to the service root, e.g. https://api.example.com or http://127.0.0.1:4010';
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new UsageError('usage.base-url', `the base URL "${raw}" is not a URL`, hint);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(
      'usage.base-url',
      `the base URL must start with http:// or https://, got "${url.protocol}"`,
      hint,
    );
  }
  if (url.username !== '' || url.password !== '') {
    // Do not echo the URL: the credentials in it are secrets.
    throw new UsageError(
      'usage.base-url',
      'the base URL must not carry a user name or password',
      'the API key goes in VIEWCTL_API_KEY',
    );
  }
  if (url.search !== '' || url.hash !== '') {
    throw new UsageError(
      'usage.base-url',
      `the base URL "${url.origin}${url.pathname}" must not have a query or fragment`,
      hint,
    );
  }
  const root = `${url.origin}${url.pathname}`.replace(/\/+$/, '');
  if (/\/v1$/.test(root)) {
    throw new UsageError(
      'usage.base-url',
      `the base URL "${root}" ends with /v1, but viewctl adds /v1 itself`,
      `use ${root.slice(0, -'/v1'.length) || url.origin}`,
    );
  }
  return root;
}
