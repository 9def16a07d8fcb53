import { UsageError } from '../errors.js';

/**
 * NumberRange is what a numeric flag accepts: a whole number or any decimal, from
 * `min` to `max` (both included unless `aboveMin`), and the error code of a bad value.
 */
interface NumberRange {
  min: number;
  max: number;
  integer?: boolean;
  /** `min` itself is refused: the value must be above it. */
  aboveMin?: boolean;
  /** The error code (default `usage.bad-number`, or `usage.bad-count` for whole numbers). */
  code?: string;
}

/** RATE_RANGE is what `--rate` accepts: slower waits minutes per request, faster is no limit at all. */
const RATE_RANGE: NumberRange = { min: 0.1, max: 1000 };

const DECIMAL = /^\+?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?$/i;
const WHOLE = /^\+?\d+$/;

/**
 * parseNumberFlag is the one parser of numeric flags: plain decimal text (no hex, no
 * `Infinity`, no blank), inside the flag's range, or a UsageError naming the flag, the
 * range and an example.
 */
export function parseNumberFlag(value: string, flag: string, range: NumberRange): number {
  const text = value.trim();
  const number = Number(text);
  const shaped = (range.integer === true ? WHOLE : DECIMAL).test(text) && Number.isFinite(number);
  const inRange = (range.aboveMin === true ? number > range.min : number >= range.min) && number <= range.max;
  if (shaped && inRange && (range.integer !== true || Number.isSafeInteger(number))) return number;
  const what = range.integer === true ? 'an integer' : 'a number';
  const low = String(range.min);
  const bounds =
    range.max === Number.MAX_SAFE_INTEGER
      ? range.aboveMin === true
        ? `above ${low}`
        : `of at least ${low}`
      : range.aboveMin === true
        ? `above ${low} and at most ${String(range.max)}`
        : `from ${low} to ${String(range.max)}`;
  throw new UsageError(
    range.code ?? (range.integer === true ? 'usage.bad-count' : 'usage.bad-number'),
    `${flag} must be ${what} ${bounds}, got "${value}"`,
    `for example ${flag} ${String(Math.max(range.min, Math.min(range.max, range.integer === true ? 5 : 3)))}`,
  );
}

/** parseRate parses `--rate`, requests per second per endpoint: 0.1 to 1,000. */
export function parseRate(value: string): number {
  return parseNumberFlag(value, '--rate', RATE_RANGE);
}

/** parseCount parses a flag value that must be a whole number, zero or more. */
export function parseCount(value: string, flag: string): number {
  return parseNumberFlag(value, flag, { min: 0, max: Number.MAX_SAFE_INTEGER, integer: true });
}
