import { driftLabels, hasSweepMemoryAnswers, sweepMemoryAnswers } from '../../src/kinds/capabilities.js';
import { describe, expect, it } from 'vitest';
import { ADMIN_AUTOMATIONS } from '../../src/kinds/admin-automations.js';
import type {
  CreateChange,
  DriftChange,
  DeleteChange,
  PinChange,
  PinnedTab,
  UpdateChange,
  ViewSnapshot,
} from '../../src/kinds/changes.js';
import { createdKey, type Kind } from '../../src/kinds/kind.js';
import { PINNED_VIEWS } from '../../src/kinds/pinned-views.js';
import { SAVED_VIEWS } from '../../src/kinds/saved-views.js';
import { viewDigests } from '../../src/kinds/view-sweep-memory.js';
import { emptyMemory, type SweepMemory } from '../../src/state/sweep-memory.js';
import { emptyLive, view } from '../plan/fixtures.js';

/**
 * What each kind tells of its changes in the sweep memory's terms: when a drifted change
 * came about (`driftWhen`), what a landed write teaches the memory (`remember`), the
 * member's list a change writes (`memberList`) and what drift lines group it by
 * (`driftScope`).
 */

const snapshot = (name: string): ViewSnapshot => ({ name, columns: [], filters: {}, sort: [] });
const tab = (viewId: string | null, name: string): PinnedTab => ({
  viewId,
  name,
  visibility: 'Public',
  isDefault: false,
});

const update = (patchPaths: string[], before = 'Board'): UpdateChange => ({
  action: 'update',
  target: 'view:deals:id:dv_1',
  kind: 'DealView',
  name: 'Pipeline',
  domain: 'deals',
  id: 'dv_1',
  before: snapshot(before),
  after: snapshot('Pipeline'),
  patch: patchPaths.map((path) => ({ op: 'replace', path, value: 'x' })),
  origin: 'outside',
});
const create = (extra: Partial<CreateChange> = {}): CreateChange => ({
  action: 'create',
  target: 'view:deals:name:Pipeline',
  kind: 'DealView',
  name: 'Pipeline',
  domain: 'deals',
  before: null,
  after: snapshot('Pipeline'),
  origin: 'outside',
  ...extra,
});
const remove: DeleteChange = {
  action: 'delete',
  target: 'view:deals:id:dv_9',
  kind: 'DealView',
  name: 'Old',
  domain: 'deals',
  id: 'dv_9',
  before: snapshot('Old'),
  after: null,
  reason: 'prune',
  ownerId: 'u_mia',
  pinnedBy: [],
};
const pin = (extra: Partial<PinChange> = {}): PinChange => ({
  action: 'pin',
  target: 'pins:deals:rep@acme.com',
  kind: 'PinnedViews',
  name: 'Rep@acme.com',
  domain: 'deals',
  userEmail: 'Rep@acme.com',
  before: [tab('dv_2', 'Two'), tab('dv_1', 'One')],
  after: [tab(null, 'New'), tab('dv_1', 'One')],
  origin: 'outside',
  ...extra,
});

function memoryWith(extra: Partial<SweepMemory>): SweepMemory {
  return { ...emptyMemory(), ...extra };
}

describe('driftWhen of the saved views', () => {
  const seen = (name: string, lastSeen: string, id = 'dv_1', domain: 'deals' | 'companies' = 'deals') => ({
    [`view:${domain}:id:${id}`]: { domain, id, name, lastSeen },
  });

  it("dates a view by when the memory last saw it, already so when it saw it under its live name for a rename, and names an update's owner", () => {
    const live = emptyLive();
    live.views.deals = [view('dv_1', 'Board', { ownerId: 'u_mia' })];
    const memory = memoryWith({ views: seen('Board', '2026-12-01T02:00:00.000Z') });
    expect(SAVED_VIEWS.driftWhen?.(update(['/name']), live, memory)).toEqual({
      since: '2026-12-01T02:00:00.000Z',
      already: true,
      ownerId: 'u_mia',
      ownerEmail: 'mia@acme.com',
    });
    // Another name then: renamed since; other attributes, with no digests kept (an older memory): never already.
    expect(SAVED_VIEWS.driftWhen?.(update(['/name'], 'Renamed'), live, memory)).toEqual({
      since: '2026-12-01T02:00:00.000Z',
      ownerId: 'u_mia',
      ownerEmail: 'mia@acme.com',
    });
    expect(SAVED_VIEWS.driftWhen?.(update(['/name', '/icon']), live, memory)).toEqual({
      since: '2026-12-01T02:00:00.000Z',
      ownerId: 'u_mia',
      ownerEmail: 'mia@acme.com',
    });
    // Without the users read, the owner's id alone; without the memory, no date.
    expect(SAVED_VIEWS.driftWhen?.(update(['/name']), { ...live, users: undefined }, memory)).toEqual({
      since: '2026-12-01T02:00:00.000Z',
      already: true,
      ownerId: 'u_mia',
    });
    expect(SAVED_VIEWS.driftWhen?.(update(['/name']), live, undefined)).toEqual({
      ownerId: 'u_mia',
      ownerEmail: 'mia@acme.com',
    });
  });

  it('dates a view to delete by its last sighting, always already so, with no owner looked up', () => {
    const memory = memoryWith({ views: seen('Old', '2026-12-02T02:00:00.000Z', 'dv_9') });
    expect(SAVED_VIEWS.driftWhen?.(remove, emptyLive(), memory)).toEqual({
      since: '2026-12-02T02:00:00.000Z',
      already: true,
    });
    expect(SAVED_VIEWS.driftWhen?.(remove, emptyLive(), emptyMemory())).toEqual({});
  });

  it('dates a view to create again by the deletion it carries, or by the latest sighting of its name in its domain', () => {
    expect(
      SAVED_VIEWS.driftWhen?.(
        create({ deletedOutside: { id: 'dv_5', lastSeen: '2026-11-30T02:00:00.000Z' } }),
        emptyLive(),
        undefined,
      ),
    ).toEqual({ since: '2026-11-30T02:00:00.000Z' });
    const memory = memoryWith({
      views: {
        ...seen('Pipeline', '2026-12-01T02:00:00.000Z', 'dv_3'),
        ...seen('Pipeline', '2026-12-03T02:00:00.000Z', 'dv_4'),
        ...seen('Pipeline', '2026-12-09T02:00:00.000Z', 'cv_1', 'companies'),
        ...seen('Other', '2026-12-08T02:00:00.000Z', 'dv_6'),
      },
    });
    expect(SAVED_VIEWS.driftWhen?.(create(), emptyLive(), memory)).toEqual({ since: '2026-12-03T02:00:00.000Z' });
    expect(SAVED_VIEWS.driftWhen?.(create(), emptyLive(), emptyMemory())).toEqual({});
  });
});

describe('driftWhen of the pinned lists', () => {
  it('dates a list by its last read, already so when the memory held the same ids in the same order, and names no owner', () => {
    const live = emptyLive();
    live.pins['deals:rep@acme.com'] = [view('dv_2', 'Two'), view('dv_1', 'One')];
    const read = (viewIds: string[]) =>
      memoryWith({ lists: { 'deals:rep@acme.com': { lastRead: '2026-12-04T02:00:00.000Z', viewIds } } });
    expect(PINNED_VIEWS.driftWhen?.(pin(), live, read(['dv_2', 'dv_1']))).toEqual({
      since: '2026-12-04T02:00:00.000Z',
      already: true,
    });
    expect(PINNED_VIEWS.driftWhen?.(pin(), live, read(['dv_1', 'dv_2']))).toEqual({
      since: '2026-12-04T02:00:00.000Z',
    });
    expect(PINNED_VIEWS.driftWhen?.(pin(), live, emptyMemory())).toEqual({});
    expect(PINNED_VIEWS.driftWhen?.(pin(), live, undefined)).toEqual({});
  });
});

describe('remember', () => {
  it("remembers a view created or updated under its name (an update's new one), forgets one deleted, and needs the id", () => {
    expect(SAVED_VIEWS.remember?.(create(), { name: 'Pipeline', domain: 'deals', id: 'dv_7' }, new Map())).toEqual({
      seen: [{ domain: 'deals', id: 'dv_7', name: 'Pipeline', digests: viewDigests('deals', snapshot('Pipeline')) }],
    });
    expect(
      SAVED_VIEWS.remember?.(
        { ...update(['/name']), after: snapshot('Renamed') },
        { name: 'Pipeline', domain: 'deals', id: 'dv_1' },
        new Map(),
      ),
    ).toEqual({
      seen: [{ domain: 'deals', id: 'dv_1', name: 'Renamed', digests: viewDigests('deals', snapshot('Renamed')) }],
    });
    expect(SAVED_VIEWS.remember?.(remove, { name: 'Old', domain: 'deals', id: 'dv_9' }, new Map())).toEqual({
      deleted: [{ domain: 'deals', id: 'dv_9' }],
    });
    expect(SAVED_VIEWS.remember?.(create(), { name: 'Pipeline', domain: 'deals' }, new Map())).toEqual({});
  });

  it("remembers a list by its member's key with the ids it holds, a new view's tab by the id the run gave it, or not at all when that id is unknown", () => {
    const landed = { name: 'Rep@acme.com deals', domain: 'deals' as const, userEmail: 'Rep@acme.com' };
    expect(PINNED_VIEWS.remember?.(pin(), landed, new Map([[createdKey('deals', 'New'), 'dv_7']]))).toEqual({
      lists: { 'deals:rep@acme.com': ['dv_7', 'dv_1'] },
    });
    // A view of that name created in another domain is not this tab's.
    expect(PINNED_VIEWS.remember?.(pin(), landed, new Map([[createdKey('companies', 'New'), 'cv_7']]))).toEqual({});
  });

  it('is not answered by the admin automations, which the memory keeps nothing of: the defaults teach and tell nothing', () => {
    expect(hasSweepMemoryAnswers(ADMIN_AUTOMATIONS)).toBe(false);
    const drift: DriftChange = {
      action: 'drift',
      target: 'automations',
      kind: 'AdminAutomation',
      name: 'Record',
      before: null,
      after: {},
      differences: [],
    };
    expect(sweepMemoryAnswers(ADMIN_AUTOMATIONS).remember(drift, { name: 'Record' }, new Map())).toEqual({});
    expect(sweepMemoryAnswers(ADMIN_AUTOMATIONS).driftWhen(drift, emptyLive(), undefined)).toEqual({});
  });
});

describe('memberList and driftScope', () => {
  it("name a pin change's member's list: its key, the member in lower case, the group giving it and the ids it holds live", () => {
    expect(PINNED_VIEWS.memberList?.(pin({ group: 'Sales' }))).toEqual({
      key: 'deals:rep@acme.com',
      member: 'rep@acme.com',
      group: 'Sales',
      liveIds: ['dv_2', 'dv_1'],
    });
    expect(PINNED_VIEWS.memberList?.(pin())).toEqual({
      key: 'deals:rep@acme.com',
      member: 'rep@acme.com',
      liveIds: ['dv_2', 'dv_1'],
    });
    expect(PINNED_VIEWS.driftScope?.(pin({ domain: 'recordings', target: 'pins:recordings:rep@acme.com' }))).toBe(
      'recordings',
    );
  });

  it("are not answered for views and automations: they write no member's list, and drift groups them by kind", () => {
    for (const kind of [SAVED_VIEWS, ADMIN_AUTOMATIONS] as Kind[]) {
      expect(sweepMemoryAnswers(kind).memberList).toBeUndefined();
      expect(driftLabels(kind).driftScope).toBeUndefined();
    }
  });
});
