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
  live.pins[pinsKey('recordings', 'mia@acme.com')] = [
    privateView('rv_p', 'Mia follow-ups'),
    view('rv_all', 'All recordings', { isDefault: true }),
  ];
  const desired = emptyDesired();
  desired.pinGroups = [
    {
      group: { name: 'Sales tabs', source: at('pins/sales.yaml') },
      users: [{ pattern: '*@acme.com', isGlob: true, source: at('pins/sales.yaml', 3) }],
      roles: [],
      domain: 'recordings',
      refs: [{ name: 'Calls' }],
      unpinPrivate: true,
      source: at('pins/sales.yaml', 5, 13),
      refSources: [at('pins/sales.yaml', 5, 14)],
    },
  ];
  return computePlan(desired, live).plan;
}

describe('group pin changes in the text and markdown plans', () => {
  it('name the group, show the private tabs unpinned and count the members skipped', () => {
    const plan = groupPlan();
    expect(plan.skippedMembers).toBe(1);
    const text = renderText(plan, { color: false });
    // One block per group document change, even for one member (README, "What a reviewer sees").
    expect(text).toContain(
      '  ↻ pins    group "Sales tabs"  recordings · 1 member · unpins 1 private tab  pins/sales.yaml:5\n',
    );
    expect(text).toContain(
      [
        '↻ recordings tabs of group "Sales tabs" (1 member)  pins/sales.yaml:5',
        '    now:     All recordings',
        '    after:   Calls',
        '    unpins private tabs of 1 member (unpinPrivate: true):',
        '      mia@acme.com: Mia follow-ups',
        '    members: mia@acme.com',
      ].join('\n'),
    );
    expect(text).toContain(
      'Group pins skip 1 member a glob or a role reaches who is not active (deactivated or invited).',
    );
    const markdown = renderMarkdown(plan, { color: false });
    expect(markdown).toContain(
      '| 📌 | Pins | group "Sales tabs" · recordings · 1 member · **unpins 1 private tab of 1 member** | `pins/sales.yaml:5` |',
    );
    expect(markdown).toContain(
      '- **unpins private tabs of 1 member** (`unpinPrivate: true`): mia@acme.com: Mia follow-ups',
    );
    expect(markdown).toContain('> Group pins skip 1 member');
  });
});
