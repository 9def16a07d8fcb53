import { describe, expect, it } from 'vitest';
import type { ApiUser, ApiView } from '../../src/domain/api-types.js';
import { memoryShapeProblems } from '../../src/state/memory-schema.js';
import { FORGET_AFTER_DAYS, observeRun, type LiveSeen } from '../../src/state/memory-observe.js';
import { advanceLastApplied, heldAfterApply, rememberApplied, withHoldsEnded } from '../../src/state/memory-applied.js';
import { emptyMemory, type SweepMemory } from '../../src/state/sweep-memory.js';

const DAY = 24 * 60 * 60 * 1000;
const T0 = Date.parse('2026-03-01T06:00:00.000Z');
const iso = (ms: number): string => new Date(ms).toISOString();

function view(viewId: string, name: string, extra: Partial<ApiView> = {}): ApiView {
  return {
    viewId,
    name,
    visibility: 'Public',
    isDefault: false,
    ownerId: 'u_1',
    columns: [],
    filters: {},
    sort: [],
    ...extra,
  };
}

function user(email: string, extra: Partial<ApiUser> = {}): ApiUser {
  return {
    id: `u_${email}`,
    email,
    name: email,
    license: 'Full',
    role: 'Member',
    state: 'Active',
    isDesktopAppInstalled: false,
    isMobileAppInstalled: false,
    ...extra,
  };
}

const workspace = { id: 'ws_1', name: 'Acme', createdAt: '2025-01-01T00:00:00Z', membersCount: 2, recordingsCount: 0 };

function live(parts: Partial<LiveSeen> = {}): LiveSeen {
  return { workspace, views: {}, pins: {}, ...parts };
}

/** APPLIED is what a complete apply of `manifests` records: its commit, the digest of its desired state, its paths. */
const APPLIED = { commit: 'c'.repeat(40), digest: 'd'.repeat(64), paths: ['manifests'] };

describe('observeRun', () => {
  it('records the lists read with their ids in tab order, the public saved views listed, the members read, and the workspace', () => {
    const pipeline = view('v1', 'Pipeline');
    const mine = view('p1', 'Mine', { visibility: 'Private' });
    const memory = observeRun(
      emptyMemory(),
      live({
        views: { deals: [pipeline, view('d0', 'All deals', { isDefault: true, ownerId: '#global' })] },
        pins: { 'deals:ann@example.com': [mine, pipeline] },
        users: [user('Ann@Example.com'), user('bob@example.com', { role: 'Admin', state: 'Deactivated' })],
      }),
      T0,
    );
    expect(memory).toEqual({
      formatVersion: 1,
      workspaceId: 'ws_1',
      lists: { 'deals:ann@example.com': { lastRead: iso(T0), viewIds: ['p1', 'v1'] } },
      views: { 'view:deals:id:v1': { domain: 'deals', id: 'v1', name: 'Pipeline', lastSeen: iso(T0) } },
      members: {
        'ann@example.com': { role: 'Member', state: 'Active', lastSeen: iso(T0) },
        'bob@example.com': { role: 'Admin', state: 'Deactivated', lastSeen: iso(T0) },
      },
    });
  });

  it("gives a memory that fits the file's schema, so the next run reads back what this one wrote", () => {
    const memory = observeRun(
      emptyMemory(),
      live({
        views: { deals: [view('v1', 'Pipeline ✓ "quoted"')], contacts: [view('c1', '')] },
        pins: { 'deals:ann@example.com': [view('v1', 'Pipeline')], 'contacts:bob@example.com': [] },
        users: [user('Ann@Example.com'), user('not-an-address')],
      }),
      T0,
    );
    expect(memoryShapeProblems(memory)).toEqual([]);
    expect(memoryShapeProblems(JSON.parse(JSON.stringify(memory)))).toEqual([]);
    expect(Object.keys(memory.members)).toEqual(['ann@example.com']);
  });

  it('never records a built-in default or a private view as seen, even when a listing holds one', () => {
    const memory = observeRun(
      emptyMemory(),
      live({
        views: {
          recordings: [
            view('d1', 'All', { isDefault: true }),
            view('p2', 'Secret', { visibility: 'Private' }),
            view('d2', 'Default public', { isDefault: true, visibility: 'Public' }),
          ],
        },
      }),
      T0,
    );
    expect(memory.views).toEqual({});
  });

  it('keeps what was not read again: a list, a view deleted in the app, a member', () => {
    const day1 = observeRun(
      emptyMemory(),
      live({
        views: { deals: [view('v1', 'Pipeline')] },
        pins: { 'deals:ann@example.com': [view('v1', 'Pipeline')] },
        users: [user('ann@example.com')],
      }),
      T0,
    );
    // Day 2: the view is gone from the listing, Ann's list and the users were not read.
    const day2 = observeRun(day1, live({ views: { deals: [] }, pins: { 'deals:bob@example.com': [] } }), T0 + DAY);
    expect(day2.views['view:deals:id:v1']?.lastSeen).toBe(iso(T0));
    expect(day2.lists['deals:ann@example.com']).toEqual({ lastRead: iso(T0), viewIds: ['v1'] });
    expect(day2.lists['deals:bob@example.com']).toEqual({ lastRead: iso(T0 + DAY), viewIds: [] });
    expect(day2.members['ann@example.com']?.lastSeen).toBe(iso(T0));
  });

  it(`drops views, members and lists unseen for more than ${FORGET_AFTER_DAYS} days, by the injected clock`, () => {
    const day1 = observeRun(
      emptyMemory(),
      live({
        views: { deals: [view('v1', 'Pipeline')] },
        pins: { 'deals:ann@example.com': [] },
        users: [user('ann@example.com')],
      }),
      T0,
    );
    const justKept = observeRun(day1, live(), T0 + FORGET_AFTER_DAYS * DAY);
    expect(Object.keys(justKept.views)).toEqual(['view:deals:id:v1']);
    expect(Object.keys(justKept.members)).toEqual(['ann@example.com']);
    expect(Object.keys(justKept.lists)).toEqual(['deals:ann@example.com']);
    const dropped = observeRun(justKept, live(), T0 + FORGET_AFTER_DAYS * DAY + 1);
    expect(dropped.views).toEqual({});
    expect(dropped.members).toEqual({});
    expect(dropped.lists).toEqual({});
  });

  it('keeps the last applied commit', () => {
    const applied = advanceLastApplied(emptyMemory(), APPLIED, T0);
    expect(observeRun(applied, live(), T0 + DAY).lastApplied).toEqual({ ...APPLIED, at: iso(T0) });
  });
});

describe('the targets held at the last apply', () => {
  it('are recorded with the commit, the digest and the paths, once each and sorted, with the codes known, and left out when none', () => {
    const targets = ['view:deals:id:v2', 'pins:deals:a@x.io', 'view:deals:id:v2'];
    expect(
      advanceLastApplied(emptyMemory(), APPLIED, T0, { targets, codes: { 'view:deals:id:v2': 'view.id-not-found' } })
        .lastApplied,
    ).toEqual({
      ...APPLIED,
      at: iso(T0),
      held: ['pins:deals:a@x.io', 'view:deals:id:v2'],
      heldCodes: { 'view:deals:id:v2': 'view.id-not-found' },
    });
    expect(advanceLastApplied(emptyMemory(), APPLIED, T0, { targets: [] }).lastApplied).toEqual({
      ...APPLIED,
      at: iso(T0),
    });
  });

  it("are the plan's own after an apply that read every target; otherwise the earlier ones it changed nothing of stay, with their codes", () => {
    const before = {
      held: ['view:deals:id:v2', 'view:deals:name:Q4'],
      heldCodes: { 'view:deals:id:v2': 'view.id-not-found', 'view:deals:name:Q4': 'view.create-needs-creator' },
    };
    const stale = { target: 'pins:deals:a@x.io', code: 'apply.stale-target' };
    expect(heldAfterApply(before, { held: [stale], changed: [], readEverything: true })).toEqual({
      targets: ['pins:deals:a@x.io'],
      codes: { 'pins:deals:a@x.io': 'apply.stale-target' },
    });
    // A --base apply, or self-heal: a target it did not read may still be as when held; one it carried out a change of is not.
    expect(heldAfterApply(before, { held: [stale], changed: ['view:deals:name:Q4'], readEverything: false })).toEqual({
      targets: ['view:deals:id:v2', 'pins:deals:a@x.io'],
      codes: { 'view:deals:id:v2': 'view.id-not-found', 'pins:deals:a@x.io': 'apply.stale-target' },
    });
    // A memory written before codes were kept: the target stays held, its cause unknown.
    expect(heldAfterApply({ held: ['view:deals:id:v2'] }, { held: [], changed: [], readEverything: false })).toEqual({
      targets: ['view:deals:id:v2'],
      codes: {},
    });
  });

  it('lose the codes of the holds that ended', () => {
    const applied = {
      ...APPLIED,
      at: iso(T0),
      held: ['pins:deals:a@x.io', 'view:deals:id:v2'],
      heldCodes: { 'pins:deals:a@x.io': 'pins.names-held-view', 'view:deals:id:v2': 'view.id-not-found' },
    };
    expect(withHoldsEnded(applied, new Set(['pins:deals:a@x.io']))).toEqual({
      ...APPLIED,
      at: iso(T0),
      held: ['view:deals:id:v2'],
      heldCodes: { 'view:deals:id:v2': 'view.id-not-found' },
    });
    expect(withHoldsEnded(applied, new Set(applied.held))).toEqual({ ...APPLIED, at: iso(T0) });
  });
});

describe('rememberApplied', () => {
  const before: SweepMemory = {
    ...emptyMemory(),
    workspaceId: 'ws_1',
    lists: { 'deals:ann@example.com': { lastRead: iso(T0), viewIds: ['v1'] } },
    views: {
      'view:deals:id:v1': { domain: 'deals', id: 'v1', name: 'Old name', lastSeen: iso(T0) },
      'view:deals:id:v9': { domain: 'deals', id: 'v9', name: 'Pruned', lastSeen: iso(T0) },
    },
  };

  it('gives the lists written their new ids, sees the views created and renamed, forgets the views deleted', () => {
    const after = rememberApplied(
      before,
      {
        lists: { 'deals:ann@example.com': ['v2', 'v1'], 'deals:bob@example.com': ['v2'] },
        seen: [
          { domain: 'deals', id: 'v2', name: 'New' },
          { domain: 'deals', id: 'v1', name: 'New name' },
        ],
        deleted: [{ domain: 'deals', id: 'v9' }],
      },
      T0 + DAY,
    );
    expect(after.lists).toEqual({
      'deals:ann@example.com': { lastRead: iso(T0 + DAY), viewIds: ['v2', 'v1'] },
      'deals:bob@example.com': { lastRead: iso(T0 + DAY), viewIds: ['v2'] },
    });
    expect(after.views).toEqual({
      // The renamed view keeps the name it had: pinned lists may still name it.
      'view:deals:id:v1': {
        domain: 'deals',
        id: 'v1',
        name: 'New name',
        lastSeen: iso(T0 + DAY),
        formerNames: ['Old name'],
      },
      'view:deals:id:v2': { domain: 'deals', id: 'v2', name: 'New', lastSeen: iso(T0 + DAY) },
    });
    expect(after.lastApplied).toBeUndefined();
  });
});

describe('observeRun: when a member was first seen as they are, and lists pending for membership', () => {
  it('leaves `since` unknown on the first users read, starts it when a member joins or changes role, and keeps it while they stay', () => {
    const first = observeRun(emptyMemory(), live({ users: [user('ann@example.com')] }), T0);
    expect(first.members['ann@example.com']?.since).toBeUndefined();
    const joined = observeRun(first, live({ users: [user('ann@example.com'), user('bob@example.com')] }), T0 + DAY);
    expect(joined.members['bob@example.com']?.since).toBe(iso(T0 + DAY));
    expect(joined.members['ann@example.com']?.since).toBeUndefined();
    const promoted = observeRun(
      joined,
      live({ users: [user('ann@example.com', { role: 'Admin' }), user('bob@example.com')] }),
      T0 + 2 * DAY,
    );
    expect(promoted.members['ann@example.com']?.since).toBe(iso(T0 + 2 * DAY));
    expect(promoted.members['bob@example.com']).toEqual({
      role: 'Member',
      state: 'Active',
      lastSeen: iso(T0 + 2 * DAY),
      since: iso(T0 + DAY),
    });
    expect(memoryShapeProblems(promoted)).toEqual([]);
  });

  it('marks pending the lists read whose difference was the membership, and only those; a later read without it clears it', () => {
    const pipeline = view('v1', 'Pipeline');
    const read = live({ pins: { 'deals:bob@example.com': [pipeline], 'deals:ann@example.com': [pipeline] } });
    const night = observeRun(emptyMemory(), read, T0, new Set(['deals:bob@example.com']));
    expect(night.lists['deals:bob@example.com']).toEqual({ lastRead: iso(T0), viewIds: ['v1'], pending: 'membership' });
    expect(night.lists['deals:ann@example.com']).toEqual({ lastRead: iso(T0), viewIds: ['v1'] });
    expect(memoryShapeProblems(night)).toEqual([]);
    expect(observeRun(night, read, T0 + DAY).lists['deals:bob@example.com']).toEqual({
      lastRead: iso(T0 + DAY),
      viewIds: ['v1'],
    });
  });
});
