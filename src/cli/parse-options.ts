import { UsageError } from '../errors.js';

/** parsePositiveNumber parses a flag value that must be a number above zero. */
export function parsePositiveNumber(value: string, flag: string): number {
  const number = Number(value);
  if (value.trim() === '' || !Number.isFinite(number) || number <= 0) {
    throw new UsageError('usage.bad-number', `${flag} must be a number above 0, got "${value}"`, `for example ${flag} 3`);
  }
  return number;
}

/** parseCount parses a flag value that must be a whole number, zero or more. */
export function parseCount(value: string, flag: string): number {
  const number = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(number)) {
    throw new UsageError('usage.bad-count', `${flag} must be a whole number (0 or more), got "${value}"`, `for example ${flag} 5`);
  }
  return number;
}
