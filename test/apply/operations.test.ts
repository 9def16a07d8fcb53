import { describe, expect, it } from 'vitest';
import { buildOperations, checkStoredSteps, storedOperations, toServiceRequest } from '../../src/plan/operations.js';
import { createdKey } from '../../src/kinds/kind.js';
import { patchBody } from '../../src/kinds/saved-views.js';
import { ViewctlError } from '../../src/errors.js';
import type { Change } from '../../src/plan/types.js';
import { handPlan, snapshot } from './plan-fixtures.js';
import { errorCodeOf } from '../support/errors.js';

const calls = snapshot('Calls', {
  icon: 'telephone_receiver',
  columns: [{ type: 'Default', columnId: 'title' }],
  filters: { sourceIn: ['Call', 'Zoom'] },
  sort: [{ field: 'CreatedAt', order: 'Desc' }],
});

const changes: Change[] = [
  {
    action: 'pin',
    target: 'pins:recordings:mia@acme.test',
    kind: 'PinnedViews',
    name: 'mia@acme.test',
    domain: 'recordings',
    userEmail: 'mia@acme.test',
    before: [{ viewId: 'rv_default_1', name: 'All recordings', visibility: 'Public', isDefault: true }],
    after: [
      { viewId: null, name: 'Team calls', visibility: 'Public', isDefault: false },
      { viewId: 'rv_1', name: 'Calls', visibility: 'Public', isDefault: false },
      { viewId: 'rv_private_7', name: "Mia's", visibility: 'Private', isDefault: false },
    ],
  },
  {
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
  },
  {
    action: 'update',
    target: 'view:recordings:id:rv_1',
    kind: 'RecordingView',
    name: 'Calls',
    domain: 'recordings',
    id: 'rv_1',
    before: calls,
    after: snapshot('Calls', {
      columns: calls.columns,
      sort: calls.sort,
      filters: { sourceIn: ['Call', 'MsTeams', 'Zoom'] },
    }),
    patch: [],
  },
  {
    action: 'create',
    target: 'view:recordings:name:Team calls',
    kind: 'RecordingView',
    name: 'Team calls',
    domain: 'recordings',
    before: null,
    after: snapshot('Team calls', { icon: 'star' }),
  },
  {
    action: 'drift',
    target: 'automations',
    kind: 'AdminAutomation',
    name: 'Record',
    before: null,
    after: {},
    differences: [],
  },
];

describe('buildOperations', () => {
  it('orders creates, updates, pins, deletes and leaves drift out', () => {
    const operations = buildOperations(handPlan(changes));
    expect(operations.map((operation) => [operation.action, operation.changeIndex])).toEqual([
      ['create', 3],
      ['update', 2],
      ['pin', 0],
      ['delete', 1],
    ]);
    expect(operations.map((operation) => operation.endpoint)).toEqual([
      'POST /v1/recordings/views',
      'PATCH /v1/recordings/views/{viewId}',
      'PUT /v1/recordings/views/pinned',
      'DELETE /v1/deals/views/{viewId}',
    ]);
  });

  it('sends the whole new view on create, owned by creatorEmail', () => {
    const [create] = buildOperations(handPlan(changes));
    expect(create?.body).toEqual({
      creatorEmail: 'ops@acme.test',
      name: 'Team calls',
      icon: 'star',
      columns: [],
      filters: {},
      sort: [],
    });
  });

  it('PATCHes only the attributes that differ, and removes an icon with null', () => {
    const update = buildOperations(handPlan(changes)).find((operation) => operation.action === 'update');
    expect(update?.params).toEqual({ viewId: 'rv_1' });
    expect(update?.body).toEqual({ icon: null, filters: { sourceIn: ['Call', 'MsTeams', 'Zoom'] } });
  });

  it('patchBody sends a renamed view its name only, and a whole column list when one column changes', () => {
    expect(patchBody(calls, { ...calls, name: 'Renamed' })).toEqual({ name: 'Renamed' });
    const columns = [
      { type: 'Default', columnId: 'title' },
      { type: 'Default', columnId: 'duration' },
    ];
    expect(patchBody(calls, { ...calls, columns })).toEqual({ columns });
    expect(patchBody(snapshot('A'), snapshot('A', { icon: 'star' }))).toEqual({ icon: 'star' });
  });

  it('resolves pinned tabs naming views created in this run', () => {
    const pin = buildOperations(handPlan(changes)).find((operation) => operation.action === 'pin');
    expect(pin?.query).toEqual({ userEmail: 'mia@acme.test' });
    expect(pin?.newViewTabs).toEqual([{ index: 0, name: 'Team calls' }]);
    if (pin === undefined) throw new Error('no pin operation');
    const request = toServiceRequest(pin, new Map([[createdKey('recordings', 'Team calls'), 'rv_12']]));
    expect(request).toMatchObject({
      method: 'PUT',
      idempotent: true,
      body: { viewIds: ['rv_12', 'rv_1', 'rv_private_7'] },
    });
    expect(() => toServiceRequest(pin, new Map())).toThrow(ViewctlError);
  });

  it('marks only the creating POST as not idempotent', () => {
    const requests = buildOperations(handPlan(changes)).map((operation) =>
      toServiceRequest(operation, new Map([[createdKey('recordings', 'Team calls'), 'rv_12']])),
    );
    expect(requests.map((request) => request.idempotent)).toEqual([false, true, true, true]);
  });

  it('refuses a plan it cannot carry out exactly', () => {
    const codeOf = errorCodeOf;
    expect(codeOf(() => buildOperations(handPlan(changes, null)))).toBe('plan.invalid');
    const withoutCreate = changes.filter((change) => change.action !== 'create');
    expect(codeOf(() => buildOperations(handPlan(withoutCreate)))).toBe('plan.invalid');
    const noOp: Change = { ...(changes[2] as Extract<Change, { action: 'update' }>), after: calls };
    expect(codeOf(() => buildOperations(handPlan([noOp])))).toBe('plan.invalid');
  });
});

describe('stored steps', () => {
  const plan = handPlan(changes);
  const messageOf = (run: () => unknown): string => {
    try {
      run();
    } catch (error) {
      if (error instanceof ViewctlError && error.code === 'plan.invalid') return error.message;
      throw error;
    }
    return '';
  };

  it('stores each request with the index of its change, and a pinned tab naming a new view by name', () => {
    expect(plan.steps.map((step) => step.change)).toEqual([3, 2, 0, 1]);
    expect(plan.steps[2]).toEqual({
      change: 0,
      method: 'PUT',
      route: '/v1/recordings/views/pinned',
      params: {},
      query: { userEmail: 'mia@acme.test' },
      body: { viewIds: [null, 'rv_1', 'rv_private_7'] },
      newViewTabs: [{ index: 0, name: 'Team calls' }],
    });
    expect(storedOperations(plan)).toEqual(buildOperations(plan));
  });

  it('sends what the plan stores, not what its changes would imply', () => {
    const edited = structuredClone(plan);
    edited.steps = edited.steps.filter((step) => step.change !== 1);
    expect(storedOperations(edited).map((operation) => operation.action)).toEqual(['create', 'update', 'pin']);
  });

  it('accepts the steps its changes imply and refuses edited, added or reordered ones, naming the change', () => {
    expect(messageOf(() => checkStoredSteps(plan))).toBe('');
    const retargeted = structuredClone(plan);
    const deleteStep = retargeted.steps.find((step) => step.method === 'DELETE');
    if (deleteStep !== undefined) deleteStep.params = { viewId: 'dv_other' };
    expect(messageOf(() => checkStoredSteps(retargeted))).toContain(
      'changes[1]: the stored steps are not the requests the change implies',
    );
    const added = structuredClone(plan);
    added.steps.push({
      change: 4,
      method: 'DELETE',
      route: '/v1/deals/views/{viewId}',
      params: { viewId: 'dv_1' },
      query: {},
    });
    expect(messageOf(() => checkStoredSteps(added))).toContain('changes[4]:');
    const reordered = structuredClone(plan);
    reordered.steps.reverse();
    expect(messageOf(() => checkStoredSteps(reordered))).toContain('not in the order apply sends them');
  });
});
