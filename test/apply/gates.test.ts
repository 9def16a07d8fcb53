import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import {
  APPROVAL_QUESTION, askApproval, checkDailyBudget, checkExpectedDigest, checkMaxDeletes, decideApproval, planReadNeeds,
} from '../../src/apply/gates.js';
import { EXIT, ViewctlError } from '../../src/errors.js';
import type { Change } from '../../src/plan/types.js';
import { handPlan, snapshot } from './plan-fixtures.js';

function errorOf(run: () => unknown): ViewctlError | undefined {
  try {
    run();
  } catch (error) {
    if (error instanceof ViewctlError) return error;
    throw error;
  }
  return undefined;
}

const deleteOf = (id: string): Change => ({
  action: 'delete', target: `view:deals:id:${id}`, kind: 'DealView', name: id, domain: 'deals', id,
  before: snapshot(id), after: null, reason: 'prune', ownerId: 'u', pinnedBy: [],
});

describe('gates', () => {
  it('needs --auto-approve or --plan when stdin is not a terminal', () => {
    const error = errorOf(() => decideApproval({ autoApprove: false, fromPlanFile: false, stdinIsTTY: false }));
    expect(error?.code).toBe('apply.needs-approval');
    expect(error?.exitCode).toBe(EXIT.error);
    expect(`${error?.message} ${error?.hint}`).toMatch(/--auto-approve.*--plan/);
    expect(decideApproval({ autoApprove: true, fromPlanFile: false, stdinIsTTY: false })).toBe('given');
    expect(decideApproval({ autoApprove: false, fromPlanFile: true, stdinIsTTY: false })).toBe('given');
    expect(decideApproval({ autoApprove: false, fromPlanFile: false, stdinIsTTY: true })).toBe('ask');
  });

  it('accepts only "yes" at the prompt; end of input and abort are a no', async () => {
    const ask = async (answer: string | null, signal?: AbortSignal): Promise<{ ok: boolean; shown: string }> => {
      const input = new PassThrough();
      const output = new PassThrough();
      const shown: string[] = [];
      output.on('data', (chunk: Buffer) => shown.push(chunk.toString()));
      if (answer === null) input.end();
      else input.write(answer);
      const ok = await askApproval(input, output, signal);
      return { ok, shown: shown.join('') };
    };
    expect(await ask('yes\n')).toEqual({ ok: true, shown: APPROVAL_QUESTION });
    expect((await ask('y\n')).ok).toBe(false);
    expect((await ask('YES please\n')).ok).toBe(false);
    expect((await ask(null)).ok).toBe(false);
    const controller = new AbortController();
    const pending = ask('', controller.signal);
    controller.abort();
    expect((await pending).ok).toBe(false);
  });

  it('refuses more deletes than --max-deletes with exit 3', () => {
    const plan = handPlan([deleteOf('dv_1'), deleteOf('dv_2')]);
    expect(errorOf(() => checkMaxDeletes(plan, 2))).toBeUndefined();
    const error = errorOf(() => checkMaxDeletes(plan, 1));
    expect([error?.code, error?.exitCode]).toEqual(['apply.max-deletes', EXIT.refused]);
    expect(errorOf(() => checkMaxDeletes(plan, 0))?.message).toContain('DealView "dv_1", DealView "dv_2"');
  });

  it('wraps the names of a refused plan instead of one line per list', () => {
    const plan = handPlan(Array.from({ length: 300 }, (_, index) => deleteOf(`dv_${index}`)));
    const lines = errorOf(() => checkMaxDeletes(plan, 5))?.message.split('\n') ?? [];
    expect(lines[0]).toBe('the plan deletes 300 views, more than --max-deletes 5 allows; nothing was written:');
    expect(lines.length).toBeGreaterThan(30);
    expect(Math.max(...lines.map((line) => line.length))).toBeLessThanOrEqual(100);
    expect(lines.at(-1)).toContain('DealView "dv_299"');
  });

  it('compares --expect-digest case-insensitively and refuses another digest with exit 3', () => {
    const plan = { ...handPlan([]), digest: 'ab'.repeat(32) };
    expect(errorOf(() => checkExpectedDigest(plan, 'AB'.repeat(32)))).toBeUndefined();
    expect(errorOf(() => checkExpectedDigest(plan, undefined))).toBeUndefined();
    expect(errorOf(() => checkExpectedDigest(plan, 'cd'.repeat(32)))?.exitCode).toBe(EXIT.refused);
  });

  it('refuses a plan whose stored steps need more requests than are left today, whatever requests.applyNeeds says', () => {
    // One DELETE and the deals listing that verifies it: 2 requests.
    const plan = handPlan([deleteOf('dv_1')]);
    plan.requests.applyNeeds = 0;
    expect(errorOf(() => checkDailyBudget(plan, null))).toBeUndefined();
    expect(errorOf(() => checkDailyBudget(plan, 2))).toBeUndefined();
    expect(errorOf(() => checkDailyBudget(plan, 1))?.code).toBe('apply.daily-budget');
  });

  it('re-reads only the targets of a saved plan, with the listing a pinned list resolved names against', () => {
    const pin: Change = {
      action: 'pin', target: 'pins:contacts:mia@acme.test', kind: 'PinnedViews', name: 'mia', domain: 'contacts', userEmail: 'mia@acme.test',
      before: [], after: [{ viewId: 'ctv_1', name: 'A', visibility: 'Public', isDefault: false }],
    };
    const drift: Change = { action: 'drift', target: 'automations', kind: 'AdminAutomation', name: 'x', before: null, after: {}, differences: [] };
    expect(planReadNeeds(handPlan([deleteOf('dv_1'), pin, drift]))).toEqual({
      domains: ['deals', 'contacts'],
      pins: [{ domain: 'contacts', userEmail: 'mia@acme.test' }],
      automations: false,
    });
  });
});
