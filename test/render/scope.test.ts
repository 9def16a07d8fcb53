import { describe, expect, it } from 'vitest';
import { computePlan } from '../../src/plan/diff.js';
import type { Change, ChangeOrigin, PlanScope } from '../../src/plan/types.js';
import { parsePlanFile } from '../../src/plan/plan-file.js';
import { renderJson } from '../../src/render/json.js';
import { originHeading } from '../../src/render/format.js';
import { renderMarkdown } from '../../src/render/markdown.js';
import { renderText } from '../../src/render/text.js';
import { declared, emptyDesired, emptyLive, mixedScenario, noChangeScenario, view } from '../plan/fixtures.js';
import { pinsKey } from '../../src/state/types.js';

/** What a scoped plan says about the lists it left unread, and where it lists the changes the pull request did not ask for, by origin. */

const base = { ref: 'origin/main', commit: 'abcdef1'.padEnd(40, '0') };

const HEDGED = 'Not applied or changed outside viewctl since origin/main: applying sets them to the manifests';
const OUTSIDE = 'Changed outside viewctl since origin/main: applying reverts them';
const MEMBERSHIP =
  'Group members changed since origin/main (joined, left or changed role): applying sets their tabs to the manifests';

function scopedMixed(
  origin: (change: Change) => ChangeOrigin | undefined = (change) =>
    change.action === 'pin' ? undefined : 'unapplied-or-outside',
): ReturnType<typeof computePlan>['plan'] {
  const { desired, live } = mixedScenario();
  // The pull request's own change is Mia's list; the manifests asked the rest at REF too.
  return computePlan(desired, live, { scope: { base, lists: 40, unread: 39 }, origin }).plan;
}

describe('a scoped plan in text', () => {
  it("says what it read and why, and lists what REF asked too apart, after the pull request's own, under the hedged heading", () => {
    const text = renderText(scopedMixed(), { color: false });
    expect(text).toContain(
      '\nScope: read 1 of 40 pinned lists (--base origin/main (abcdef1): the others ask for what they asked then and name no view this plan creates, renames or deletes); the 39 unread lists were not checked for drift.\n',
    );
    expect(text).not.toContain(OUTSIDE);
    const [own = '', hedged = ''] = text.split(`${HEDGED}\n`);
    expect(own).toMatch(/↻ pins {4}mia@acme\.com/);
    expect(own).not.toMatch(/\+ create|~ update|- delete|! drift/);
    // Told by cause, in a fixed order: the update's attributes, the create's missing view, the delete's undeclared one, the automation.
    expect(hedged.split('\n\n')[0]).toMatch(
      /^ {2}! drift {3}1 RecordingView: attributes differ {2}views\/recordings\/zoom\.yaml:1\n.*"Zoom and Meet calls"(.*\n)* {2}! drift {3}1 RecordingView missing from the workspace {2}views\/recordings\/team-calls\.yaml:1\n(.*\n)* {2}! drift {3}1 DealView declared by no manifest\n(.*\n)* {2}! drift {3}1 admin automation differs from the manifests {2}automations\.yaml:3/,
    );
  });

  it('asserts "changed outside" only for changes labelled outside, and gives each origin its own heading, in a fixed order', () => {
    const origins: Partial<Record<Change['action'], ChangeOrigin>> = {
      create: 'unapplied-or-outside',
      update: 'outside',
      pin: 'membership',
    };
    const text = renderText(
      scopedMixed((change) => origins[change.action]),
      { color: false },
    );
    const outside = text.indexOf(
      `\n${OUTSIDE}\n  ! drift   1 RecordingView: attributes edited in the app  views/recordings/zoom.yaml:1\n      "Zoom and Meet calls" (rv_1, owner ops@acme.com)\n`,
    );
    const hedged = text.indexOf(
      `\n${HEDGED}\n  ! drift   1 RecordingView missing from the workspace  views/recordings/team-calls.yaml:1\n      "Team calls"\n`,
    );
    const membership = text.indexOf(
      `\n${MEMBERSHIP}\n  ! drift   1 member newly reached by a group (joined, or a role changed); their recordings tabs are pending  pins/mia.yaml:1\n      mia@acme.com\n`,
    );
    // The pull request's own (the delete, the drift) first, with no heading.
    expect(text.indexOf('- delete')).toBeLessThan(outside);
    expect(text.indexOf('! drift')).toBeLessThan(outside);
    expect(outside).toBeGreaterThan(0);
    expect(hedged).toBeGreaterThan(outside);
    expect(membership).toBeGreaterThan(hedged);
  });

  it('never says applying reverts an admin automation: apply cannot write one', () => {
    const plan = computePlan(mixedScenario().desired, mixedScenario().live, { origin: () => 'outside' }).plan;
    const automation: Change = {
      action: 'drift',
      target: 'automations',
      kind: 'AdminAutomation',
      name: 'Record',
      before: null,
      after: {},
      differences: [],
      origin: 'outside',
    };
    expect(originHeading(plan, 'outside', [automation])).toMatch(
      /: apply cannot change them, fix them in the workspace settings$/,
    );
    expect(originHeading(plan, 'unapplied-or-outside', [automation])).toMatch(
      /: apply cannot change them, fix them in the workspace settings$/,
    );
    const pin = plan.changes.find((change) => change.action !== 'drift');
    expect(originHeading(plan, 'outside', [automation, ...(pin === undefined ? [] : [pin])])).toMatch(
      /: applying reverts them$/,
    );
    expect(originHeading(plan, 'outside')).toMatch(/: applying reverts them$/);
  });

  it('says "since the last apply (no memory of it)" when a plan with origins carries no --base ref nor a last applied commit', () => {
    const plan = computePlan(mixedScenario().desired, mixedScenario().live, {
      origin: () => 'unapplied-or-outside',
    }).plan;
    expect(renderText(plan, { color: false })).toContain(
      '\nNot applied or changed outside viewctl since the last apply (no memory of it): applying sets them to the manifests\n  ! drift',
    );
  });

  it('says what a budgeted night covered, what is due and within how many nights every list is read, with the memory and without', () => {
    const { desired, live } = noChangeScenario();
    const render = (scope: PlanScope): string =>
      renderText(computePlan(desired, live, { scope }).plan, { color: false });
    const remembered: PlanScope = {
      budget: 1000,
      lists: 3468,
      unread: 2484,
      coverage: { order: 'memory', cycle: 4, neverRead: 40, due: 2484, dueWithin: 3, newPerNight: 98, overdue: 0 },
    };
    expect(render(remembered)).toContain(
      '\nScope: read 984 of 3,468 pinned lists (--budget 1,000: 40 new to the sweep, the rest least recently read; 2,484 due within 3 nights; every list is read within 4 nights at this budget); the 2,484 unread lists were not checked for drift.\n',
    );
    const late: PlanScope = {
      ...remembered,
      coverage: { ...remembered.coverage, neverRead: 0, overdue: 12 } as PlanScope['coverage'],
    };
    expect(render(late)).toContain(
      '(--budget 1,000: the least recently read; 2,484 due within 3 nights; every list is read within 4 nights at this budget; 12 lists waited or will wait longer than that since their last read (nights without a sweep, a lower budget or more lists): a new cycle starts this night); the 2,484',
    );
    const rotation: PlanScope = {
      budget: 1000,
      lists: 3468,
      unread: 2484,
      coverage: { order: 'rotation', cycle: 4, due: 2484, dueWithin: 3 },
    };
    expect(render(rotation)).toContain(
      "(--budget 1,000: this night's share of a 4-night rotation by a hash of each list's key, and the lists due soonest after it; 2,484 due within 3 nights; every list is read within 4 nights at this budget);",
    );
    // Every list read: the budget alone, in JSON the cycle of 1.
    const all: PlanScope = {
      budget: 1000,
      lists: 40,
      unread: 0,
      coverage: { order: 'memory', cycle: 1, neverRead: 0, due: 0, dueWithin: 0, newPerNight: 98, overdue: 0 },
    };
    expect(render(all)).toContain('\nScope: read 40 of 40 pinned lists (--budget 1,000).\n');
    expect(renderMarkdown(computePlan(desired, live, { scope: rotation }).plan, { color: false })).toContain(
      "*Scope: read 984 of 3,468 pinned lists (--budget 1,000: this night's share of a 4-night rotation",
    );
  });

  it('states the slice of a plan an earlier build saved, and the scope of a plan with nothing to do', () => {
    const { desired, live } = noChangeScenario();
    desired.workspace.ignore = [];
    live.views.deals = live.views.deals?.filter((view) => view.viewId !== 'dv_12');
    const plan = computePlan(desired, live, {
      scope: { budget: 400, lists: 4000, unread: 3605, slice: { index: 3, count: 11 } },
    }).plan;
    expect(renderText(plan, { color: false }).split('\n')[1]).toBe(
      'Scope: read 395 of 4,000 pinned lists, slice 3 of 11 (--budget 400: the slice rotates by UTC day, so 11 daily runs cover every list); the 3,605 unread lists were not checked for drift.',
    );
    // Such a plan file still loads, as does one with the night's coverage.
    expect(parsePlanFile(renderJson(plan)).scope).toEqual(plan.scope);
    const night = computePlan(desired, live, {
      scope: {
        budget: 400,
        lists: 4000,
        unread: 3605,
        coverage: { order: 'memory', cycle: 11, neverRead: 3, due: 3605, dueWithin: 10, newPerNight: 39, overdue: 0 },
      },
    }).plan;
    expect(parsePlanFile(renderJson(night)).scope).toEqual(night.scope);
  });
});

describe('a scoped plan in markdown', () => {
  it('puts what REF asked too in a table of its own under the hedged heading', () => {
    const markdown = renderMarkdown(scopedMixed(), { color: false });
    expect(markdown).toContain('*Scope: read 1 of 40 pinned lists (--base origin/main (abcdef1)');
    expect(markdown).not.toContain(OUTSIDE);
    const [own = '', hedged = ''] = markdown.split(`**${HEDGED}**`);
    expect(own).toMatch(/\| 📌 \| Pins \| mia@acme\.com · recordings \|/);
    expect(own).not.toContain('| ➕ |');
    expect(hedged).toMatch(
      /^\n\n\| \| kind \| name \| source \|\n\|---\|---\|---\|---\|\n\| ⚠️ \| Drift \| \*\*1 RecordingView: attributes differ\*\*: \*\*Zoom and Meet calls\*\* \(rv\\_1, owner ops@acme\.com\) \|/,
    );
    expect(hedged).toContain('| ⚠️ | Drift | **1 RecordingView missing from the workspace**: **Team calls** |');
    expect(hedged).toContain(
      '| ⚠️ | Drift | **1 DealView declared by no manifest**: **Old pipeline** (dv\\_9, owner max@acme.com) |',
    );
  });

  it("gives each origin a table under its heading, after the pull request's own, and none to an origin no change has", () => {
    const origins: Partial<Record<Change['action'], ChangeOrigin>> = { update: 'outside', pin: 'membership' };
    const markdown = renderMarkdown(
      scopedMixed((change) => origins[change.action]),
      { color: false },
    );
    expect(markdown).not.toContain(HEDGED);
    const table = '\n\n| | kind | name | source |\n|---|---|---|---|\n';
    expect(markdown).toContain(`not checked for drift.*${table}| ➕ | RecordingView | Team calls |`);
    expect(markdown).toContain(
      `\n\n**${OUTSIDE}**${table}| ⚠️ | Drift | **1 RecordingView: attributes edited in the app**: **Zoom and Meet calls** (rv\\_1, owner ops@acme.com) |`,
    );
    expect(markdown).toContain(
      `\n\n**${MEMBERSHIP}**${table}| ⚠️ | Drift | **1 member newly reached by a group (joined, or a role changed); their recordings tabs are pending**: mia@acme.com |`,
    );
    expect(markdown.indexOf(OUTSIDE)).toBeLessThan(markdown.indexOf(MEMBERSHIP));
  });

  it("opens with the first origin's heading, after one blank line, when the pull request has no change of its own", () => {
    const markdown = renderMarkdown(
      scopedMixed(() => 'unapplied-or-outside'),
      { color: false },
    );
    expect(markdown).toContain(
      `not checked for drift.*\n\n**${HEDGED}**\n\n| | kind | name | source |\n|---|---|---|---|\n| ⚠️ | Drift |`,
    );
  });
});

describe('a scoped plan in JSON', () => {
  it("marks each change with its origin and leaves the pull request's own unmarked", () => {
    const origins: Partial<Record<Change['action'], ChangeOrigin>> = {
      create: 'unapplied-or-outside',
      update: 'outside',
      pin: 'membership',
    };
    const plan = JSON.parse(renderJson(scopedMixed((change) => origins[change.action]))) as {
      changes: { action: string; origin?: string }[];
    };
    expect(plan.changes.map((change) => [change.action, change.origin ?? null])).toEqual([
      ['create', 'unapplied-or-outside'],
      ['update', 'outside'],
      ['delete', null],
      ['pin', 'membership'],
      ['drift', null],
    ]);
  });
});

describe("a scoped plan's deletion, when lists of its view's domain were not read", () => {
  // 3,494 deal lists, 14 read: Old pipeline (dv_9, a deal view) is pinned by Mia, Max and Zoe, all read.
  const dealsUnread = {
    base,
    lists: 3500,
    unread: 3486,
    unreadByDomain: { deals: { lists: 3494, unread: 3480 }, recordings: { lists: 6, unread: 6 } },
  };

  function scopedDelete(scope: PlanScope, pinned = true): ReturnType<typeof computePlan>['plan'] {
    const { desired, live } = mixedScenario();
    if (!pinned) for (const key of Object.keys(live.pins)) if (key.startsWith('deals:')) delete live.pins[key];
    return computePlan(desired, live, { scope }).plan;
  }

  it('says how many of the lists read pin it and how many were not read, in text and markdown', () => {
    const plan = scopedDelete(dealsUnread);
    expect(plan.changes.find((change) => change.action === 'delete')).toMatchObject({
      pinLists: { read: 14, unread: 3480 },
    });
    const text = renderText(plan, { color: false });
    expect(text).toContain(
      '"Old pipeline" (dv_9), owner max@acme.com, pinned by 3 of the 14 deals lists read; 3,480 lists not read (they may pin it too)\n    pinned by: max@acme.com, mia@acme.com, zoe@acme.com\n',
    );
    expect(renderMarkdown(plan, { color: false })).toContain(
      '**Old pipeline** (dv\\_9, owner max@acme.com, pinned by 3 of the 14 deals lists read; 3,480 lists not read (they may pin it too)) | prune: not declared |',
    );
  });

  it('says "none of the lists read" instead of nothing when no list read pins it', () => {
    const plan = scopedDelete(dealsUnread, false);
    expect(renderText(plan, { color: false })).toContain(
      '"Old pipeline" (dv_9), owner max@acme.com, pinned by none of the 14 deals lists read; 3,480 lists not read (they may pin it)\n',
    );
    expect(renderMarkdown(plan, { color: false })).toContain(
      '(dv\\_9, owner max@acme.com, pinned by none of the 14 deals lists read; 3,480 lists not read (they may pin it)) |',
    );
    const noneRead = scopedDelete(
      {
        base,
        lists: 2,
        unread: 2,
        unreadByDomain: { deals: { lists: 1, unread: 1 }, recordings: { lists: 1, unread: 1 } },
      },
      false,
    );
    expect(renderText(noneRead, { color: false })).toContain(
      ', pinned by none of the lists read: no deals list was read; 1 list not read (it may pin it)\n',
    );
  });

  it("keeps the full plan's wording when every list of the view's domain was read", () => {
    const plan = scopedDelete({ base, lists: 20, unread: 6, unreadByDomain: { recordings: { lists: 6, unread: 6 } } });
    expect(plan.changes.find((change) => change.action === 'delete')).not.toHaveProperty('pinLists');
    expect(renderText(plan, { color: false })).toContain(
      '"Old pipeline" (dv_9), owner max@acme.com, pinned by 3 users\n',
    );
    expect(renderMarkdown(plan, { color: false })).toContain('(dv\\_9, owner max@acme.com, pinned by 3 users) |');
  });

  it('says it for each deletion of a batch, in the summary and in the details', () => {
    const live = emptyLive();
    live.views.recordings = [
      ...Array.from({ length: 30 }, (_, index) => view(`rv_${index}`, `Old ${index}`)),
      ...(live.views.recordings ?? []),
    ];
    live.pins[pinsKey('recordings', 'mia@acme.com')] = [view('rv_3', 'Old 3')];
    const desired = emptyDesired({ prune: true });
    desired.views = [declared('recordings', 'Kept')];
    const plan = computePlan(desired, live, {
      scope: { base, lists: 40, unread: 38, unreadByDomain: { recordings: { lists: 40, unread: 38 } } },
    }).plan;
    const text = renderText(plan, { color: false });
    expect(text).toContain(
      '\n      "Old 0" (rv_0, pinned by none of the 2 recordings lists read; 38 lists not read (they may pin it)),\n',
    );
    expect(text).toContain(
      '"Old 3" (rv_3, pinned by 1 of the 2 recordings lists read; 38 lists not read (they may pin it too))',
    );
    expect(text).toContain(
      '"Old 3" (rv_3),\n        pinned by mia@acme.com; 1 of the 2 recordings lists read; 38 lists not read (they may pin it too)\n',
    );
    const markdown = renderMarkdown(plan, { color: false });
    expect(markdown).toContain(
      '**Old 0** (rv\\_0, pinned by none of the 2 recordings lists read; 38 lists not read (they may pin it))',
    );
    expect(markdown).toContain(
      '**Old 3** (rv\\_3, pinned by mia@acme.com; 1 of the 2 recordings lists read; 38 lists not read (they may pin it too))',
    );
  });
});
