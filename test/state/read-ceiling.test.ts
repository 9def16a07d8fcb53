import { describe, expect, it } from 'vitest';
import { loweredBudget, readCeiling, roomLeft } from '../../src/state/read-ceiling.js';
import { userReads } from '../../src/state/user-pages.js';

/** The one computation of a run's least and most: min(--budget, what is left today − --reserve). */

describe('readCeiling', () => {
  it('is the budget when what is left less the reserve pays for it, and what is left less the reserve when not', () => {
    // The service said 2,299 after the run's first request: 2,300 were left when it began.
    expect(readCeiling({ budget: 1000, reserve: 300, spent: 1, remaining: 2299, least: 5 })).toEqual({
      least: 5,
      most: 1000,
      left: 2300,
      reserve: 300,
      budget: 1000,
    });
    const lowered = readCeiling({ budget: 2300, reserve: 300, spent: 1, remaining: 1213, least: 5 });
    expect(lowered).toMatchObject({ most: 914, left: 1214 });
    expect(loweredBudget(lowered)).toEqual({ most: 914, left: 1214, reserve: 300 });
    expect(
      loweredBudget(readCeiling({ budget: 914, reserve: 300, spent: 1, remaining: 1213, least: 5 })),
    ).toBeUndefined();
  });

  it('is the budget alone before the service says what is left, and unbounded with neither', () => {
    expect(readCeiling({ budget: 40, reserve: 300, spent: 0, remaining: null, least: 5 })).toMatchObject({
      most: 40,
      left: null,
    });
    expect(readCeiling({ reserve: 300, spent: 1, remaining: null, least: 5 }).most).toBeNull();
    expect(readCeiling({ reserve: 300, spent: 1, remaining: 999, least: 5 }).most).toBe(700);
  });

  it('says whether the quota or the budget falls short of the least, the quota first: a larger budget would not help', () => {
    expect(readCeiling({ budget: 1000, reserve: 300, spent: 1, remaining: 119, least: 5 }).short).toBe('quota');
    expect(readCeiling({ budget: 4, reserve: 300, spent: 1, remaining: 119, least: 5 }).short).toBe('quota');
    expect(readCeiling({ budget: 4, reserve: 300, spent: 1, remaining: 2999, least: 5 }).short).toBe('budget');
    expect(readCeiling({ budget: 0, reserve: 300, spent: 0, remaining: null, least: 5 }).short).toBe('budget');
    expect(readCeiling({ budget: 5, reserve: 0, spent: 1, remaining: 4, least: 5 }).short).toBeUndefined();
    expect(readCeiling({ reserve: 300, spent: 1, remaining: 303, least: 5 }).short).toBe('quota');
  });
});

describe('roomLeft', () => {
  it('is what the ceiling leaves, and never more than the service now says is left less the reserve', () => {
    const ceiling = readCeiling({ budget: 100, reserve: 300, spent: 1, remaining: 1000, least: 5 });
    expect(roomLeft(ceiling, 10, 990)).toBe(90);
    // The other integrations spent 700 meanwhile.
    expect(roomLeft(ceiling, 10, 330)).toBe(30);
    expect(roomLeft(ceiling, 10, 250)).toBe(0);
    expect(roomLeft(readCeiling({ reserve: 0, spent: 0, remaining: null, least: 1 }), 10, null)).toBe(
      Number.POSITIVE_INFINITY,
    );
  });
});

describe('userReads', () => {
  it('is a request per 100 members, one at least', () => {
    expect([0, 1, 100, 101, 870, 1000].map(userReads)).toEqual([1, 1, 1, 2, 9, 10]);
  });
});
