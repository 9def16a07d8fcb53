import { describe, expect, it } from 'vitest';
import type { Plan } from '../../src/plan/types.js';
import { driftCount } from '../../src/render/drift-words.js';

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
