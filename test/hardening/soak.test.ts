import { describe, expect, it } from 'vitest';
import { runSoak } from '../bench/soak.js';

/** The soak (test/bench/soak.ts, `npm run bench -- --soak`) on one seed, so it cannot rot unnoticed. */

describe('runSoak', () => {
  it('runs mixed faults and one more kind per seed, logs each scenario and reports zero failures and duplicates', async () => {
    const lines: string[] = [];
    const report = await runSoak({ seeds: 1, log: (line) => lines.push(line) });
    expect(report.seeds).toBe(1);
    expect(report.scenarios).toBe(2);
    expect(Object.keys(report.byKind).sort()).toEqual(['fail-503', 'mixed']);
    expect(report.faultsInjected).toBeGreaterThan(0);
    expect(report.runs).toBeGreaterThanOrEqual(2);
    expect(report.outcomes.failed).toBe(0);
    expect(report.outcomes.convergedIn1 + report.outcomes.convergedIn2 + report.outcomes.convergedIn3).toBe(2);
    expect(report.duplicatesFound).toBe(0);
    expect(report.mismatches).toBe(0);
    expect(report.problems).toEqual([]);
    expect(lines).toHaveLength(3);
    expect(lines[2]).toMatch(/^soak: 2 scenarios, \d+ applies, \d+ faults/);
  });
});
