import type { EndpointResult } from './result.js';
import { success, validationError } from '../route-result.js';

/** DEFAULT_LIMIT and MAX_LIMIT bound `limit` (the service's "Records"). */
const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 100;

const CURSOR_PREFIX = 'o:';

/**
 * encodeCursor makes the opaque cursor for a page starting at `offset`. It is base64url
 * of a tagged offset, so clients cannot mistake it for a number and a hand-made value
 * is detected as malformed.
 */
export function encodeCursor(offset: number): string {
  return Buffer.from(`${CURSOR_PREFIX}${offset}`, 'utf8').toString('base64url');
}

/** decodeCursor reads a cursor made by encodeCursor; undefined when it is malformed. */
export function decodeCursor(cursor: string): number | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) return undefined;
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!text.startsWith(CURSOR_PREFIX)) return undefined;
  const digits = text.slice(CURSOR_PREFIX.length);
  if (!/^(0|[1-9][0-9]{0,8})$/.test(digits)) return undefined;
  return Number(digits);
}

/**
 * parseLimit reads the `limit` query parameter: an integer from 1 to 100, default 20.
 * Returns the number, or the 400 to answer.
 */
export function parseLimit(query: URLSearchParams): number | EndpointResult {
  const raw = query.get('limit');
  if (raw === null) return DEFAULT_LIMIT;
  if (!/^[0-9]+$/.test(raw.trim())) {
    return validationError('limit', `limit must be an integer from 1 to ${MAX_LIMIT}`);
  }
  const limit = Number(raw.trim());
  if (limit < 1 || limit > MAX_LIMIT) {
    return validationError('limit', `limit must be an integer from 1 to ${MAX_LIMIT}, got ${limit}`);
  }
  return limit;
}

/**
 * paginate returns one page of `items` as `{[key]: page, pagination: {nextCursor?,
 * totalCount}}`. `limit` is 1..100 (default 20); `cursor` is opaque and must come from
 * an earlier `nextCursor`, else 400 with path `cursor`. A cursor past the end gives an
 * empty last page (the list may have shrunk between calls). `nextCursor` is absent on
 * the last page. `shape` turns the page's items into response entries, so only one page
 * of them is built.
 */
export function paginate<T>(
  items: T[],
  query: URLSearchParams,
  key: string,
  shape: (item: T) => unknown = (item) => item,
): EndpointResult {
  const limit = parseLimit(query);
  if (typeof limit !== 'number') return limit;
  const cursor = query.get('cursor');
  const offset = cursor === null ? 0 : decodeCursor(cursor);
  if (offset === undefined) return validationError('cursor', 'cursor is not a value returned as nextCursor');
  const page = items.slice(offset, offset + limit);
  const end = offset + page.length;
  const pagination: { nextCursor?: string; totalCount: number } = { totalCount: items.length };
  if (end < items.length) pagination.nextCursor = encodeCursor(end);
  return success({ [key]: page.map(shape), pagination });
}
