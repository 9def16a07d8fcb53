import { describe, expect, it } from 'vitest';
import { computePlan } from '../../src/plan/diff.js';
import { benchWorkspace } from '../bench/plan-bench.js';

// The bench's timings depend on the machine and are not checked here. What can be
// checked is that it times the workload it claims: every declared view matched to a
// live one, a quarter of them changed, and the reordered label lists planning no change.
describe('benchWorkspace', () => {
  it('is a plan with every fourth view updated and nothing else', () => {
    const { desired, live } = benchWorkspace(40);
    const { plan } = computePlan(desired, live);
    expect(Object.entries(plan.summary).filter(([, count]) => count > 0)).toEqual([['update', 10]]);
    const updated = plan.changes.map((change) => (change.action === 'update' ? change.name : change.action));
    expect(updated.sort()).toEqual(Array.from({ length: 10 }, (_, index) => `View ${index * 4}`).sort());
  });
});
