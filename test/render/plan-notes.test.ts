import { describe, expect, it } from 'vitest';
import { computePlan } from '../../src/plan/diff.js';
import { parseTargetSelector, selectTargets } from '../../src/plan/targets-selection.js';
import type { Plan } from '../../src/plan/types.js';
import { renderMarkdown } from '../../src/render/markdown.js';
import { renderText } from '../../src/render/text.js';
import { pinsKey } from '../../src/state/types.js';
import { DEAL_DEFAULTS, declared, emptyDesired, emptyLive, pinsOf, view } from '../plan/fixtures.js';

/** What text and markdown add so a reviewer can judge a plan: apply's refusal ahead of time, a targeted plan, wrapped lists. */

function pruning(count: number): Plan {
  const live = emptyLive();
  live.views.deals = [
    view('dv_keep', 'Kept'),
    ...Array.from({ length: count }, (_, index) => view(`dv_${index}`, `Board ${index}`, { ownerId: 'u_mia' })),
    ...DEAL_DEFAULTS,
  ];
  const desired = emptyDesired({ prune: true });
  desired.views = [declared('deals', 'Kept')];
  return computePlan(desired, live).plan;
}

describe('plan notes', () => {
  it('says before the list that apply will refuse more deletions than --max-deletes, and how to allow them', () => {
    const plan = pruning(6);
    const text = renderText(plan, { color: false });
    const lines = text.split('\n');
    expect(lines.slice(1, 3).join(' ')).toBe(
      'Apply will refuse this plan: it deletes 6 views, more than --max-deletes 5 allows. If every deletion below is intended, apply it with --max-deletes 6.',
    );
    expect(renderMarkdown(plan, { color: false })).toContain('> ⛔ **Apply will refuse this plan: it deletes 6 views');
    expect(renderText(plan, { color: false, maxDeletes: 6 })).not.toContain('Apply will refuse');
    expect(renderText(pruning(5), { color: false })).not.toContain('Apply will refuse');
    // apply shows the plan it is about to carry out; its own gate has already decided.
    expect(renderText(plan, { color: false, context: 'apply' })).not.toContain('Apply will refuse');
  });

  it('names a deleted view owner by email, or says the id is no member', () => {
    const plan = pruning(1);
    expect(renderText(plan, { color: false })).toContain('- DealView "Board 0" (dv_0), owner mia@acme.com');
    const change = plan.changes[0];
    if (change?.action !== 'delete') throw new Error('expected a delete');
    delete change.ownerEmail;
    expect(renderText(plan, { color: false })).toContain('owner u_mia (not a member)');
  });

  it('says a plan is targeted, in text and markdown, even when it has nothing to do', () => {
    const live = emptyLive();
    live.views.deals = [view('dv_keep', 'Kept'), ...DEAL_DEFAULTS];
    const desired = emptyDesired();
    desired.views = [declared('deals', 'Kept')];
    const { plan } = computePlan(selectTargets(desired, [parseTargetSelector('DealView/Kept')]), live);
    expect(renderText(plan, { color: false })).toContain(
      'Targeted plan (--target DealView/Kept): only these were read and planned',
    );
    expect(renderMarkdown(plan, { color: false })).toContain(
      '*Targeted plan (--target DealView/Kept): only these were read and planned',
    );
  });

  it('wraps a long pinned list at 100 columns', () => {
    const live = emptyLive();
    const tabs = Array.from({ length: 40 }, (_, index) => view(`rv_${index}`, `Team ${index} calls`));
    live.views.recordings = [...tabs, ...(live.views.recordings ?? [])];
    live.pins = { [pinsKey('recordings', 'mia@acme.com')]: tabs };
    const desired = emptyDesired();
    desired.pins = [
      pinsOf(
        'mia@acme.com',
        'recordings',
        [...tabs].reverse().map((tab) => ({ name: tab.name })),
      ),
    ];
    const text = renderText(computePlan(desired, live).plan, { color: false });
    expect(text).toContain('    now:   Team 0 calls · Team 1 calls');
    expect(text).toMatch(/\n {11}Team \d+ calls/);
    expect(
      Math.max(
        ...text
          .split('\n')
          .filter((line) => line.includes('Team'))
          .map((line) => line.length),
      ),
    ).toBeLessThanOrEqual(100);
  });
});
