import { describe, expect, it } from 'vitest';
import type { ApiView } from '../../src/domain/api-types.js';
import { ADMIN_AUTOMATIONS } from '../../src/kinds/admin-automations.js';
import type {
  CreateChange,
  DeleteChange,
  DriftChange,
  PinChange,
  UpdateChange,
  ViewSnapshot,
} from '../../src/kinds/changes.js';
import { PINNED_VIEWS } from '../../src/kinds/pinned-views.js';
import { SAVED_VIEWS } from '../../src/kinds/saved-views.js';
import type { Live } from '../../src/state/types.js';

/**
 * `SavedPlanChecks.alreadyLive`: whether the live state a saved plan re-read already holds what a
 * change leaves (its `after`), so `apply --plan` skips it as already applied.
 */

const snapshot = (name: string, extra: Partial<ViewSnapshot> = {}): ViewSnapshot => ({
  name,
  columns: [],
  filters: {},
  sort: [],
  ...extra,
});
const apiView = (viewId: string, name: string, extra: Partial<ApiView> = {}): ApiView => ({
  viewId,
  name,
  visibility: 'Public',
  isDefault: false,
  ownerId: 'u1',
  columns: [],
  filters: {},
  sort: [],
  ...extra,
});
const liveOf = (views: ApiView[] | undefined, pins: Live['pins'] = {}): Live => ({
  workspace: { id: 'ws_1', name: 'W' } as Live['workspace'],
  views: views === undefined ? {} : { deals: views },
  pins,
  requests: { used: 0, dailyRemaining: null },
});

const create: CreateChange = {
  action: 'create',
  target: 'view:deals:name:New',
  kind: 'DealView',
  name: 'New',
  domain: 'deals',
  before: null,
  after: snapshot('New', { filters: { stageIn: ['a'] } }),
};
const update: UpdateChange = {
  action: 'update',
  target: 'view:deals:id:dv_1',
  kind: 'DealView',
  name: 'Pipeline',
  domain: 'deals',
  id: 'dv_1',
  before: snapshot('Pipeline', { icon: 'star' }),
  after: snapshot('Pipeline review', { filters: { stageIn: ['b'] } }),
  patch: [],
};
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
  ownerId: 'u1',
  pinnedBy: [],
};
const pin: PinChange = {
  action: 'pin',
  target: 'pins:deals:mia@acme.test',
  kind: 'PinnedViews',
  name: 'mia@acme.test',
  domain: 'deals',
  userEmail: 'mia@acme.test',
  before: [{ viewId: 'dv_1', name: 'Pipeline', visibility: 'Public', isDefault: false }],
  after: [
    { viewId: null, name: 'New', visibility: 'Public', isDefault: false },
    { viewId: 'dv_1', name: 'Pipeline review', visibility: 'Public', isDefault: false },
  ],
};
const drift: DriftChange = {
  action: 'drift',
  target: 'automations',
  kind: 'AdminAutomation',
  name: 'Record',
  before: null,
  after: {},
  differences: [],
};

describe('SAVED_VIEWS.alreadyLive', () => {
  it('a create: one view of its name with its after, under the id the service gave it', () => {
    const created = apiView('dv_77', 'New', { filters: { stageIn: ['a'] } });
    expect(SAVED_VIEWS.alreadyLive(create, liveOf([apiView('dv_1', 'Pipeline'), created]))).toEqual({
      viewId: 'dv_77',
      view: created,
    });
    // Not yet created, created with other attributes, or twice: not as the plan leaves it.
    expect(SAVED_VIEWS.alreadyLive(create, liveOf([apiView('dv_1', 'Pipeline')]))).toBeUndefined();
    expect(
      SAVED_VIEWS.alreadyLive(create, liveOf([apiView('dv_77', 'New', { filters: { stageIn: ['z'] } })])),
    ).toBeUndefined();
    expect(
      SAVED_VIEWS.alreadyLive(create, liveOf([created, apiView('dv_78', 'New', { filters: { stageIn: ['a'] } })])),
    ).toBeUndefined();
    // A listing not read says nothing.
    expect(SAVED_VIEWS.alreadyLive(create, liveOf(undefined))).toBeUndefined();
  });

  it('an update: the view has every managed attribute of its after; partly there is not landed', () => {
    expect(
      SAVED_VIEWS.alreadyLive(update, liveOf([apiView('dv_1', 'Pipeline review', { filters: { stageIn: ['b'] } })])),
    ).toEqual({ viewId: 'dv_1' });
    // Renamed as the plan says, but its filters are not the after's (nor the before's icon).
    expect(SAVED_VIEWS.alreadyLive(update, liveOf([apiView('dv_1', 'Pipeline review')]))).toBeUndefined();
    expect(SAVED_VIEWS.alreadyLive(update, liveOf([apiView('dv_1', 'Pipeline', { icon: 'star' })]))).toBeUndefined();
    expect(SAVED_VIEWS.alreadyLive(update, liveOf([]))).toBeUndefined();
  });

  it('a delete: the view is gone from the listing', () => {
    expect(SAVED_VIEWS.alreadyLive(remove, liveOf([apiView('dv_1', 'Pipeline')]))).toEqual({ viewId: 'dv_9' });
    expect(SAVED_VIEWS.alreadyLive(remove, liveOf([apiView('dv_9', 'Old')]))).toBeUndefined();
  });
});

describe('PINNED_VIEWS.alreadyLive', () => {
  const listing = [apiView('dv_1', 'Pipeline review'), apiView('dv_77', 'New')];
  it('the live list is the after list, a tab naming a view the plan creates resolving by name to the view created', () => {
    const pinned = [apiView('dv_77', 'New'), apiView('dv_1', 'Pipeline review')];
    expect(PINNED_VIEWS.alreadyLive(pin, liveOf(listing, { 'deals:mia@acme.test': pinned }))).toEqual({ pinned });
  });

  it('another order, the before list, a created view not there, or a list not read is not landed', () => {
    const live = (pinned: ApiView[] | undefined, views = listing): Live =>
      liveOf(views, pinned === undefined ? {} : { 'deals:mia@acme.test': pinned });
    expect(
      PINNED_VIEWS.alreadyLive(pin, live([apiView('dv_1', 'Pipeline review'), apiView('dv_77', 'New')])),
    ).toBeUndefined();
    expect(PINNED_VIEWS.alreadyLive(pin, live([apiView('dv_1', 'Pipeline')]))).toBeUndefined();
    expect(
      PINNED_VIEWS.alreadyLive(
        pin,
        live([apiView('dv_77', 'New'), apiView('dv_1', 'Pipeline review')], [apiView('dv_1', 'Pipeline review')]),
      ),
    ).toBeUndefined();
    expect(PINNED_VIEWS.alreadyLive(pin, live(undefined))).toBeUndefined();
  });
});

describe('ADMIN_AUTOMATIONS.alreadyLive', () => {
  it('drift is never applied, so never already applied', () => {
    expect(ADMIN_AUTOMATIONS.alreadyLive(drift, liveOf([]))).toBeUndefined();
  });
});

describe('SAVED_VIEWS.undoAlreadyLive', () => {
  it('gives the listing as before the change landed: the created view gone, the updated one as it was, in place; a delete cannot say', () => {
    const live = liveOf([
      apiView('dv_1', 'Pipeline review', { filters: { stageIn: ['b'] } }),
      apiView('dv_77', 'New', { filters: { stageIn: ['a'] } }),
    ]);
    expect(
      SAVED_VIEWS.undoAlreadyLive?.(create, { viewId: 'dv_77' }, live).views.deals?.map((view) => view.viewId),
    ).toEqual(['dv_1']);
    expect(
      SAVED_VIEWS.undoAlreadyLive?.(update, { viewId: 'dv_1' }, live).views.deals?.map((view) => [
        view.viewId,
        view.name,
      ]),
    ).toEqual([
      ['dv_1', 'Pipeline'],
      ['dv_77', 'New'],
    ]);
    expect(SAVED_VIEWS.undoAlreadyLive?.(remove, { viewId: 'dv_9' }, live)).toBe(live);
  });
});
