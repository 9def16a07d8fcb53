import { savedPlanChecks } from '../../src/kinds/capabilities.js';
import { describe, expect, it } from 'vitest';
import type {
  Change,
  CreateChange,
  DeleteChange,
  DriftChange,
  PinChange,
  UpdateChange,
  ViewSnapshot,
} from '../../src/kinds/changes.js';
import { kindOf } from '../../src/kinds/kinds.js';

/** What each kind checks of a saved plan's change (`Kind.target`, `SavedPlanChecks.identityProblems`): a plan file is trusted in nothing. */

const snapshot = (name: string, extra: Partial<ViewSnapshot> = {}): ViewSnapshot => ({
  name,
  columns: [],
  filters: {},
  sort: [],
  ...extra,
});
const tab = (viewId: string | null, name: string) => ({
  viewId,
  name,
  visibility: 'Public' as const,
  isDefault: false,
});

const create: CreateChange = {
  action: 'create',
  target: 'view:deals:name:New',
  kind: 'DealView',
  name: 'New',
  domain: 'deals',
  before: null,
  after: snapshot('New'),
};
const update: UpdateChange = {
  action: 'update',
  target: 'view:deals:id:dv_1',
  kind: 'DealView',
  name: 'Pipeline',
  domain: 'deals',
  id: 'dv_1',
  before: snapshot('Pipeline'),
  after: snapshot('Pipeline', { icon: 'star' }),
  patch: [{ op: 'add', path: '/icon', value: 'star' }],
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
  name: 'Mia@acme.test',
  domain: 'deals',
  userEmail: 'Mia@acme.test',
  before: [tab('dv_1', 'Pipeline')],
  after: [tab(null, 'New'), tab('dv_1', 'Pipeline')],
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

/** problemsOf checks a change of a plan that names `ops@acme.test` as creatorEmail, or none with `noCreator`. */
const problemsOf = (change: Change, noCreator = false) =>
  savedPlanChecks(kindOf(change)).identityProblems(change, noCreator ? undefined : 'ops@acme.test');

describe('the kind that owns a change', () => {
  it('names the target the change carries, from its own fields', () => {
    for (const change of [create, update, remove, pin, drift])
      expect(kindOf(change).target(change)).toBe(change.target);
  });

  it('finds nothing wrong with a change plan writes', () => {
    for (const change of [create, update, remove, pin, drift]) expect(problemsOf(change)).toEqual([]);
  });

  it('finds every disagreement of a view change', () => {
    expect(problemsOf({ ...create, kind: 'RecordingView', name: 'Other' }, true)).toEqual([
      'kind RecordingView is not the kind of deals views (DealView)',
      'is shown as "Other" but names the view "New"',
      'creates a view but the plan names no creatorEmail',
    ]);
    expect(problemsOf({ ...update, after: snapshot('Pipeline', { filters: { stageIn: ['b', 'a'] } }) })).toEqual([
      'its after is not a view as viewctl writes it',
      'its patch is not the difference between before and after',
    ]);
  });

  it('finds every disagreement of a pin and a drift change', () => {
    expect(problemsOf({ ...pin, name: 'max@acme.test', after: [] })).toEqual([
      'kind and name must be PinnedViews and Mia@acme.test',
      'empties the pinned list; the service needs at least one tab',
    ]);
    expect(problemsOf({ ...pin, after: [tab('dv_1', 'Pipeline'), tab('dv_1', 'Pipeline')] })).toEqual([
      'lists a tab twice',
    ]);
    // A view id may read like anything; it is a tab apart from a new view of that name.
    expect(problemsOf({ ...pin, after: [tab(null, 'New'), tab('new:New', 'New')] })).toEqual([]);
    expect(problemsOf({ ...drift, kind: 'PinnedViews' as 'AdminAutomation' })).toEqual([
      'kind PinnedViews is not AdminAutomation',
    ]);
  });
});
