import { describe, expect, it } from 'vitest';
import type { ApiUser } from '../../src/domain/api-types.js';
import type { Desired, DesiredPinGroup } from '../../src/domain/desired.js';
import { planWorkspace, type PlanWorkspaceOptions } from '../../src/flows/plan-workspace.js';
import { computePlan } from '../../src/plan/diff.js';
import type { Change } from '../../src/kinds/changes.js';
import type { Plan } from '../../src/plan/types.js';
import { byteSize } from '../../src/render/comment-budget.js';
import { renderJson } from '../../src/render/json.js';
import { MARKDOWN_LIMIT, renderMarkdown } from '../../src/render/markdown.js';
import { whenOf } from '../../src/render/drift-words.js';
import { renderText } from '../../src/render/text.js';
import { emptyMemory, type SweepMemory } from '../../src/state/sweep-memory.js';
import type { Live } from '../../src/state/types.js';
import { pinsKey } from '../../src/state/types.js';
import { at, declared, emptyDesired, emptyLive, pinsOf, user, view } from '../plan/fixtures.js';
import { liveClient } from '../plan/live-client.js';

/**
 * A nightly sweep's drift as a reviewer reads it (README, "Drift: who, what, when"): one
 * line per cause with the members or views listed once, when it changed, and how to
 * repair or keep it; the counts say how much is drift; JSON keeps every change.
 */

const HEAD = 'abcdef1'.padEnd(40, '0');
const EARLY = '2026-11-20T02:00:00Z';
const LATE = '2026-11-22T02:00:00Z';
const member = (prefix: string, index: number): string => `${prefix}${String(index).padStart(2, '0')}@acme.com`;

/**
 * `reordered` members moved Forecast before Pipeline in the app, Ann pinned Mine too, the
 * Forecast view was renamed in the app, and three members joined whom group "Sales"
 * reaches by a glob.
 */
function nightly(reordered = 12): { desired: Desired; live: Live; memory: SweepMemory } {
  const live = emptyLive();
  const pipeline = view('dv_1', 'Pipeline');
  const forecast = view('dv_2', 'Forecast');
  const renamed = view('dv_2', 'Forecast Q4');
  const mine = view('dv_3', 'Mine');
  live.views.deals = [pipeline, renamed, mine, ...(live.views.deals ?? [])];
  const movers = Array.from({ length: reordered }, (_, index) => member('m', index + 1));
  const joiners = [1, 2, 3].map((index) => member('new', index));
  const users: ApiUser[] = [
    ...(live.users ?? []),
    ...[...movers, 'ann@acme.com', ...joiners].map((email) => user(`u_${email}`, email)),
  ];
  live.users = users;
  live.workspace.membersCount = users.length;
  live.pins = Object.fromEntries([
    ...movers.map((email) => [pinsKey('deals', email), [forecast, pipeline]]),
    [pinsKey('deals', 'ann@acme.com'), [pipeline, forecast, mine]],
    ...joiners.map((email) => [
      pinsKey('deals', email),
      [view('dv_all', 'All deals', { isDefault: true, ownerId: '#global' })],
    ]),
  ]);
  const desired = emptyDesired();
  desired.views = [declared('deals', 'Forecast', {}, { viewId: 'dv_2' })];
  desired.pins = [...movers, 'ann@acme.com'].map((email) =>
    pinsOf(email, 'deals', [{ name: 'Pipeline' }, { name: 'Forecast' }]),
  );
  const group: DesiredPinGroup = {
    group: { name: 'Sales', source: at('pins/sales.yaml') },
    users: [{ pattern: 'new*@acme.com', isGlob: true, source: at('pins/sales.yaml', 3) }],
    roles: [],
    domain: 'deals',
    refs: [{ name: 'Pipeline' }, { name: 'Forecast' }],
    unpinPrivate: false,
    source: at('pins/sales.yaml', 5),
    refSources: [at('pins/sales.yaml', 6), at('pins/sales.yaml', 7)],
  };
  desired.pinGroups = [group];
  // The memory: every list read before, half of them two days later; every member but the joiners seen.
  const memory: SweepMemory = {
    ...emptyMemory(),
    lastApplied: { commit: HEAD, at: EARLY },
    lists: Object.fromEntries(
      [...movers, 'ann@acme.com'].map((email, index) => [
        pinsKey('deals', email),
        { lastRead: index % 2 === 0 ? EARLY : LATE, viewIds: ['dv_1', 'dv_2'] },
      ]),
    ),
    views: { 'view:deals:id:dv_2': { domain: 'deals', id: 'dv_2', name: 'Forecast', lastSeen: LATE } },
    members: Object.fromEntries(
      users
        .filter((entry) => !entry.email.startsWith('new'))
        .map((entry) => [entry.email, { role: entry.role, state: entry.state, lastSeen: LATE }]),
    ),
  };
  return { desired, live, memory };
}

async function sweep(options: (memory: SweepMemory) => PlanWorkspaceOptions, reordered?: number): Promise<Plan> {
  const { desired, live, memory } = nightly(reordered);
  return (await planWorkspace(desired, liveClient(live).client, { scope: { budget: 3000 }, ...options(memory) })).plan;
}

const withMemory = (memory: SweepMemory): PlanWorkspaceOptions => ({
  memory,
  applied: { state: 'current', commit: HEAD },
});

describe('drift in the text plan', () => {
  it('tells each cause on one line, with the members once (compactly), when, and how to repair or keep it', async () => {
    const text = renderText(await sweep(withMemory), { color: false });
    expect(text).toContain(
      [
        'Changed outside viewctl since the last apply (abcdef1, 2026-11-20 02:00 UTC): applying reverts them',
        '  ! drift   12 members re-ordered their deals tabs in the app  pins/m01.yaml:1, pins/m02.yaml:1, … 10 more',
        '      m01@acme.com, m02@acme.com, m03@acme.com, m04@acme.com, m05@acme.com, … 7 more',
        '      changed between 2026-11-20 02:00 UTC … 2026-11-22 02:00 UTC (last read) and now · every change',
        '      is in the JSON plan',
        '      apply --budget repairs, viewctl pull keeps',
        '  ! drift   1 member added deals tabs in the app  pins/ann.yaml:1',
        '      ann@acme.com',
        '      changed between 2026-11-20 02:00 UTC (last read) and now',
        '      apply --budget repairs, viewctl pull keeps',
        '  ! drift   1 DealView renamed in the app  views/deals/forecast.yaml:1',
        '      "Forecast" (dv_2, owner ops@acme.com)',
        '      changed between 2026-11-22 02:00 UTC (last seen) and now',
        '      apply --budget repairs, viewctl pull keeps',
        '',
        'Group members changed since the last apply (abcdef1, 2026-11-20 02:00 UTC) (joined, left or changed role): applying sets their tabs to the manifests',
        '  ! drift   3 members newly reached by group "Sales" (joined, or a role changed); their deals tabs are pending  pins/sales.yaml:5',
        '      new01@acme.com, new02@acme.com, new03@acme.com',
        '      since the members were last seen',
        '      apply --budget writes them, or the next apply',
      ].join('\n'),
    );
    // A cause of more than ten is told by its line alone: each member is named once, not once per change.
    expect(text.split('m01@acme.com').length - 1).toBe(1);
    // A smaller cause keeps each change's block.
    expect(text).toContain('↻ deals tabs of ann@acme.com\n    now:   Pipeline · Forecast · Mine\n');
    expect(text).toContain(
      'Plan: 0 to create, 1 to update, 0 to delete, 16 pin lists; 17 of them drift (1 update, 16 pin lists).',
    );
  });

  it('without the memory: hedged, "changed since it was last applied or read (no memory)"', async () => {
    const text = renderText(await sweep(() => ({})), { color: false });
    expect(text).toContain(
      [
        'Not applied or changed outside viewctl since the last apply (no memory of it): applying sets them to the manifests',
        '  ! drift   deals tabs of 12 members: the same tabs in another order  pins/m01.yaml:1, pins/m02.yaml:1, … 10 more',
        '      m01@acme.com, m02@acme.com, m03@acme.com, m04@acme.com, m05@acme.com, … 7 more',
        '      changed since it was last applied or read (no memory) · every change is in the JSON plan',
        "      apply sets the manifests' version, viewctl pull keeps the app's",
      ].join('\n'),
    );
    expect(text).not.toContain('Changed outside viewctl');
  });

  it('a last applied commit older than the manifests: their own changes since under a heading of their own, not drift', async () => {
    const { desired } = nightly();
    // At the last applied commit the view had an icon too: the manifests changed what they ask of it since.
    const before: Desired = {
      ...desired,
      views: [declared('deals', 'Forecast', { icon: 'star' }, { viewId: 'dv_2' })],
    };
    const plan = await sweep((memory) => ({
      memory: { ...memory, lastApplied: { commit: 'f'.repeat(40), at: EARLY } },
      applied: { state: 'older', commit: 'f'.repeat(40), desired: before },
    }));
    const text = renderText(plan, { color: false });
    expect(text).toContain(
      'In the manifests since the last apply (fffffff, 2026-11-20 02:00 UTC), not applied yet: not drift; a reviewed apply carries them out\n  ~ update  DealView  rename "Forecast Q4" -> "Forecast" (dv_2)',
    );
    expect(text).toContain('; 16 of them drift (16 pin lists), 1 merged since the last apply and not applied yet.');
  });
});

describe('views created in the app, which prune deletes', () => {
  it('names every one, however many: deletions are never hidden', () => {
    const live = emptyLive();
    live.views.deals = [
      view('dv_0', 'Pipeline'),
      ...Array.from({ length: 12 }, (_, index) => view(`dv_${index + 1}`, `Board ${index + 1}`)),
      ...(live.views.deals ?? []),
    ];
    const desired = emptyDesired({ prune: true });
    desired.views = [declared('deals', 'Pipeline')];
    const plan = computePlan(desired, live, { origin: () => 'outside', drifted: {} }).plan;
    const text = renderText(plan, { color: false });
    expect(text).toContain('  ! drift   12 DealViews created in the app, declared by no manifest\n');
    for (let index = 1; index <= 12; index += 1)
      expect(text).toContain(`"Board ${index}" (dv_${index}, owner ops@acme.com)`);
    expect(text).toContain('apply deletes them (prune; apply --budget never does); viewctl pull keeps them');
    const markdown = renderMarkdown(plan, { color: false });
    for (let index = 1; index <= 12; index += 1) expect(markdown).toContain(`**Board ${index}** (dv\\_${index}`);
  });
});

describe('drift in the markdown plan', () => {
  it('is one row per cause, naming the members once, with when and the way out; the counts say how much is drift', async () => {
    const markdown = renderMarkdown(await sweep(withMemory), { color: false });
    expect(markdown).toContain(
      '**0 creates · 1 update · 0 deletes · 16 pin lists · 17 of them drift (1 update, 16 pin lists)**',
    );
    expect(markdown).toContain(
      '| ⚠️ | Drift | **12 members re-ordered their deals tabs in the app**: m01@acme.com · m02@acme.com · m03@acme.com · m04@acme.com · m05@acme.com · … 7 more | `pins/m01.yaml:1`, `pins/m02.yaml:1`, … 10 more · changed between 2026-11-20 02:00 UTC … 2026-11-22 02:00 UTC (last read) and now · apply --budget repairs, viewctl pull keeps |',
    );
    expect(markdown).toContain(
      '| ⚠️ | Drift | **1 DealView renamed in the app**: **Forecast** (dv\\_2, owner ops@acme.com) | `views/deals/forecast.yaml:1` · changed between 2026-11-22 02:00 UTC (last seen) and now · apply --budget repairs, viewctl pull keeps |',
    );
    expect(markdown).toContain(
      '| ⚠️ | Drift | **3 members newly reached by group "Sales" (joined, or a role changed); their deals tabs are pending**: new01@acme.com · new02@acme.com · new03@acme.com | `pins/sales.yaml:5` · since the members were last seen · apply --budget writes them, or the next apply |',
    );
  });

  it('a thousand members re-ordering their tabs is one line, far under the comment limit', async () => {
    const markdown = renderMarkdown(await sweep(withMemory, 1000), { color: false });
    expect(markdown).toContain('**1,000 members re-ordered their deals tabs in the app**: m01@acme.com');
    expect(markdown).toContain('· … 995 more |');
    expect(byteSize(markdown)).toBeLessThan(MARKDOWN_LIMIT / 4);
  });
});

describe('drift in the JSON plan', () => {
  it('keeps every change with its origin and since when, and counts drift apart from the actions', async () => {
    const plan = JSON.parse(renderJson(await sweep(withMemory))) as Plan;
    expect(plan.changes).toHaveLength(17);
    expect(plan.changes.every((change) => change.origin !== undefined)).toBe(true);
    expect(plan.changes.find((change) => change.name === 'm02@acme.com')).toMatchObject({
      origin: 'outside',
      since: LATE,
    });
    expect(plan.summary).toEqual({ create: 0, update: 1, delete: 0, pin: 16, drift: 0 });
    expect(plan.drifted).toEqual({ changes: 17, lastApplied: { commit: HEAD, at: EARLY } });
  });
});

describe('when an automation drifted', () => {
  it('never says "not seen before": the memory does not keep automations, however often a sweep saw them', () => {
    const drift: Change = {
      action: 'drift',
      target: 'automations',
      kind: 'AdminAutomation',
      name: 'Record',
      before: null,
      after: {},
      differences: [],
    };
    expect(whenOf([drift], true)).toBe('changed at an unknown time: the memory does not keep automations');
    expect(whenOf([drift], false)).toBe('changed since it was last applied or read (no memory)');
  });
});
