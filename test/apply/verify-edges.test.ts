import { describe, expect, it } from 'vitest';
import type { Execution, OperationOutcome } from '../../src/apply/execute.js';
import { checkApplied, verifyReads } from '../../src/apply/verify.js';
import type { ApiView } from '../../src/domain/api-types.js';
import type { Domain } from '../../src/domain/domains.js';
import { buildOperations, type Operation } from '../../src/plan/operations.js';
import type { Change } from '../../src/plan/types.js';
import type { Live } from '../../src/state/types.js';
import { handPlan, snapshot } from './plan-fixtures.js';

/**
 * checkApplied and verifyReads on the cases test/apply/verify.test.ts does not
 * reach: operations that did not land, a created view under another id, an updated
 * view gone from the listing, several attributes differing, pinned tabs naming a
 * view whose create did not land, a create that answered no id, and an operation
 * whose change the plan does not hold.
 */

function apiView(viewId: string, name: string, extra: Partial<ApiView> = {}): ApiView {
  return {
    viewId,
    name,
    visibility: 'Public',
    isDefault: false,
    ownerId: 'u',
    columns: [],
    filters: {},
    sort: [],
    ...extra,
  };
}

const create: Change = {
  action: 'create',
  target: 'view:recordings:name:Team',
  kind: 'RecordingView',
  name: 'Team',
  domain: 'recordings',
  before: null,
  after: snapshot('Team'),
};
const update: Change = {
  action: 'update',
  target: 'view:deals:id:dv_1',
  kind: 'DealView',
  name: 'Pipeline',
  domain: 'deals',
  id: 'dv_1',
  before: snapshot('Pipeline'),
  after: snapshot('Pipeline', { icon: 'star', filters: { statusIn: ['Open'] } }),
  patch: [],
};
const pin: Change = {
  action: 'pin',
  target: 'pins:recordings:mia@acme.test',
  kind: 'PinnedViews',
  name: 'mia',
  domain: 'recordings',
  userEmail: 'mia@acme.test',
  before: [],
  after: [{ viewId: null, name: 'Team', visibility: 'Public', isDefault: false }],
};

/** listings is what verification read back: the listings of `entries`' domains. */
function listings(entries: [Domain, ApiView[]][]): Partial<Live> {
  return { views: Object.fromEntries(entries) };
}

function outcome(
  operation: Operation,
  status: OperationOutcome['status'],
  extra: Partial<OperationOutcome> = {},
): OperationOutcome {
  if (status === 'failed')
    return { status, operation, error: { code: 'service.validation', message: 'refused' } } as OperationOutcome;
  return { status, operation, ...extra } as OperationOutcome;
}

describe('verifyReads', () => {
  it('reads the listings of the domains of landed view writes only: not pins, not failed or unattempted writes', () => {
    const plan = handPlan([create, update, pin]);
    const [createOp, updateOp, pinOp] = buildOperations(plan);
    expect([createOp, updateOp, pinOp].map((operation) => operation?.action)).toEqual(['create', 'update', 'pin']);
    const execution: Execution = {
      stopped: 'failure',
      outcomes: [
        outcome(updateOp!, 'failed'),
        outcome(pinOp!, 'landed', { pinned: [] }),
        outcome(createOp!, 'not-attempted'),
      ],
    };
    expect(verifyReads(plan, execution)).toEqual([]);
    const landed: Execution = {
      stopped: null,
      outcomes: [
        outcome(createOp!, 'landed', { viewId: 'rv_5' }),
        outcome(updateOp!, 'landed', { viewId: 'dv_1' }),
        outcome(pinOp!, 'landed', { pinned: [] }),
      ],
    };
    expect(verifyReads(plan, landed).map((read) => [read.into, read.entry, read.request.route])).toEqual([
      ['views', 'recordings', '/v1/recordings/views'],
      ['views', 'deals', '/v1/deals/views'],
    ]);
  });
});

describe('checkApplied', () => {
  const plan = handPlan([create, update]);
  const [createOp, updateOp] = buildOperations(plan);

  it('checks only what landed: a failed update is not reported as a verification problem', () => {
    const execution: Execution = {
      stopped: 'failure',
      outcomes: [outcome(createOp!, 'landed', { viewId: 'rv_5' }), outcome(updateOp!, 'failed')],
    };
    const verification = checkApplied(plan, execution, listings([['recordings', [apiView('rv_5', 'Team')]]]));
    expect(verification).toEqual({ problems: [], domainsRead: ['recordings'] });
  });

  it('reports a created view listed under another id than the create answered, and an updated view missing', () => {
    const execution: Execution = {
      stopped: null,
      outcomes: [outcome(createOp!, 'landed', { viewId: 'rv_5' }), outcome(updateOp!, 'landed', { viewId: 'dv_1' })],
    };
    const verification = checkApplied(
      plan,
      execution,
      listings([
        ['recordings', [apiView('rv_6', 'Team')]],
        ['deals', []],
      ]),
    );
    expect(verification.problems).toEqual([
      {
        changeIndex: 0,
        kind: 'RecordingView',
        name: 'Team',
        id: 'rv_5',
        message: 'the view named "Team" is rv_6, not rv_5',
      },
      {
        changeIndex: 1,
        kind: 'DealView',
        name: 'Pipeline',
        id: 'dv_1',
        message: 'the view is not in the listing after apply',
      },
    ]);
  });

  it('names every attribute that differs, in the plural when there are several', () => {
    const execution: Execution = { stopped: null, outcomes: [outcome(updateOp!, 'landed', { viewId: 'dv_1' })] };
    const verification = checkApplied(
      plan,
      execution,
      listings([['deals', [apiView('dv_1', 'Pipeline', { filters: { statusIn: ['Won'] } })]]]),
    );
    expect(verification.problems.map((problem) => problem.message)).toEqual([
      'after apply, icon, filters differ from the plan',
    ]);
  });

  it('expects a pinned tab of a view whose create did not land as that view, by name, and reports the list as sent', () => {
    const pinPlan = handPlan([create, pin]);
    const [createOp2, pinOp] = buildOperations(pinPlan);
    const execution: Execution = {
      stopped: 'failure',
      outcomes: [
        outcome(createOp2!, 'failed'),
        outcome(pinOp!, 'landed', { pinned: [apiView('rv_all', 'All recordings')] }),
      ],
    };
    const verification = checkApplied(pinPlan, execution, listings([]));
    expect(verification.problems.map((problem) => problem.message)).toEqual([
      'pinned tabs are [rv_all], expected [(new "Team")]',
    ]);
  });

  it('checks a created view whose create answered no id by its name and attributes alone', () => {
    const execution: Execution = { stopped: null, outcomes: [outcome(createOp!, 'landed')] };
    expect(checkApplied(plan, execution, listings([['recordings', [apiView('rv_7', 'Team')]]])).problems).toEqual([]);
    const differing = checkApplied(
      plan,
      execution,
      listings([['recordings', [apiView('rv_7', 'Team', { icon: 'star' })]]]),
    );
    expect(differing.problems).toEqual([
      { changeIndex: 0, kind: 'RecordingView', name: 'Team', message: 'after apply, icon differs from the plan' },
    ]);
  });

  it('reports an operation whose change the plan does not hold', () => {
    const execution: Execution = {
      stopped: null,
      outcomes: [outcome({ ...updateOp!, changeIndex: 7 }, 'landed', { viewId: 'dv_1' })],
    };
    expect(checkApplied(plan, execution, listings([['deals', []]])).problems).toEqual([
      {
        changeIndex: 7,
        kind: 'DealView',
        name: 'Pipeline',
        id: 'dv_1',
        message: 'the operation has no change in the plan',
      },
    ]);
  });
});
