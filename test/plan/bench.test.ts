import { describe, expect, it } from 'vitest';
import { computePlan } from '../../src/plan/diff.js';
import { benchDiffRender, benchWorkspace } from '../bench/plan-bench.js';

// The bench's timings depend on the machine; this checks only that it measures the
// workload it claims (a quarter of the views changed), never how fast it ran.
describe('benchDiffRender', () => {
  it('times a plan with a quarter of the views changed', () => {
    const { desired, live } = benchWorkspace(40);
    expect(computePlan(desired, live).plan.summary.update).toBe(10);
    const result = benchDiffRender(40);
    expect(result.diffMs).toBeGreaterThanOrEqual(0);
    expect(result.renderMs).toBeGreaterThanOrEqual(0);
  });
});
