import { describe, expect, it } from 'vitest';
import { checkMaxPinChanges } from '../../src/apply/gates.js';
import { chooseRepairs, repairPlan } from '../../src/apply/repair.js';
import { repairSection } from '../../src/apply/repair-report.js';
import { repairLines } from '../../src/render/apply-report.js';
import { EXIT } from '../../src/errors.js';
import type { Change } from '../../src/plan/types.js';
import { renderPlan } from '../../src/render/render-plan.js';
import { handPlan } from './plan-fixtures.js';
import { viewctlErrorOf } from '../support/errors.js';

// --max-pin-changes: a guard on rewriting too many members' pinned lists at once.

const pinOf = (index: number): Change => {
  const userEmail = `m${index}@acme.test`;
  return {
    action: 'pin',
    target: `pins:recordings:${userEmail}`,
    kind: 'PinnedViews',
    name: userEmail,
    userEmail,
    domain: 'recordings',
    before: [{ viewId: 'rv_2', name: 'Demos', visibility: 'Public', isDefault: false }],
    after: [
      { viewId: 'rv_1', name: 'Calls', visibility: 'Public', isDefault: false },
      { viewId: 'rv_2', name: 'Demos', visibility: 'Public', isDefault: false },
    ],
  };
};
const lists = (count: number) => handPlan(Array.from({ length: count }, (_, index) => pinOf(index)));

describe('--max-pin-changes', () => {
  it('apply refuses more pinned lists than allowed with exit 3, naming them and how to allow it', () => {
    expect(viewctlErrorOf(() => checkMaxPinChanges(lists(3), 3))).toBeUndefined();
    const error = viewctlErrorOf(() => checkMaxPinChanges(lists(3), 2));
    expect([error?.code, error?.exitCode]).toEqual(['apply.max-pin-changes', EXIT.refused]);
    expect(error?.message).toContain(
      "the plan rewrites 3 members' pinned lists, more than --max-pin-changes 2 allows; nothing was written:\n  m0@acme.test (recordings), m1@acme.test (recordings), m2@acme.test (recordings)",
    );
    expect(error?.hint).toContain('pass --max-pin-changes 3');
  });

  it('plan says so above its list, in text and markdown, and not when apply shows it', () => {
    const plan = lists(101);
    const text = renderPlan(plan, 'text', { color: false }).split('\n');
    expect(text[1]).toMatch(/^Apply will refuse this plan: it rewrites 101 members' pinned lists, more than/);
    expect(text.join(' ')).toContain('apply it with --max-pin-changes 101.');
    expect(renderPlan(lists(100), 'text', { color: false })).not.toContain('Apply will refuse');
    expect(renderPlan(lists(3), 'text', { color: false, maxPinChanges: 2 }).replace(/\n/g, ' ')).toContain(
      '--max-pin-changes 2 allows',
    );
    expect(renderPlan(plan, 'markdown', { color: false })).toContain(
      "> ⛔ **Apply will refuse this plan: it rewrites 101 members' pinned lists",
    );
    expect(renderPlan(plan, 'text', { color: false, context: 'apply' })).not.toContain('Apply will refuse');
  });

  it('self-heal repairs the first N lists, passes the gate, and says what it left', () => {
    const plan = lists(5);
    const choice = chooseRepairs(plan, 1000, { given: 1000, reads: 800 }, new Set(), 2);
    expect(choice.repaired).toEqual([0, 1]);
    expect(choice.leftOverPinLimit).toEqual({ indexes: [2, 3, 4], maxPinChanges: 2 });
    expect(viewctlErrorOf(() => checkMaxPinChanges(repairPlan(plan, choice), 2))).toBeUndefined();
    const lines = repairLines(repairSection(plan, choice, new Set(choice.repaired)));
    expect(lines).toContain(
      'Left over --max-pin-changes 2 (the next night repairs the next ones; a reviewed apply with a higher --max-pin-changes repairs all): 3 pin lists (members m2@acme.test, m3@acme.test, m4@acme.test).',
    );
    expect(chooseRepairs(plan, 1000, { given: 1000, reads: 800 }).leftOverPinLimit).toBeUndefined();
  });
});
