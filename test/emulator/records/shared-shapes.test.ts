import { describe, expect, it } from 'vitest';
import {
  dealAgeDays,
  matchesBetween,
  matchesDealAge,
  matchesIn,
  matchesNotIn,
  matchesNumeric,
  matchesRelative,
  matchesString,
} from '../../../src/emulator/records/filters/shared-shapes.js';
import { DAY, NOW } from './fixtures.js';

describe('ViewNumericFilter', () => {
  it.each([
    [{ gte: 5 }, 5, true],
    [{ gte: 5 }, 4.9, false],
    [{ lte: 5 }, 5, true],
    [{ lte: 5 }, 6, false],
    [{ gte: 1, lte: 3 }, 2, true],
    [{ gte: 1, lte: 3 }, 4, false],
    [{ is: 3 }, 3, true],
    [{ is: 3 }, 2, false],
    [{ isNot: 3 }, 3, false],
    [{ isNot: 3 }, 2, true],
    [{ exists: true }, 0, true],
    [{ exists: false }, 0, false],
  ])('%j against %d is %s', (filter, value, expected) => {
    expect(matchesNumeric(filter, value)).toBe(expected);
  });

  it('matches a missing value only with exists: false or isNot', () => {
    expect(matchesNumeric({ exists: false }, null)).toBe(true);
    expect(matchesNumeric({ exists: true }, null)).toBe(false);
    expect(matchesNumeric({ isNot: 2 }, null)).toBe(true);
    expect(matchesNumeric({ gte: 0 }, null)).toBe(false);
    expect(matchesNumeric({ is: 0 }, null)).toBe(false);
  });
});

describe('ViewNumericBetweenFilter', () => {
  it('applies inclusive bounds and fails a missing value', () => {
    expect(matchesBetween({ gte: 60, lte: 120 }, 60)).toBe(true);
    expect(matchesBetween({ gte: 60, lte: 120 }, 121)).toBe(false);
    expect(matchesBetween({ lte: 10 }, 11)).toBe(false);
    expect(matchesBetween({ gte: 60 }, null)).toBe(false);
  });
});

describe('ViewStringFilter', () => {
  it('contains and containsNot are case-insensitive', () => {
    expect(matchesString({ contains: 'DEMO' }, 'Product demo')).toBe(true);
    expect(matchesString({ contains: 'call' }, 'Product demo')).toBe(false);
    expect(matchesString({ containsNot: 'Demo' }, 'product demo')).toBe(false);
    expect(matchesString({ containsNot: 'call' }, 'product demo')).toBe(true);
  });

  it('is and isNot are exact', () => {
    expect(matchesString({ is: 'Demo' }, 'Demo')).toBe(true);
    expect(matchesString({ is: 'demo' }, 'Demo')).toBe(false);
    expect(matchesString({ isNot: 'Demo' }, 'Demo')).toBe(false);
    expect(matchesString({ isNot: 'demo' }, 'Demo')).toBe(true);
  });

  it('exists tests for a non-empty value; a missing value matches only the negative tests', () => {
    expect(matchesString({ exists: true }, '')).toBe(false);
    expect(matchesString({ exists: false }, null)).toBe(true);
    expect(matchesString({ contains: 'a' }, null)).toBe(false);
    expect(matchesString({ containsNot: 'a' }, null)).toBe(true);
    expect(matchesString({ isNot: 'a' }, null)).toBe(true);
  });
});

describe('In / NotIn lists', () => {
  it('an include list needs an overlap; an empty list is not set', () => {
    expect(matchesIn(['a', 'b'], ['b'])).toBe(true);
    expect(matchesIn(['a'], ['b'])).toBe(false);
    expect(matchesIn(['a'], [])).toBe(false);
    expect(matchesIn([], ['b'])).toBe(true);
  });

  it('an exclude list needs no overlap', () => {
    expect(matchesNotIn(['a'], ['a', 'b'])).toBe(false);
    expect(matchesNotIn(['a'], [])).toBe(true);
  });
});

describe('relative dates and deal age', () => {
  it('after N is within the last N days, before N is older than that', () => {
    expect(matchesRelative(7, undefined, NOW - 6 * DAY, NOW)).toBe(true);
    expect(matchesRelative(7, undefined, NOW - 8 * DAY, NOW)).toBe(false);
    expect(matchesRelative(undefined, 7, NOW - 8 * DAY, NOW)).toBe(true);
    expect(matchesRelative(undefined, 7, NOW - 6 * DAY, NOW)).toBe(false);
    expect(matchesRelative(7, undefined, null, NOW)).toBe(false);
  });

  it('counts a closed deal until its closing and an open one until now', () => {
    expect(dealAgeDays(new Date(NOW - 10 * DAY).toISOString(), null, NOW)).toBe(10);
    expect(dealAgeDays(new Date(NOW - 10 * DAY).toISOString(), new Date(NOW - 7 * DAY).toISOString(), NOW)).toBe(3);
  });

  it.each([
    ['ZeroDay', 0, true],
    ['ZeroDay', 1, false],
    ['OneDay', 1, true],
    ['OneDay', 2, false],
    ['LessThan7Days', 6, true],
    ['LessThan7Days', 7, false],
    ['LessThan15Days', 14, true],
    ['LessThan30Days', 30, false],
    ['LessThan90Days', 89, true],
    ['LessThan180Days', 180, false],
    ['MoreThan180Days', 180, true],
    ['MoreThan180Days', 179, false],
  ])('%s with age %d is %s', (range, age, expected) => {
    expect(matchesDealAge(range, age)).toBe(expected);
  });
});
