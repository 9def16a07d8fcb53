import { fullFormats } from 'ajv-formats/dist/formats.js';

/**
 * The one rule for the dates the service accepts: the view filters `createdAfterAt` /
 * `createdBeforeAt` and the `createdAfter` / `createdBefore` query parameters take an
 * RFC 3339 full-date (`2026-01-31`, read as midnight UTC) or date-time with seconds
 * and an offset (`2026-01-31T09:00:00Z`, `2026-01-31T10:00:00+01:00`), and only one
 * that exists: a month of 1 to 12, a day the month has (leap years counted), an hour
 * below 24, minutes and seconds below 60. A value that does not round-trip (`2026-02-30`
 * would be read as March 2) is refused, never adjusted.
 *
 * The test is ajv-formats' full-mode `date` / `date-time`, the very formats
 * `schemas/common.schema.json#/$defs/isoDate` names, so `viewctl validate` and the
 * emulator refuse exactly the same values. RFC 3339 allows a leap second
 * (`23:59:60` UTC); it counts as the first instant of the next minute, as POSIX time
 * counts it.
 */

type FormatTest = (text: string) => boolean;

function formatTest(name: 'date' | 'date-time'): FormatTest {
  const format: unknown = fullFormats[name];
  if (typeof format === 'function') return format as FormatTest;
  if (typeof format === 'object' && format !== null && 'validate' in format && typeof format.validate === 'function') {
    return format.validate as FormatTest;
  }
  throw new Error(`ajv-formats has no ${name} test`);
}

const isDate = formatTest('date');
const isDateTime = formatTest('date-time');

// Only ever applied to text one of the tests above accepted, so every group is in range.
const PARTS = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt\s](\d{2}):(\d{2}):(\d{2})(\.\d+)?(?:[Zz]|([+-])(\d{2})(?::?(\d{2}))?))?$/;

/** SERVICE_DATE_FORMS tells a client what to send instead of a refused date. */
export const SERVICE_DATE_FORMS =
  'use YYYY-MM-DD or a date-time with seconds and an offset, such as 2026-01-31T09:00:00Z';

/** parseServiceDate returns the instant (ms since the epoch) a service date names, or null when it is not one. */
export function parseServiceDate(text: string): number | null {
  if (!isDate(text) && !isDateTime(text)) return null;
  const match = PARTS.exec(text);
  if (match === null) return null;
  const [year, month, day, hour = 0, minute = 0, second = 0] = match
    .slice(1, 7)
    .map((part) => (part === undefined ? undefined : Number(part)));
  const at = new Date(0);
  // setUTCFullYear, not Date.UTC: Date.UTC reads years 0 to 99 as 1900 to 1999.
  at.setUTCFullYear(year as number, (month as number) - 1, day as number);
  at.setUTCHours(hour, minute, second, Math.floor(Number(`0${match[7] ?? ''}`) * 1000));
  const sign = match[8] === '-' ? -1 : 1;
  const offsetMinutes = match[8] === undefined ? 0 : sign * (Number(match[9]) * 60 + Number(match[10] ?? 0));
  return at.getTime() - offsetMinutes * 60_000;
}
