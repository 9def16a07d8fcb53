import { describe, expect, it } from 'vitest';
import { runSoak } from '../bench/soak.js';

/**
 * The soak (test/bench/soak.ts, `npm run bench -- --soak`) on one seed, so it cannot rot
 * unnoticed: it runs every scenario of a seed, each meets faults of its kind, and its
 * report adds up. What the product must do under those faults (converge, double
 * nothing, exit truthfully) is the convergence property's (convergence.test.ts) and
 * the end-to-end run's (test/e2e/convergence.test.ts), not this test's; the soak
 * reports it over many seeds.
 */

describe('runSoak', () => {
  it('runs the mixed, concurrent, 503 and slow-create scenarios of a seed, each meeting its faults, and the budget run, and accounts for every apply', async () => {
    const lines: string[] = [];
    const report = await runSoak({ seeds: 1, log: (line) => void lines.push(line) });
    const kinds = Object.entries(report.byKind).map(([kind, totals]) => [
      kind,
      totals.scenarios,
      totals.faultsInjected > 0,
    ]);
    expect(kinds.sort()).toEqual([
      ['concurrent', 1, true],
      ['fail-503', 1, true],
      ['mixed', 1, true],
      ['slow-create', 1, true],
    ]);
    expect(report.scenarios).toBe(4);
    const { convergedIn1, convergedIn2, convergedIn3, failed } = report.outcomes;
    expect(convergedIn1 + convergedIn2 + convergedIn3 + failed).toBe(report.scenarios);
    // Every scenario applies once at least; the concurrent one twice at once.
    expect(report.runs).toBeGreaterThanOrEqual(report.scenarios + 1);
    // A plan --budget above the service's quota: a plan printed within what is left less the reserve, and no quota-exhausted.
    expect(report.budget).toEqual({
      runs: 1,
      plansPrinted: 1,
      refusedUpFront: 0,
      quotaExhausted: 0,
      rateLimited: 0,
      failed: 0,
    });
    // One line per scenario and the budget run, then the totals.
    expect(lines).toHaveLength(report.scenarios + 2);
    expect(lines.at(-1)).toMatch(/^soak: 4 scenarios, \d+ applies, \d+ faults/);
  });
});
