import { describe, expect, it } from 'vitest';
import { computePlan } from '../../src/plan/diff.js';
import { identityProblems, liveRuleProblems } from '../../src/plan/saved-plan-checks.js';
import { RECORDING_DEFAULTS, declared, emptyDesired, emptyLive, largeScenario, mixedScenario, view } from './fixtures.js';

describe('saved-plan checks accept every plan viewctl writes', () => {
  it.each([['mixed', mixedScenario], ['large', () => largeScenario(200)]])('%s scenario: no identity or rule problem', (_name, scenario) => {
    const { desired, live } = scenario();
    const { plan } = computePlan(desired, live);
    expect(identityProblems(plan)).toEqual([]);
    expect(liveRuleProblems(plan, live)).toEqual([]);
    // The same plan with a change pointed elsewhere is caught at once.
    const moved = structuredClone(plan);
    const update = moved.changes.find((change) => change.action === 'update' || change.action === 'delete');
    if (update?.action === 'update' || update?.action === 'delete') update.id = 'rv_elsewhere';
    expect(identityProblems(moved)).toHaveLength(1);
  });

  it('a create of a name a rename frees in the same plan, and name swaps', () => {
    const live = emptyLive();
    live.views.recordings = [view('rv_1', 'Calls'), view('rv_2', 'Demos'), ...RECORDING_DEFAULTS];
    const desired = emptyDesired();
    desired.views = [
      declared('recordings', 'Demos', {}, { viewId: 'rv_1' }),
      declared('recordings', 'Calls', {}, { viewId: 'rv_2' }),
    ];
    const swap = computePlan(desired, live).plan;
    expect(liveRuleProblems(swap, live)).toEqual([]);
    desired.views = [declared('recordings', 'New calls', {}, { viewId: 'rv_1' }), declared('recordings', 'Calls')];
    const freed = computePlan(desired, live).plan;
    expect(freed.changes.map((change) => change.action)).toEqual(['create', 'update']);
    expect(liveRuleProblems(freed, live)).toEqual([]);
  });
});
