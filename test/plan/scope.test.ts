import { describe, expect, it } from 'vitest';
import type { Desired } from '../../src/domain/desired.js';
import { keyedPins } from '../../src/plan/desired-values.js';
import { planWorkspace } from '../../src/plan/plan-workspace.js';
import { budgetSlice, namesTouchedView, selectByBase, touchedViews } from '../../src/plan/scope.js';
import { checkBudgetCoversViews, choosePinnedLists } from '../../src/plan/scope-reads.js';
import type { ReadNeeds } from '../../src/state/needs.js';
import type { Change } from '../../src/plan/types.js';
import { pinsKey } from '../../src/state/types.js';
import { at, declared, emptyDesired, emptyLive, pinsOf, view } from './fixtures.js';
import { liveClient } from './live-client.js';

/** Which pinned lists a scoped plan reads, what it refuses before reading them, and what it labels as changed in the app. */

function members(count: number, refs = [{ name: 'All recordings' }]): Desired {
  const desired = emptyDesired();
  desired.pins = Array.from({ length: count }, (_, index) => pinsOf(`m${String(index).padStart(3, '0')}@acme.com`, 'recordings', refs));
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
      { action: 'update', domain: 'recordings', id: 'rv_1', before: { name: 'Calls' }, after: { name: 'Customer calls' } },
    ] as unknown as Change[];
    const read = selectByBase(keyedPins(now), keyedPins(base), touchedViews(changes)).map((entry) => entry.pins.userEmail);
    expect(read).toEqual(['edited@acme.com', 'new@acme.com', 'created@acme.com', 'renamed@acme.com', 'private@acme.com']);
  });
});

describe('touchedViews and namesTouchedView', () => {
  it('touch a deleted view by name and id, a renamed one by both names and id, an update that keeps the name not at all, each in its own domain', () => {
    const changes = [
      { action: 'delete', domain: 'recordings', id: 'rv_9', before: { name: 'Old' } },
      { action: 'update', domain: 'recordings', id: 'rv_1', before: { name: 'Calls' }, after: { name: 'Customer calls' } },
      { action: 'update', domain: 'recordings', id: 'rv_2', before: { name: 'Demos' }, after: { name: 'Demos' } },
    ] as unknown as Change[];
    const touched = touchedViews(changes);
    const names = (refs: ({ name: string } | { viewId: string })[], domain: 'recordings' | 'deals' = 'recordings') => namesTouchedView(pinsOf('mia@acme.com', domain, refs), touched);
    expect([[{ name: 'Old' }], [{ viewId: 'rv_9' }], [{ name: 'Calls' }], [{ name: 'Customer calls' }], [{ viewId: 'rv_1' }]].map((refs) => names(refs))).toEqual([true, true, true, true, true]);
    expect([[{ name: 'Demos' }], [{ viewId: 'rv_2' }], [{ name: 'Team' }]].map((refs) => names(refs))).toEqual([false, false, false]);
    expect(names([{ name: 'Old' }, { viewId: 'rv_9' }], 'deals')).toBe(false);
  });
});

describe('budgetSlice', () => {
  it('reads every list when they fit, and otherwise a slice of at most the room that consecutive days rotate through', () => {
    const lists = keyedPins(members(10));
    expect(budgetSlice(lists, 10, 7)).toEqual({ read: lists });
    const seen = new Map<string, number>();
    const count = Math.ceil(10 / 3);
    for (let day = 20_000; day < 20_000 + count; day += 1) {
      const { read, slice } = budgetSlice(lists, 3, day);
      expect(read.length).toBeLessThanOrEqual(3);
      expect(slice?.count).toBe(count);
      for (const entry of read) seen.set(entry.key, (seen.get(entry.key) ?? 0) + 1);
    }
    expect([...seen.keys()].sort()).toEqual(lists.map((entry) => entry.key).sort());
    expect([...seen.values()].every((times) => times === 1)).toBe(true);
  });

  it('cuts whole members into a slice: lists ordered by member email (any case), then by domain', () => {
    const desired = emptyDesired();
    desired.pins = [
      pinsOf('Zed@acme.com', 'recordings', [{ name: 'All recordings' }]),
      pinsOf('amy@acme.com', 'contacts', [{ name: 'All contacts' }]),
      pinsOf('zed@acme.com', 'deals', [{ name: 'All deals' }]),
      pinsOf('Amy@acme.com', 'recordings', [{ name: 'All recordings' }]),
    ];
    const keys = (day: number) => budgetSlice(keyedPins(desired), 2, day).read.map((entry) => entry.key);
    expect(keys(0)).toEqual(['recordings:amy@acme.com', 'contacts:amy@acme.com']);
    expect(keys(1)).toEqual(['recordings:zed@acme.com', 'deals:zed@acme.com']);
  });
});

describe('choosePinnedLists', () => {
  it('slices what the budget leaves after the reads already spent, and says so in the scope', () => {
    const lists = keyedPins(members(10));
    const chosen = choosePinnedLists(lists, { budget: 7 }, { viewChanges: [], spent: 3, day: 1 });
    expect(chosen.read).toHaveLength(4);
    expect(chosen.scope).toEqual({ budget: 7, lists: 10, unread: 6, slice: { index: 2, count: 3 } });
    expect(() => choosePinnedLists(lists, { budget: 3 }, { viewChanges: [], spent: 3, day: 1 })).toThrow(expect.objectContaining({ code: 'usage.budget-too-small' }));
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
    await expect(planWorkspace(members(3), client, { scope: { budget: 2 } })).rejects.toMatchObject({ code: 'usage.budget-too-small' });
    await expect(planWorkspace(members(3), client, { scope: { budget: 0 } })).rejects.toMatchObject({ code: 'usage.budget-too-small' });
    expect(routes).toEqual([]);
  });

  it('spends at most the budget, reading the slice of the UTC day the clock gives', async () => {
    const desired = members(10);
    const { client, pinReads } = liveClient(emptyLive());
    const { plan } = await planWorkspace(desired, client, { scope: { budget: 6 }, clock: { now: () => Date.parse('2026-03-02T23:59:00Z') } });
    expect(plan.requests.used).toBe(6);
    expect(pinReads).toHaveLength(4);
    expect(plan.scope).toEqual({ budget: 6, lists: 10, unread: 6, slice: { index: (Math.floor(Date.parse('2026-03-02') / 86_400_000) % 3) + 1, count: 3 } });
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
    const { plan } = await planWorkspace(now, client, { scope: { base: { ref: 'origin/main', commit: 'a'.repeat(40), desired: base } } });
    expect(pinReads).toEqual(['recordings:bob@acme.com']);
    expect(plan.scope).toEqual({ base: { ref: 'origin/main', commit: 'a'.repeat(40) }, lists: 2, unread: 1 });
    expect(plan.changes.map((change) => [change.action, change.name, change.origin ?? 'own'])).toEqual([
      ['update', 'Calls', 'unapplied-or-outside'],
      ['pin', 'bob@acme.com', 'own'],
    ]);
  });
});

describe('checkBudgetCoversViews', () => {
  const needs = (automations: boolean): ReadNeeds => ({ domains: ['recordings', 'deals'], pins: [], automations });

  it('counts the workspace, each view listing and the automations, plus one pinned list when there are any', () => {
    expect(() => checkBudgetCoversViews(4, needs(false), 1)).not.toThrow();
    expect(() => checkBudgetCoversViews(4, needs(true), 1)).toThrow(expect.objectContaining({ code: 'usage.budget-too-small', message: expect.stringContaining('the 2 view listings and the automations takes 4 requests') }));
    expect(() => checkBudgetCoversViews(5, needs(true), 1)).not.toThrow();
    expect(() => checkBudgetCoversViews(4, needs(true), 0)).not.toThrow();
  });
});
