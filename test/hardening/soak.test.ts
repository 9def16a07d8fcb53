import { describe, expect, it } from 'vitest';
import { runSoak } from '../bench/soak.js';

/**
 * The soak (test/bench/soak.ts, `npm run bench -- --soak`) on one seed, so it cannot rot
 * unnoticed. It checks what the product did under the faults, not what the soak
 * printed: every scenario met faults of its kind, converged, doubled no view, ended
 * in the fault-free run's workspace, and every apply's exit code agrees with its report.
 */

describe('runSoak', () => {
  it('under mixed, concurrent, 503 and slow-create faults: converges with no doubled view, the fault-free workspace and honest exit codes; a budget above the quota meets no quota-exhausted', async () => {
    const report = await runSoak({ seeds: 1, log: () => undefined });
    const context = JSON.stringify(report.problems, null, 2);
    const kinds = Object.entries(report.byKind).map(([kind, totals]) => [kind, totals.scenarios, totals.faultsInjected > 0]);
    expect(kinds.sort()).toEqual([['concurrent', 1, true], ['fail-503', 1, true], ['mixed', 1, true], ['slow-create', 1, true]]);
    expect(report.outcomes.failed, context).toBe(0);
    expect(report.duplicatesFound, context).toBe(0);
    expect(report.mismatches, context).toBe(0);
    expect(report.wrongExitCodes, context).toBe(0);
    // A plan --budget above the service's quota: a plan printed within what is left less the reserve, and no quota-exhausted.
    expect(report.budget).toEqual({ runs: 1, plansPrinted: 1, refusedUpFront: 0, quotaExhausted: 0, rateLimited: 0, failed: 0 });
    expect(report.problems).toEqual([]);
  });
});
