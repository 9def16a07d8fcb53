import { describe, expect, it } from 'vitest';
import type { Desired } from '../../src/domain/desired.js';
import { keyedPins } from '../../src/plan/desired-values.js';
import { planWorkspace } from '../../src/flows/plan-workspace.js';
import { heldListKeys, namesTouchedView, pendingKeys, selectByBase } from '../../src/plan/scope.js';
import { emptyMemory } from '../../src/state/sweep-memory.js';
import { touchedViews } from '../../src/kinds/views-after-plan.js';
import { checkCeiling, choosePinnedLists, planFloor } from '../../src/plan/scope-reads.js';
import { readCeiling } from '../../src/state/read-ceiling.js';
import { automationsRead, listingRead } from '../../src/state/reads.js';
import type { Change } from '../../src/plan/types.js';
import { pinsKey } from '../../src/state/types.js';
import { at, declared, emptyDesired, emptyLive, pinsOf, view } from './fixtures.js';
import { liveClient } from './live-client.js';

/** Which pinned lists a scoped plan reads, what it refuses before reading them, and what it labels as changed in the app. */

function members(count: number, refs = [{ name: 'All recordings' }]): Desired {
  const desired = emptyDesired();
  desired.pins = Array.from({ length: count }, (_, index) =>
    pinsOf(`m${String(index).padStart(3, '0')}@acme.com`, 'recordings', refs),
  );
  return desired;
}

describe('selectByBase', () => {
  it('reads lists that changed since REF, new lists, and lists naming a view the plan creates, renames or deletes', () => {
    const now = emptyDesired();
    now.pins = [
      pinsOf('same@acme.com', 'recordings', [{ name: 'All recordings' }]),
      pinsOf('edited@acme.com', 'recordings', [{ name: 'All recordings' }, { name: 'My recordings' }]),
      pinsOf('new@acme.com', 'recordings', [{ name: 'All recordings' }]),
      pinsOf('created@acme.com', 'recordings', [{ name: 'Team calls' }]),
      pinsOf('renamed@acme.com', 'recordings', [{ viewId: 'rv_1' }]),
      pinsOf('private@acme.com', 'recordings', [{ name: 'All recordings' }], { unpinPrivate: true }),
    ];
    const base = emptyDesired();
    // Same values written elsewhere in the files: positions do not count.
    base.pins = [
      pinsOf('same@acme.com', 'recordings', [{ name: 'All recordings' }], { source: at('elsewhere.yaml', 40) }),
      pinsOf('edited@acme.com', 'recordings', [{ name: 'All recordings' }]),
      pinsOf('created@acme.com', 'recordings', [{ name: 'Team calls' }]),
      pinsOf('renamed@acme.com', 'recordings', [{ viewId: 'rv_1' }]),
      pinsOf('private@acme.com', 'recordings', [{ name: 'All recordings' }]),
    ];
    const changes = [
      { action: 'create', domain: 'recordings', after: { name: 'Team calls' } },
      {
        action: 'update',
        domain: 'recordings',
        id: 'rv_1',
        before: { name: 'Calls' },
        after: { name: 'Customer calls' },
      },
    ] as unknown as Change[];
    const read = selectByBase(keyedPins(now), keyedPins(base), touchedViews(changes)).map(
      (entry) => entry.pins.userEmail,
    );
    expect(read).toEqual([
      'edited@acme.com',
      'new@acme.com',
      'created@acme.com',
      'renamed@acme.com',
      'private@acme.com',
    ]);
  });
});

describe('selectByBase and the sweep memory', () => {
  it("reads the lists the memory marks pending (a group's new member's), and only those of the rest", () => {
    const now = emptyDesired();
    now.pins = [
      pinsOf('joiner@acme.com', 'deals', [{ name: 'All deals' }]),
      pinsOf('old@acme.com', 'deals', [{ name: 'All deals' }]),
    ];
    const memory = emptyMemory();
    memory.lists['deals:joiner@acme.com'] = {
      lastRead: '2026-06-01T00:00:00Z',
      viewIds: ['dv_all'],
      pending: 'membership',
    };
    memory.lists['deals:old@acme.com'] = { lastRead: '2026-06-01T00:00:00Z', viewIds: ['dv_x'] };
    const read = (pending: ReadonlySet<string>) =>
      selectByBase(keyedPins(now), keyedPins(now), touchedViews([]), pending).map((entry) => entry.pins.userEmail);
    expect(read(pendingKeys(memory))).toEqual(['joiner@acme.com']);
    expect(read(pendingKeys(undefined))).toEqual([]);
  });

  it('knows the pinned lists the last apply held, of every target the memory records as held', () => {
    const memory = emptyMemory();
    memory.lastApplied = {
      commit: 'c'.repeat(40),
      at: '2026-06-01T00:00:00Z',
      held: ['pins:deals:old@acme.com', 'view:deals:id:dv_x', 'automations'],
    };
    expect([...heldListKeys(memory)]).toEqual(['deals:old@acme.com']);
    expect(heldListKeys(undefined).size).toBe(0);
  });
});

describe('choosePinnedLists and the lists the last apply held', () => {
  const ceiling = (budget: number | undefined) =>
    readCeiling({ ...(budget === undefined ? {} : { budget }), reserve: 0, spent: 0, remaining: null, least: 4 });
  const lists = keyedPins(members(10));
  const held = [lists[7]?.key ?? '', lists[9]?.key ?? ''];
  const memory = emptyMemory();
  memory.lastApplied = { commit: 'c'.repeat(40), at: '2026-06-01T00:00:00Z', held: held.map((key) => `pins:${key}`) };

  it('reads them in a --base plan, which the pull request does not touch', () => {
    const base = { base: { ref: 'main', commit: 'a'.repeat(40), desired: members(10) } };
    const figures = { viewChanges: [], spent: 3, remaining: null, ceiling: ceiling(undefined), day: 1 };
    expect(choosePinnedLists(lists, base, figures).read).toEqual([]);
    expect(choosePinnedLists(lists, base, { ...figures, memory }).read.map((entry) => entry.key)).toEqual(held);
  });

  it('reads them first in a budgeted night: they are due', () => {
    // Every list read the night before: without the holds the night would read others.
    for (const entry of lists) memory.lists[entry.key] = { lastRead: '2026-06-01T00:00:00.000Z', viewIds: [] };
    const night = Math.floor(Date.parse('2026-06-02T02:00:00.000Z') / 86_400_000);
    const chosen = choosePinnedLists(
      lists,
      { budget: 6 },
      { viewChanges: [], spent: 3, remaining: null, ceiling: ceiling(6), day: night, memory },
    );
    expect(chosen.read.map((entry) => entry.key).slice(0, 2)).toEqual(held);
    expect(chosen.read).toHaveLength(3);
    expect(chosen.scope?.coverage).toMatchObject({ due: 7 });
    // Holds that fill the room leave the sweep for the next night.
    const full = choosePinnedLists(
      lists,
      { budget: 5 },
      { viewChanges: [], spent: 3, remaining: null, ceiling: ceiling(5), day: night, memory },
    );
    expect(full.read.map((entry) => entry.key)).toEqual(held);
    expect(full.scope?.coverage).toMatchObject({ due: 8 });
  });
});

describe('touchedViews and namesTouchedView', () => {
  it('touch a deleted view by name and id, a renamed one by both names and id, an update that keeps the name not at all, each in its own domain', () => {
    const changes = [
      { action: 'delete', domain: 'recordings', id: 'rv_9', before: { name: 'Old' } },
      {
        action: 'update',
        domain: 'recordings',
        id: 'rv_1',
        before: { name: 'Calls' },
        after: { name: 'Customer calls' },
      },
      { action: 'update', domain: 'recordings', id: 'rv_2', before: { name: 'Demos' }, after: { name: 'Demos' } },
    ] as unknown as Change[];
    const touched = touchedViews(changes);
    const names = (refs: ({ name: string } | { viewId: string })[], domain: 'recordings' | 'deals' = 'recordings') =>
      namesTouchedView(pinsOf('mia@acme.com', domain, refs), touched);
    expect(
      [
        [{ name: 'Old' }],
        [{ viewId: 'rv_9' }],
        [{ name: 'Calls' }],
        [{ name: 'Customer calls' }],
        [{ viewId: 'rv_1' }],
      ].map((refs) => names(refs)),
    ).toEqual([true, true, true, true, true]);
    expect([[{ name: 'Demos' }], [{ viewId: 'rv_2' }], [{ name: 'Team' }]].map((refs) => names(refs))).toEqual([
      false,
      false,
      false,
    ]);
    expect(names([{ name: 'Old' }, { viewId: 'rv_9' }], 'deals')).toBe(false);
  });
});

describe('choosePinnedLists', () => {
  const ceiling = (budget: number | undefined, reserve = 0, remaining: number | null = null, spent = 0) =>
    readCeiling({ ...(budget === undefined ? {} : { budget }), reserve, spent, remaining, least: 4 });

  it('reads as many lists as the budget leaves after the reads already spent, and says what it covered and promises', () => {
    const lists = keyedPins(members(10));
    const chosen = choosePinnedLists(
      lists,
      { budget: 7 },
      { viewChanges: [], spent: 3, remaining: null, ceiling: ceiling(7), day: 1 },
    );
    expect(chosen.read).toHaveLength(4);
    expect(chosen.scope).toEqual({
      budget: 7,
      lists: 10,
      unread: 6,
      coverage: {
        order: 'rotation',
        cycle: expect.any(Number),
        due: 6,
        dueWithin: (chosen.scope?.coverage?.cycle ?? 0) - 1,
      },
      unreadByDomain: { recordings: { lists: 10, unread: 6 } },
    });
    // With the memory: the lists it never saw read first, then the least recently read.
    const memory = emptyMemory();
    for (const entry of lists.slice(0, 8))
      memory.lists[entry.key] = { lastRead: '2026-03-01T02:00:00.000Z', viewIds: [] };
    // The night after those reads (a read dated after the night is no read: it would never be due).
    const night = Math.floor(Date.parse('2026-03-02T02:00:00.000Z') / 86_400_000);
    const remembered = choosePinnedLists(
      lists,
      { budget: 7 },
      { viewChanges: [], spent: 3, remaining: null, ceiling: ceiling(7), day: night, memory },
    );
    expect(
      remembered.read
        .slice(0, 2)
        .map((entry) => entry.key)
        .sort(),
    ).toEqual(
      lists
        .slice(8)
        .map((entry) => entry.key)
        .sort(),
    );
    expect(remembered.scope?.coverage).toMatchObject({ order: 'memory', neverRead: 2, due: 6 });
    // A pull request's lists under a budget are read once, not in rotation: no promise.
    const base = { base: { ref: 'origin/main', commit: 'a'.repeat(40), desired: emptyDesired() }, budget: 7 };
    expect(
      choosePinnedLists(lists, base, { viewChanges: [], spent: 3, remaining: null, ceiling: ceiling(7), day: 1 }).scope
        ?.coverage,
    ).toBeUndefined();
    expect(() =>
      choosePinnedLists(
        lists,
        { budget: 3 },
        { viewChanges: [], spent: 3, remaining: null, ceiling: ceiling(3), day: 1 },
      ),
    ).toThrow(expect.objectContaining({ code: 'usage.budget-too-small', hint: expect.stringContaining('at least 4') }));
  });

  it('counts the unread lists per domain, naming only the domains with some unread, so a deletion counts those of its own', () => {
    const now = members(3);
    now.pins.push(
      pinsOf('dee@acme.com', 'deals', [{ name: 'All deals' }]),
      pinsOf('dan@acme.com', 'deals', [{ name: 'All deals' }]),
    );
    const base = members(3);
    base.pins.push(pinsOf('dee@acme.com', 'deals', [{ name: 'All deals' }]));
    const chosen = choosePinnedLists(
      keyedPins(now),
      { base: { ref: 'origin/main', commit: 'a'.repeat(40), desired: base } },
      { viewChanges: [], spent: 3, remaining: null, ceiling: ceiling(undefined), day: 1 },
    );
    expect(chosen.read.map((entry) => entry.key)).toEqual([pinsKey('deals', 'dan@acme.com')]);
    expect(chosen.scope).toMatchObject({
      lists: 5,
      unread: 4,
      unreadByDomain: { deals: { lists: 2, unread: 1 }, recordings: { lists: 3, unread: 3 } },
    });
    // Every list read: no domain is named.
    const all = choosePinnedLists(
      keyedPins(members(3)),
      { budget: 100 },
      { viewChanges: [], spent: 3, remaining: null, ceiling: ceiling(100), day: 1 },
    );
    expect(all.scope).toEqual({
      budget: 100,
      lists: 3,
      unread: 0,
      coverage: { order: 'rotation', cycle: 1, due: 0, dueWithin: 0 },
    });
  });

  it('reads what is left today less the reserve when that is below the budget', () => {
    const lists = keyedPins(members(10));
    // 25 left after the workspace read: a ceiling of 26 − 20 = 6; 3 spent leaves 3 lists.
    const chosen = choosePinnedLists(
      lists,
      { budget: 1000 },
      { viewChanges: [], spent: 3, remaining: 23, ceiling: ceiling(1000, 20, 25, 1), day: 1 },
    );
    expect(chosen.read).toHaveLength(3);
    expect(chosen.scope).toMatchObject({ budget: 1000, unread: 7, coverage: { due: 7 } });
    // The other integrations spent 2 meanwhile: the service's word wins over the ceiling set before.
    expect(
      choosePinnedLists(
        lists,
        { budget: 1000 },
        { viewChanges: [], spent: 3, remaining: 21, ceiling: ceiling(1000, 20, 25, 1), day: 1 },
      ).read,
    ).toHaveLength(1);
    const none = () =>
      choosePinnedLists(
        lists,
        { budget: 1000 },
        { viewChanges: [], spent: 3, remaining: 20, ceiling: ceiling(1000, 20, 25, 1), day: 1 },
      );
    expect(none).toThrow(
      expect.objectContaining({
        code: 'plan.exceeds-daily-quota',
        message: expect.stringContaining('20 are left today and --reserve keeps 20 of them'),
      }),
    );
  });

  it('without a budget, refuses lists that do not fit in what is left today less the reserve', () => {
    const lists = keyedPins(members(10));
    expect(
      choosePinnedLists(
        lists,
        {},
        { viewChanges: [], spent: 2, remaining: 310, ceiling: ceiling(undefined, 300, 311, 1), day: 1 },
      ).read,
    ).toHaveLength(10);
    const refused = () =>
      choosePinnedLists(
        lists,
        {},
        { viewChanges: [], spent: 2, remaining: 309, ceiling: ceiling(undefined, 300, 310, 1), day: 1 },
      );
    expect(refused).toThrow(
      expect.objectContaining({
        code: 'plan.exceeds-daily-quota',
        message: expect.stringContaining(
          'needs 10 requests to read every pinned list, but the service says 309 are left today and --reserve keeps 300 of them',
        ),
        hint: expect.stringMatching(/--base REF.*--budget N.*lower --reserve/),
      }),
    );
  });
});

describe('planWorkspace, scoped', () => {
  it('refuses before the first pinned-list read when the lists need more than is left today, naming --base and --budget', async () => {
    const desired = members(40);
    const { client, pinReads, routes } = liveClient(emptyLive(), 30);
    const refusal = planWorkspace(desired, client);
    await expect(refusal).rejects.toMatchObject({ code: 'plan.exceeds-daily-quota' });
    await expect(refusal).rejects.toThrow(/40 requests.*28 are left today/);
    await expect(refusal).rejects.toMatchObject({ hint: expect.stringMatching(/--base REF.*--budget N/) });
    expect(pinReads).toEqual([]);
    expect(routes).toEqual(['/v1/workspaces/mine', '/v1/recordings/views']);
  });

  it('refuses a budget that cannot cover the view reads and one list before any request', async () => {
    const { client, routes } = liveClient(emptyLive());
    await expect(planWorkspace(members(3), client, { scope: { budget: 2 } })).rejects.toMatchObject({
      code: 'usage.budget-too-small',
    });
    await expect(planWorkspace(members(3), client, { scope: { budget: 0 } })).rejects.toMatchObject({
      code: 'usage.budget-too-small',
    });
    expect(routes).toEqual([]);
  });

  it('spends at most the budget, reading the night of the UTC day the clock gives, and with the memory the lists it never saw read first', async () => {
    const desired = members(10);
    const clock = { now: () => Date.parse('2026-03-02T23:59:00Z') };
    const { client, pinReads } = liveClient(emptyLive());
    const { plan } = await planWorkspace(desired, client, { scope: { budget: 6 }, clock });
    expect(plan.requests.used).toBe(6);
    expect(pinReads).toHaveLength(4);
    expect(plan.scope).toEqual({
      budget: 6,
      lists: 10,
      unread: 6,
      coverage: { order: 'rotation', cycle: 4, due: 6, dueWithin: 3 },
      unreadByDomain: { recordings: { lists: 10, unread: 6 } },
    });
    // Six of the ten read the night before: the other four are read tonight.
    const memory = emptyMemory();
    const lists = keyedPins(desired);
    for (const entry of lists.slice(0, 6))
      memory.lists[entry.key] = { lastRead: '2026-03-01T23:00:00.000Z', viewIds: [] };
    const remembered = liveClient(emptyLive());
    const again = await planWorkspace(desired, remembered.client, { scope: { budget: 6 }, clock, memory });
    expect([...remembered.pinReads].sort()).toEqual(
      lists
        .slice(6)
        .map((entry) => entry.key)
        .sort(),
    );
    expect(again.plan.scope?.coverage).toEqual({
      order: 'memory',
      cycle: 3,
      neverRead: 4,
      due: 6,
      dueWithin: 2,
      newPerNight: 0,
      overdue: 0,
    });
  });

  it('with a base, reads the views in full and only the lists that changed, and labels what was changed in the app', async () => {
    const live = emptyLive();
    live.views.recordings = [view('rv_1', 'Calls', { icon: 'phone' }), ...(live.views.recordings ?? [])];
    live.pins = {
      [pinsKey('recordings', 'ana@acme.com')]: [view('rv_1', 'Calls')],
      [pinsKey('recordings', 'bob@acme.com')]: [view('rv_1', 'Calls')],
    };
    const now = emptyDesired();
    now.views = [declared('recordings', 'Calls', { icon: 'telephone' })];
    now.pins = [
      pinsOf('ana@acme.com', 'recordings', [{ name: 'All recordings' }]),
      pinsOf('bob@acme.com', 'recordings', [{ name: 'All recordings' }]),
    ];
    const base = structuredClone(now);
    base.pins[1] = pinsOf('bob@acme.com', 'recordings', [{ name: 'Calls' }]);
    const { client, pinReads } = liveClient(live);
    const { plan } = await planWorkspace(now, client, {
      scope: { base: { ref: 'origin/main', commit: 'a'.repeat(40), desired: base } },
    });
    expect(pinReads).toEqual(['recordings:bob@acme.com']);
    expect(plan.scope).toEqual({
      base: { ref: 'origin/main', commit: 'a'.repeat(40) },
      lists: 2,
      unread: 1,
      unreadByDomain: { recordings: { lists: 2, unread: 1 } },
    });
    expect(plan.changes.map((change) => [change.action, change.name, change.origin ?? 'own'])).toEqual([
      ['update', 'Calls', 'unapplied-or-outside'],
      ['pin', 'bob@acme.com', 'own'],
    ]);
  });
});

describe('planFloor and checkCeiling', () => {
  const needs = (automations: boolean) => [
    listingRead('recordings'),
    listingRead('deals'),
    ...(automations ? [automationsRead()] : []),
  ];
  const budgetOf = (budget: number, least: number) =>
    readCeiling({ budget, reserve: 0, spent: 0, remaining: null, least });

  it('count the workspace, each view listing, the automations and the users, plus one pinned list when there are any', () => {
    expect(planFloor(needs(false), { read: false }, true)).toEqual({
      fixed: 3,
      least: 4,
      what: 'the workspace and the 2 view listings',
      leastWhat: 'the workspace, the 2 view listings and a pinned list',
      exact: true,
    });
    expect(planFloor(needs(true), { read: false }, false)).toMatchObject({ fixed: 4, least: 4 });
    // The users, one request per 100 members: 870 members take 9.
    expect(planFloor(needs(true), { read: true, members: 870 }, true)).toMatchObject({
      fixed: 13,
      least: 14,
      what: 'the workspace, the 2 view listings, the automations and the users (9 requests for 870 members)',
      exact: true,
    });
    // Before the workspace says how many members there are, a page at least, and not exact.
    expect(planFloor(needs(false), { read: true }, true)).toMatchObject({ fixed: 4, least: 5, exact: false });
  });

  it('refuse a budget below the floor with the floor as the least, and let the floor itself through', () => {
    const floor = planFloor(needs(true), { read: false }, true);
    expect(() => checkCeiling(budgetOf(4, floor.least), floor, 'nothing was read')).toThrow(
      expect.objectContaining({
        code: 'usage.budget-too-small',
        message:
          '--budget 4 is too small: reading the workspace, the 2 view listings and the automations takes 4 requests, and a pinned list at least one more; nothing was read',
        hint: expect.stringMatching(/^pass a --budget of at least 5;/),
      }),
    );
    expect(() => checkCeiling(budgetOf(5, floor.least), floor, 'nothing was read')).not.toThrow();
  });

  it("refuse, as the quota's, a floor that what is left today less the reserve cannot pay, whatever the budget", () => {
    const floor = planFloor(needs(false), { read: true, members: 60 }, true);
    const ceiling = readCeiling({ budget: 1000, reserve: 300, spent: 1, remaining: 119, least: floor.least });
    expect(ceiling).toMatchObject({ least: 5, most: 0, left: 120, short: 'quota' });
    expect(() => checkCeiling(ceiling, floor, 'only the workspace was read')).toThrow(
      expect.objectContaining({
        code: 'plan.exceeds-daily-quota',
        message:
          'the plan reads at least 5 requests (the workspace, the 2 view listings, the users (1 request for 60 members) and a pinned list), but the service says 120 are left today and --reserve keeps 300 of them for the other integrations that share the quota; only the workspace was read',
        hint: expect.stringMatching(/wait until requests free up.*lower --reserve.*--reserve 0.*--base REF/),
      }),
    );
    expect(() =>
      checkCeiling(
        readCeiling({ budget: 1000, reserve: 0, spent: 1, remaining: 119, least: floor.least }),
        floor,
        'only the workspace was read',
      ),
    ).not.toThrow();
  });
});
