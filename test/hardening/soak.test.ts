import { describe, expect, it } from 'vitest';
import { runSoak } from '../bench/soak.js';

/** The soak (test/bench/soak.ts, `npm run bench -- --soak`) on one seed, so it cannot rot unnoticed. */

describe('runSoak', () => {
  it('runs mixed faults and one more kind per seed, logs each scenario and reports zero failures and duplicates', async () => {
    const lines: string[] = [];
    const report = await runSoak({ seeds: 1, log: (line) => lines.push(line) });
    expect(report.seeds).toBe(1);
    expect(report.scenarios).toBe(4);
    expect(Object.keys(report.byKind).sort()).toEqual(['concurrent', 'fail-503', 'mixed', 'slow-create']);
    expect(report.byKind['slow-create']?.faultsInjected).toBeGreaterThan(0);
    expect(report.faultsInjected).toBeGreaterThan(0);
    expect(report.runs).toBeGreaterThanOrEqual(4);
    expect(report.outcomes.failed).toBe(0);
    expect(report.outcomes.convergedIn1 + report.outcomes.convergedIn2 + report.outcomes.convergedIn3).toBe(4);
    expect(report.wrongExitCodes).toBe(0);
    expect(report.duplicatesFound).toBe(0);
    expect(report.mismatches).toBe(0);
    expect(report.problems).toEqual([]);
    expect(lines).toHaveLength(5);
    expect(lines[4]).toMatch(/^soak: 4 scenarios, \d+ applies, \d+ faults.*0 wrong exit codes$/);
  });
});
