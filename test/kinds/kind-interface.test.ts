import { describe, expect, it } from 'vitest';
import type { ApiAdminAutomation, ApiView } from '../../src/domain/api-types.js';
import { ADMIN_AUTOMATIONS } from '../../src/kinds/admin-automations.js';
import type {
  Change,
  CreateChange,
  DeleteChange,
  DriftChange,
  PinChange,
  UpdateChange,
  ViewSnapshot,
} from '../../src/kinds/changes.js';
import { createdKey, type ChangeReads, type StepContext, type VerifyContext } from '../../src/kinds/kind.js';
import { kindOf, kinds } from '../../src/kinds/kinds.js';
import { PINNED_VIEWS } from '../../src/kinds/pinned-views.js';
import { SAVED_VIEWS } from '../../src/kinds/saved-views.js';
import { pinsKey, type Live } from '../../src/state/types.js';
import { compileGlobs } from '../../src/text/glob.js';
import { declared, emptyDesired, emptyLive, pinsOf, view } from '../plan/fixtures.js';
import { errorCodeOf } from '../support/errors.js';

/** Each kind's answers at the lowest level: the steps of a change, the data a target's hash covers, the check after apply. */

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
const liveOf = (views: ApiView[], extra: Partial<Live> = {}): Live => ({
  workspace: { id: 'ws_1', name: 'W' } as Live['workspace'],
  views: { deals: views },
  pins: {},
  requests: { used: 0, dailyRemaining: null },
  ...extra,
});
const context: StepContext = { creatorEmail: 'ops@acme.test', created: new Set([createdKey('deals', 'New')]) };
const verifying = (listing: ApiView[], createdIds: [string, string][] = []): VerifyContext => ({
  readBack: { views: { deals: listing } },
  createdIds: new Map(createdIds),
});
const codeOf = errorCodeOf;

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
  after: snapshot('Pipeline', { filters: { stageIn: ['b'] } }),
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
    { viewId: 'dv_1', name: 'Pipeline', visibility: 'Public', isDefault: false },
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

describe('kindOf', () => {
  it('finds the one kind that owns each change', () => {
    const changes: Change[] = [create, update, remove, pin, drift];
    expect(changes.map((change) => kindOf(change))).toEqual([
      SAVED_VIEWS,
      SAVED_VIEWS,
      SAVED_VIEWS,
      PINNED_VIEWS,
      ADMIN_AUTOMATIONS,
    ]);
    for (const change of changes)
      expect(kinds().filter((kind) => kind.actions.some((entry) => entry.action === change.action))).toHaveLength(1);
  });
});

describe('diff', () => {
  it('passes what the saved views decide on to the pinned lists, in the order of kinds()', () => {
    const live = emptyLive();
    live.views.recordings = [view('rv_1', 'Kept'), view('rv_2', 'Extra')];
    live.pins[pinsKey('recordings', 'mia@acme.com')] = [view('rv_1', 'Kept')];
    const desired = {
      ...emptyDesired({ prune: true }),
      views: [declared('recordings', 'Kept')],
      pins: [pinsOf('mia@acme.com', 'recordings', [{ name: 'Kept' }, { name: 'Extra' }])],
    };
    const none = { ignored: compileGlobs([]), declared: new Map(), deleted: new Map(), heldViews: new Map() };
    const views = SAVED_VIEWS.diff(desired, live, none);
    expect(views.changes.map((change) => change.action)).toEqual(['delete']);
    expect(views.deleted).toEqual(new Map([['recordings', new Map([['rv_2', 'Extra']])]]));
    expect(kinds().indexOf(SAVED_VIEWS)).toBeLessThan(kinds().indexOf(PINNED_VIEWS));
    const pinsAfter = PINNED_VIEWS.diff(desired, live, {
      ...none,
      declared: views.declared ?? new Map(),
      deleted: views.deleted ?? new Map(),
    });
    expect(pinsAfter.reasons.map((reason) => reason.code)).toEqual(['pins.references-deleted']);
    expect(PINNED_VIEWS.diff(desired, live, none).reasons).toEqual([]);
  });
});

describe('reads', () => {
  it('re-reads the listing of a view change (and the users for a create), a pinned list with the listing it resolved against, and nothing for drift', () => {
    const shown = (reads: ChangeReads): string[] => [
      ...reads.reads.map((read) => `${read.request.route} ${read.into}[${read.entry ?? ''}]`),
      ...(reads.users === true ? ['users'] : []),
    ];
    expect(shown(SAVED_VIEWS.reads(remove))).toEqual(['/v1/deals/views views[deals]']);
    expect(shown(SAVED_VIEWS.reads(create))).toEqual(['/v1/deals/views views[deals]', 'users']);
    expect(shown(PINNED_VIEWS.reads(pin))).toEqual([
      '/v1/deals/views views[deals]',
      '/v1/deals/views/pinned pins[deals:mia@acme.test]',
    ]);
    expect(shown(ADMIN_AUTOMATIONS.reads(drift))).toEqual([]);
  });
});

describe('SAVED_VIEWS', () => {
  it('steps: POSTs a whole new view owned by creatorEmail, PATCHes what differs, DELETEs by id, through the route table', () => {
    expect(SAVED_VIEWS.steps(create, 0, context)).toEqual([
      {
        change: 0,
        method: 'POST',
        route: '/v1/deals/views',
        params: {},
        query: {},
        body: { creatorEmail: 'ops@acme.test', name: 'New', columns: [], filters: { stageIn: ['a'] }, sort: [] },
      },
    ]);
    expect(SAVED_VIEWS.steps(update, 1, context)).toEqual([
      {
        change: 1,
        method: 'PATCH',
        route: '/v1/deals/views/{viewId}',
        params: { viewId: 'dv_1' },
        query: {},
        body: { icon: null, filters: { stageIn: ['b'] } },
      },
    ]);
    expect(SAVED_VIEWS.steps(remove, 2, context)).toEqual([
      { change: 2, method: 'DELETE', route: '/v1/deals/views/{viewId}', params: { viewId: 'dv_9' }, query: {} },
    ]);
  });

  it('steps: refuses a create without creatorEmail and an update that changes nothing', () => {
    expect(codeOf(() => SAVED_VIEWS.steps(create, 0, { ...context, creatorEmail: undefined }))).toBe('plan.invalid');
    expect(codeOf(() => SAVED_VIEWS.steps({ ...update, after: update.before }, 0, context))).toBe('plan.invalid');
  });

  it('hashed: covers a view by id (normalised, or absent) and a new view by the ids of its public namesakes; other targets are not its', () => {
    const live = liveOf([
      apiView('dv_1', 'Pipeline', { filters: { stageIn: ['b', 'a'] } }),
      apiView('dv_2', 'New', { visibility: 'Private' }),
    ]);
    expect(SAVED_VIEWS.hashed('view:deals:id:dv_1', live)).toEqual({
      id: 'dv_1',
      view: snapshot('Pipeline', { filters: { stageIn: ['a', 'b'] } }),
    });
    expect(SAVED_VIEWS.hashed('view:deals:id:dv_7', live)).toEqual({ id: 'dv_7', absent: true });
    expect(SAVED_VIEWS.hashed('view:deals:name:New', live)).toEqual({ name: 'New', liveIds: [] });
    expect(SAVED_VIEWS.hashed('view:deals:name:New', liveOf([apiView('dv_3', 'New')]))).toEqual({
      name: 'New',
      liveIds: ['dv_3'],
    });
    expect(SAVED_VIEWS.hashed('pins:deals:mia@acme.test', live)).toBeUndefined();
    expect(SAVED_VIEWS.hashed('automations', live)).toBeUndefined();
  });

  it('verify: a created view exists once with its after, an updated one has its after, a deleted one is gone', () => {
    const created = apiView('dv_5', 'New', { filters: { stageIn: ['a'] } });
    expect(SAVED_VIEWS.verify(create, { viewId: 'dv_5' }, verifying([created]))).toBeUndefined();
    expect(SAVED_VIEWS.verify(create, { viewId: 'dv_5' }, verifying([created, apiView('dv_6', 'New')]))).toBe(
      'expected one view named "New", found 2',
    );
    expect(
      SAVED_VIEWS.verify(update, {}, verifying([apiView('dv_1', 'Pipeline', { filters: { stageIn: ['c'] } })])),
    ).toBe('after apply, filters differs from the plan');
    expect(SAVED_VIEWS.verify(update, {}, verifying([]))).toBe('the view is not in the listing after apply');
    expect(SAVED_VIEWS.verify(remove, {}, verifying([]))).toBeUndefined();
    expect(SAVED_VIEWS.verify(remove, {}, verifying([apiView('dv_9', 'Old')]))).toBe(
      'the view is still there after delete',
    );
  });
});

describe('PINNED_VIEWS', () => {
  it('steps: one PUT of the whole list, naming a view created in this run as a typed reference', () => {
    expect(PINNED_VIEWS.steps(pin, 3, context)).toEqual([
      {
        change: 3,
        method: 'PUT',
        route: '/v1/deals/views/pinned',
        params: {},
        query: { userEmail: 'mia@acme.test' },
        body: { viewIds: [null, 'dv_1'] },
        newViewTabs: [{ index: 0, name: 'New' }],
      },
    ]);
    expect(codeOf(() => PINNED_VIEWS.steps(pin, 3, { ...context, created: new Set() }))).toBe('plan.invalid');
    expect(codeOf(() => PINNED_VIEWS.steps({ ...pin, after: [] }, 3, context))).toBe('plan.invalid');
  });

  it('hashed: covers the tab ids and the ids and names of the domain listing it resolved against', () => {
    const live = liveOf([apiView('dv_1', 'Pipeline')], {
      pins: { 'deals:mia@acme.test': [apiView('dv_1', 'Pipeline')] },
    });
    expect(PINNED_VIEWS.hashed(pin.target, live)).toEqual({
      pins: 'deals:mia@acme.test',
      ids: ['dv_1'],
      listing: [['dv_1', 'Pipeline', false]],
    });
    expect(PINNED_VIEWS.hashed(pin.target, liveOf([apiView('dv_1', 'Renamed')]))).toEqual({
      pins: 'deals:mia@acme.test',
      ids: null,
      listing: [['dv_1', 'Renamed', false]],
    });
    expect(PINNED_VIEWS.hashed('view:deals:id:dv_1', live)).toBeUndefined();
  });

  it('verify: the answered list holds the ids sent, a created view by the id its create answered', () => {
    const answered = { pinned: [apiView('dv_5', 'New'), apiView('dv_1', 'Pipeline')] };
    expect(PINNED_VIEWS.verify(pin, answered, verifying([], [[createdKey('deals', 'New'), 'dv_5']]))).toBeUndefined();
    expect(PINNED_VIEWS.verify(pin, answered, verifying([], [[createdKey('deals', 'New'), 'dv_6']]))).toBe(
      'pinned tabs are [dv_5, dv_1], expected [dv_6, dv_1]',
    );
  });
});

describe('ADMIN_AUTOMATIONS', () => {
  it('has no steps and nothing to verify: drift is shown, never applied', () => {
    expect(ADMIN_AUTOMATIONS.steps(drift, 4, context)).toEqual([]);
    expect(ADMIN_AUTOMATIONS.verify(drift, {}, verifying([]))).toBeUndefined();
  });

  it('hashed: covers the whole list with ids, normalised, and only the automations target', () => {
    const automation: ApiAdminAutomation = {
      adminAutomationId: 'aa_1',
      name: 'Record',
      color: 'red',
      disallowUserOverride: false,
      filters: [],
      actions: {},
    };
    expect(ADMIN_AUTOMATIONS.hashed('automations', liveOf([], { automations: [automation] }))).toEqual({
      automations: [
        { id: 'aa_1', actions: {}, color: 'red', disallowUserOverride: false, filters: [], name: 'Record' },
      ],
    });
    expect(ADMIN_AUTOMATIONS.hashed('automations', liveOf([]))).toEqual({ automations: null });
    expect(ADMIN_AUTOMATIONS.hashed('view:deals:id:dv_1', liveOf([]))).toBeUndefined();
  });
});
