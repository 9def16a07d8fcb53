import { isJsonObject } from '../../../domain/api-types.js';
import { ownValue } from '../../own.js';
import type { FilterEnv } from './env.js';
import { DAY_MS } from '../../time.js';
import type { DealAgeRange } from '../../views/view-shapes.js';

/**
 * Evaluation of the service's shared filter shapes
 * and the list conventions every domain uses. Filters arrive as stored JSON (already
 * validated on write), so readers here are tolerant: a value of the wrong type is
 * treated as "not set" rather than throwing while listing records.
 *
 * Conventions settled here (the spec does not show them):
 * - An empty `...In` / `...NotIn` array is "not set", as in the application's filter
 *   bar where clearing the last chip removes the filter.
 * - `...In` matches when the record has at least one listed value; `...NotIn` matches
 *   when it has none. A record with no value (no linked deal, no company) fails an
 *   `In` filter and passes a `NotIn` filter.
 * - ViewNumericFilter: every set attribute must hold; a missing value matches only
 *   `exists: false` and `isNot` (a missing value is not that number).
 * - ViewStringFilter: `contains` / `containsNot` are case-insensitive substring tests;
 *   `is` / `isNot` are exact, case-sensitive comparisons; `exists` tests for a
 *   non-empty value. A missing value matches only `containsNot`, `isNot` and
 *   `exists: false`.
 */

/** JsonRecord is a filter object as stored. */
export type JsonRecord = Record<string, unknown>;

/**
 * FilterTable evaluates the view filters of one domain, one entry per attribute: each
 * tests a record against the attribute's value.
 */
export type FilterTable<T, E = FilterEnv> = Record<string, (value: unknown, record: T, env: E) => boolean>;

/**
 * matchesFilters tells whether a record passes every set attribute of a view's filters.
 * Attributes absent from the table (internal ones the API does not expose) do not narrow.
 */
export function matchesFilters<T, E>(table: FilterTable<T, E>, filters: JsonRecord, record: T, env: E): boolean {
  return Object.entries(filters).every(([attribute, value]) => {
    const predicate = ownValue(table, attribute);
    return predicate === undefined || value === undefined || value === null || predicate(value, record, env);
  });
}

/** inNotIn makes the `<name>In` and `<name>NotIn` filters over the values `read` finds on a record. */
export function inNotIn<T, E = FilterEnv>(
  name: string,
  read: (record: T, env: E) => readonly string[],
): FilterTable<T, E> {
  return {
    [`${name}In`]: (value, record, env) => matchesIn(value, read(record, env)),
    [`${name}NotIn`]: (value, record, env) => matchesNotIn(value, read(record, env)),
  };
}

/** stringList reads an array of strings; non-arrays and non-string entries are dropped. */
export function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === 'string') : [];
}

/** entryList reads an array of objects (author, people, insight entries). */
export function entryList(value: unknown): JsonRecord[] {
  return Array.isArray(value) ? value.filter(isJsonObject) : [];
}

function numberValue(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/**
 * matchesIn checks an `...In` list against a record's values (any overlap); an unset or
 * empty list always matches.
 */
export function matchesIn(list: unknown, values: readonly string[]): boolean {
  const wanted = stringList(list);
  return wanted.length === 0 || wanted.some((value) => values.includes(value));
}

/** matchesNotIn checks an `...NotIn` list: the record has none of the listed values. */
export function matchesNotIn(list: unknown, values: readonly string[]): boolean {
  const unwanted = stringList(list);
  return unwanted.every((value) => !values.includes(value));
}

/** matchesNumeric evaluates a ViewNumericFilter against a value (null: missing). */
export function matchesNumeric(filter: unknown, value: number | null): boolean {
  if (!isJsonObject(filter)) return true;
  if (typeof filter.exists === 'boolean' && filter.exists !== (value !== null)) return false;
  const is = numberValue(filter.is);
  const isNot = numberValue(filter.isNot);
  const gte = numberValue(filter.gte);
  const lte = numberValue(filter.lte);
  if (value === null) return is === undefined && gte === undefined && lte === undefined;
  if (is !== undefined && value !== is) return false;
  if (isNot !== undefined && value === isNot) return false;
  if (gte !== undefined && value < gte) return false;
  if (lte !== undefined && value > lte) return false;
  return true;
}

/** matchesBetween evaluates a ViewNumericBetweenFilter (inclusive bounds); a missing value fails. */
export function matchesBetween(filter: unknown, value: number | null): boolean {
  if (!isJsonObject(filter)) return true;
  const gte = numberValue(filter.gte);
  const lte = numberValue(filter.lte);
  if (gte === undefined && lte === undefined) return true;
  if (value === null) return false;
  return (gte === undefined || value >= gte) && (lte === undefined || value <= lte);
}

/** matchesString evaluates a ViewStringFilter against a value (null or '': missing). */
export function matchesString(filter: unknown, value: string | null): boolean {
  if (!isJsonObject(filter)) return true;
  const present = value !== null && value !== '';
  if (typeof filter.exists === 'boolean' && filter.exists !== present) return false;
  const text = present ? value : '';
  const lower = text.toLowerCase();
  if (typeof filter.contains === 'string' && !(present && lower.includes(filter.contains.toLowerCase()))) return false;
  if (typeof filter.containsNot === 'string' && present && lower.includes(filter.containsNot.toLowerCase()))
    return false;
  if (typeof filter.is === 'string' && !(present && text === filter.is)) return false;
  if (typeof filter.isNot === 'string' && present && text === filter.isNot) return false;
  return true;
}

/** timestamp parses an ISO date or timestamp string to ms; null when absent or unparsable. */
export function timestamp(value: string | null | undefined): number | null {
  if (value === null || value === undefined) return null;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : ms;
}

/**
 * matchesRelative evaluates an `...AfterRelative` / `...BeforeRelative` pair of day
 * counts: "after N" is within the last N days (at or after now - N days), "before N"
 * is not within the last N days (strictly before now - N days). A missing date fails
 * whenever either bound is set.
 */
export function matchesRelative(after: unknown, before: unknown, at: number | null, now: number): boolean {
  const afterDays = numberValue(after);
  const beforeDays = numberValue(before);
  if (afterDays === undefined && beforeDays === undefined) return true;
  if (at === null) return false;
  if (afterDays !== undefined && at < now - afterDays * DAY_MS) return false;
  if (beforeDays !== undefined && at >= now - beforeDays * DAY_MS) return false;
  return true;
}

/**
 * AGE_TESTS gives each `dealAgeRange` value (DEAL_AGE_RANGES) the ages, in whole days,
 * it covers. The "LessThan" ranges are cumulative as their names say, so a deal opened
 * today is in ZeroDay and in every LessThan range.
 */
const AGE_TESTS: Record<DealAgeRange, (days: number) => boolean> = {
  ZeroDay: (days) => days < 1,
  OneDay: (days) => days >= 1 && days < 2,
  LessThan7Days: (days) => days < 7,
  LessThan15Days: (days) => days < 15,
  LessThan30Days: (days) => days < 30,
  LessThan90Days: (days) => days < 90,
  LessThan180Days: (days) => days < 180,
  MoreThan180Days: (days) => days >= 180,
};

/**
 * dealAgeDays is the age of a deal in whole days: from opening to closing for a closed
 * deal (its age stops when it closes), to `now` for an open one.
 */
export function dealAgeDays(openedAt: string, closedAt: string | null, now: number): number | null {
  const opened = timestamp(openedAt);
  if (opened === null) return null;
  const end = timestamp(closedAt) ?? now;
  return Math.floor(Math.max(0, end - opened) / DAY_MS);
}

/** matchesDealAge evaluates a `dealAgeRange` value against an age; unset or unknown ranges match. */
export function matchesDealAge(range: unknown, ageDays: number | null): boolean {
  if (typeof range !== 'string') return true;
  const test = Object.hasOwn(AGE_TESTS, range) ? AGE_TESTS[range as DealAgeRange] : undefined;
  if (test === undefined) return true;
  return ageDays !== null && test(ageDays);
}
