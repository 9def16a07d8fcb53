/**
 * Lookups by a client-given string. A plain object inherits `__proto__`,
 * `constructor`, `toString`, `valueOf`, `hasOwnProperty`... from Object.prototype, so
 * `table[key]` finds a function (or the prototype itself) for those names and a
 * handler that calls it answers 500 instead of 400. Every table the emulator reads
 * with a string from a request or a data file goes through these helpers.
 */

/** ownValue returns `table[key]` only when `key` is the table's own property. */
export function ownValue<T>(table: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

/** setOwn stores `value` as an own property, even for `__proto__` (which `=` would treat as the prototype). */
export function setOwn<T>(table: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(table, key, { value, writable: true, enumerable: true, configurable: true });
}
