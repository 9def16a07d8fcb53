import { describe, expect, it } from 'vitest';
import { computePlan } from '../../src/plan/diff.js';
import type { Plan } from '../../src/plan/types.js';
import { renderMarkdown } from '../../src/render/markdown.js';
import { renderText } from '../../src/render/text.js';
import { pinsKey } from '../../src/state/types.js';
import { at, emptyDesired, emptyLive, privateView, user, view } from '../plan/fixtures.js';

/** groupPlan: a group that unpins private tabs for Mia, and skips a deactivated member. */
function groupPlan(): Plan {
  const live = emptyLive();
  live.views.recordings = [view('rv_1', 'Calls'), ...(live.views.recordings ?? [])];
  live.users = [user('u_mia', 'mia@acme.com'), user('u_tom', 'tom@acme.com', 'Deactivated')];
  live.pins[pinsKey('recordings', 'mia@acme.com')] = [privateView('rv_p', 'Mia follow-ups'), view('rv_all', 'All recordings', { isDefault: true })];
  const desired = emptyDesired();
  desired.pinGroups = [{
    group: { name: 'Sales tabs', source: at('pins/sales.yaml') }, users: [{ pattern: '*@acme.com', isGlob: true, source: at('pins/sales.yaml', 3) }], roles: [],
    domain: 'recordings', refs: [{ name: 'Calls' }], unpinPrivate: true, source: at('pins/sales.yaml', 5, 13), refSources: [at('pins/sales.yaml', 5, 14)],
  }];
  return computePlan(desired, live).plan;
}

describe('group pin changes in the text and markdown plans', () => {
  it('name the group, show the private tabs unpinned and count the members skipped', () => {
    const plan = groupPlan();
    expect(plan.skippedMembers).toBe(1);
    const text = renderText(plan, { color: false });
    expect(text).toContain('↻ pins    mia@acme.com  recordings  pins/sales.yaml:5 · group "Sales tabs"');
    expect(text).toContain('↻ recordings tabs of mia@acme.com (group "Sales tabs")\n    now:   Mia follow-ups (private) · All recordings\n    after: Calls\n    unpins private: Mia follow-ups (private) (unpinPrivate: true)');
    expect(text).toContain('Group pins skip 1 member a glob or a role reaches who is not active (deactivated or invited).');
    const markdown = renderMarkdown(plan, { color: false });
    expect(markdown).toContain('| 📌 | Pins | mia@acme.com · recordings · **unpins 1 private tab** | `pins/sales.yaml:5` · group "Sales tabs" |');
    expect(markdown).toContain('- unpins private: Mia follow-ups (private) (`unpinPrivate: true`)');
    expect(markdown).toContain('> Group pins skip 1 member');
  });
});
