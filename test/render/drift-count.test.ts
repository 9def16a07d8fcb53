import { describe, expect, it } from 'vitest';
import type { Plan } from '../../src/plan/types.js';
import { automationDrifts, driftCount } from '../../src/render/drift-words.js';

/** The drift part of a plan's counts, for a sweep that found none (issue 36: "0 automation drifts · 0 of them drift"). */
describe('driftCount', () => {
  const plan = (drifted: Plan['drifted']): Plan => ({ changes: [], drifted }) as unknown as Plan;

  it('says "no drift" when nothing drifted, never "0 of them drift"', () => {
    expect(driftCount(plan({ changes: 0 } as Plan['drifted']))).toBe('no drift');
    expect(driftCount(plan({ changes: 0, unapplied: 2 } as Plan['drifted']))).toBe(
      'no drift, 2 merged since the last apply and not applied yet',
    );
  });

  it('is undefined for a plan that labels no origins', () => {
    expect(driftCount(plan(undefined))).toBeUndefined();
  });
});

/** The counts' line of a sweep whose one drift is a view's (the trial read "0 automation drifts; 1 of them drift"). */
describe('automationDrifts', () => {
  const plan = (drift: number, drifted: Plan['drifted']): Plan =>
    ({ changes: [], summary: { drift }, drifted }) as unknown as Plan;

  it('is left out of a plan that labels origins when no automation drifted', () => {
    expect(automationDrifts(plan(0, { changes: 1 } as Plan['drifted']))).toBeUndefined();
    expect(automationDrifts(plan(2, { changes: 3 } as Plan['drifted']))).toBe('2 automation drifts');
  });

  it('is said even when zero in a plan without origins, whose counts name every action', () => {
    expect(automationDrifts(plan(0, undefined))).toBe('0 drifts');
  });
});
