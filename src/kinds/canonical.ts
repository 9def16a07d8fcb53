import type { JsonObject, JsonValue } from '../domain/api-types.js';

/**
 * Canonical JSON: the one spelling of a value that hashing, set ordering and
 * equality rely on. Object keys are sorted by code point at every depth, and
 * `undefined` members are dropped (they do not survive JSON anyway).
 */

/** canonicalize returns a deep copy of `value` whose object keys are sorted. */
export function canonicalize<T extends JsonValue>(value: T): T;
export function canonicalize(value: JsonValue): JsonValue {
  if (Array.isArray(value)) return value.map((item) => canonicalize(item));
  if (value === null || typeof value !== 'object') return value;
  // The default sort compares UTF-16 code units, as compareCodePoints does, and is
  // quicker with no comparator to call: plans canonicalise every view they compare.
  const keys = Object.keys(value).sort();
  const out: JsonObject = {};
  for (const key of keys) {
    const member = value[key];
    if (member === undefined) continue;
    // `out[key] =` would set the prototype for a `__proto__` key (JSON.parse keeps it
    // as an attribute) and drop it from every diff: define it as an own attribute.
    if (key === '__proto__')
      Object.defineProperty(out, key, {
        value: canonicalize(member),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    else out[key] = canonicalize(member);
  }
  return out;
}

/** canonicalJson is `JSON.stringify` of `canonicalize(value)`, without whitespace; `value` must be plain JSON data. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(canonicalize(value as JsonValue));
}

/** compareCodePoints orders strings by UTF-16 code units, independent of locale. */
export function compareCodePoints(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * compareJsonValues orders set members: numbers first (numerically), then strings (by
 * code point), then anything else (objects such as author or people entries) by
 * canonical JSON. A total order, so sorting is independent of the input order.
 */
export function compareJsonValues(a: JsonValue, b: JsonValue): number {
  const rank = (value: JsonValue): number => (typeof value === 'number' ? 0 : typeof value === 'string' ? 1 : 2);
  const byRank = rank(a) - rank(b);
  if (byRank !== 0) return byRank;
  if (typeof a === 'string' && typeof b === 'string') return compareCodePoints(a, b);
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return compareCodePoints(canonicalJson(a), canonicalJson(b));
}

/** sortedSet returns the canonical members of `values`, sorted and without duplicates. */
export function sortedSet(values: readonly JsonValue[]): JsonValue[] {
  const byKey = new Map<string, JsonValue>();
  for (const value of values) {
    const member = canonicalize(value);
    byKey.set(canonicalJson(member), member);
  }
  return [...byKey.values()].sort(compareJsonValues);
}

/** jsonEqual tells whether two JSON values are equal once canonicalised. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  return canonicalJson(a) === canonicalJson(b);
}
