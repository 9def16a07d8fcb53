import { describe, expect, it } from 'vitest';
import { continuation, nextPlanStep } from '../../src/render/export-next.js';
import { loweredBudget, readCeiling } from '../../src/state/read-ceiling.js';

// What an export prints last: the command that continues a budgeted export, and the
// plan that fits in what is left of the day.

describe('the command that continues a budgeted export', () => {
  it('is export --merge --budget, which adds only what is missing, never --force', () => {
    const text = continuation(
      { read: 2, skipped: 4, remaining: 5 },
      { out: 'my manifests', budget: 400, reserve: 300, baseUrl: 'https://api.example.com' },
    );
    expect(text).toBe(
      'pinned views of 2 members exported by this run, 4 already in the folder (their files are kept as they are); 5 members remain: continue with (it adds only what is missing, never rewrites a file)\n' +
        "  viewctl export --merge --out 'my manifests' --all-users --budget 400 --base-url https://api.example.com\n",
    );
    expect(text).not.toContain('--force');
  });

  it('says when every member is exported, and prints no command', () => {
    expect(continuation({ read: 1, skipped: 6, remaining: 0 }, { out: 'm', budget: 15, reserve: 300 })).toBe(
      'pinned views of 1 member exported by this run, 6 already in the folder (their files are kept as they are); every member is exported\n',
    );
  });

  it('repeats a --reserve other than the default, and says when what is left today lowered the budget', () => {
    const ceiling = readCeiling({ budget: 400, reserve: 0, spent: 1, remaining: 99, least: 11 });
    expect(
      continuation(
        { read: 2, skipped: 0, remaining: 5 },
        { out: 'm', budget: 400, reserve: 0, lowered: loweredBudget(ceiling) },
      ),
    ).toBe(
      '--budget 400 lowered to 100, the 100 left today\n' +
        'pinned views of 2 members exported by this run, 0 already in the folder (their files are kept as they are); 5 members remain: continue with (it adds only what is missing, never rewrites a file)\n' +
        '  viewctl export --merge --out m --all-users --budget 400 --reserve 0\n',
    );
  });
});

describe('the plan an export says to run next', () => {
  it('is the plain plan, with its cost, when a full plan fits in what is left today', () => {
    expect(nextPlanStep('m', { planReads: 22, dailyRemaining: 2_900, reserve: 300, remaining: 0 })).toBe(
      'next: viewctl plan m (it should show no changes; about 22 requests)\n',
    );
    expect(nextPlanStep('m', { planReads: 22, dailyRemaining: null, reserve: 300, remaining: 3 })).toBe(
      'next: viewctl plan m (it plans the members exported so far; it should show no changes; about 22 requests)\n',
    );
  });

  it('after a partial export whose full plan the quota would refuse, is the --budget plan that fits, with the figures', () => {
    // The plan keeps --reserve too: 1,200 left less 300 leaves 900, under the export's own 1,000.
    const text = nextPlanStep('m', {
      planReads: 3_528,
      dailyRemaining: 1_200,
      budget: 1_000,
      reserve: 300,
      remaining: 600,
    });
    expect(text).toMatch(/^next: viewctl plan m --budget 900 \(/);
    expect(text).toContain('a full plan reads about 3,528 requests, more than the 1,200 left today less --reserve 300');
    // Without an export budget, what may be spent today is the ceiling; a --reserve other than the default is repeated.
    expect(nextPlanStep('m', { planReads: 3_528, dailyRemaining: 900, reserve: 0, remaining: 600 })).toMatch(
      /^next: viewctl plan m --budget 900 --reserve 0 /,
    );
    // A full plan that fits in what is left but not beside the reserve is budgeted too.
    expect(nextPlanStep('m', { planReads: 1_000, dailyRemaining: 1_200, reserve: 300, remaining: 0 })).toMatch(
      /^next: viewctl plan m --budget 900 /,
    );
  });

  it('says to wait for the quota when not even a budgeted plan fits today', () => {
    const text = nextPlanStep('m', { planReads: 40, dailyRemaining: 2, budget: 15, reserve: 300, remaining: 1 });
    expect(text).toMatch(/^next: viewctl plan m --budget 15 /);
    expect(text).toContain("today's quota is spent, so run it once the rolling 24-hour budget has recovered");
  });

  it('is the full plan, once the quota recovers, when a day pays for it (never a --budget as large as the plan)', () => {
    // The 1,000-member trial: day one's export spent the day; its plan fits in tomorrow's 3,000 less the reserve.
    const text = nextPlanStep('m', {
      planReads: 2_674,
      dailyRemaining: 300,
      budget: 2_684,
      reserve: 300,
      remaining: 211,
    });
    expect(text).toMatch(/^next: viewctl plan m once the rolling 24-hour budget has recovered \(/);
    expect(text).toContain(
      "a full plan reads about 2,674 requests, more than the 300 left today less --reserve 300, within a day's 3,000",
    );
    expect(text).not.toContain('--budget');
  });

  it('is the plain plan when the folder cannot be planned as it is (the plan will say why)', () => {
    expect(nextPlanStep('m', { planReads: undefined, dailyRemaining: 3, reserve: 300, remaining: 0 })).toBe(
      'next: viewctl plan m (it should show no changes)\n',
    );
  });
});
