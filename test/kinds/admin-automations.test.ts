import { describe, expect, it } from 'vitest';
import { computePlan } from '../../src/plan/diff.js';
import { at, automation, emptyDesired, emptyLive } from '../plan/fixtures.js';

/** Drift of admin automations (admin-automations.ts): each difference points into the expected attributes and says both values. */

describe('admin automation drift inside a filter list', () => {
  const live = emptyLive();
  live.automations = [automation('aa_1', 'A')];
  const driftOf = (filters: Record<string, unknown>[]) => {
    const desired = emptyDesired();
    desired.automations = {
      source: at('a.yaml'),
      automations: [{ name: 'A', filters: filters as never, source: at('a.yaml', 2) }],
    };
    const [change] = computePlan(desired, live).plan.changes;
    return change?.action === 'drift' ? change.differences : undefined;
  };
  const internal = { type: 'MeetingType', meetingType: 'Internal', combineWith: 'And', not: true };

  it('points at the attribute of the filter that differs, with the value expected and the value live', () => {
    expect(driftOf([{ ...internal, not: false }])).toEqual([
      { pointer: '/filters/0/not', expected: false, actual: true },
    ]);
  });
});
