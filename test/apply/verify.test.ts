import { describe, expect, it } from 'vitest';
import type { Execution } from '../../src/apply/execute.js';
import { buildOperations } from '../../src/plan/operations.js';
import { checkApplied, verifyReads } from '../../src/apply/verify.js';
import { readAll } from '../../src/state/live-read.js';
import type { ApiView } from '../../src/domain/api-types.js';
import type { Change } from '../../src/plan/types.js';
import type { ServiceClient, ServiceRequest } from '../../src/service/types.js';
import { handPlan, snapshot } from './plan-fixtures.js';

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

function listingClient(listings: Record<string, ApiView[]>): ServiceClient & { reads: string[] } {
  const reads: string[] = [];
  return {
    reads,
    request: async <T>(request: ServiceRequest): Promise<T> => {
      reads.push(request.route);
      return (listings[request.route] ?? []) as T;
    },
    stats: () => ({ requests: reads.length, retries: 0, rateLimited: 0, dailyRemaining: null }),
  };
}

const changes: Change[] = [
  {
    action: 'create',
    target: 'view:recordings:name:Team',
    kind: 'RecordingView',
    name: 'Team',
    domain: 'recordings',
    before: null,
    after: snapshot('Team', { filters: { sourceIn: ['Call', 'Zoom'] } }),
  },
  {
    action: 'update',
    target: 'view:recordings:id:rv_1',
    kind: 'RecordingView',
    name: 'Calls',
    domain: 'recordings',
    id: 'rv_1',
    before: snapshot('Calls'),
    after: snapshot('Calls', { icon: 'star' }),
    patch: [],
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
    ownerId: 'u',
    pinnedBy: [],
  },
  {
    action: 'pin',
    target: 'pins:recordings:mia@acme.test',
    kind: 'PinnedViews',
    name: 'mia',
    domain: 'recordings',
    userEmail: 'mia@acme.test',
    before: [],
    after: [
      { viewId: null, name: 'Team', visibility: 'Public', isDefault: false },
      { viewId: 'rv_1', name: 'Calls', visibility: 'Public', isDefault: false },
    ],
  },
];
const plan = handPlan(changes);
const operations = buildOperations(plan);

function landedAll(pinned: ApiView[]): Execution {
  return {
    stopped: null,
    outcomes: operations.map((operation) =>
      operation.action === 'create'
        ? { status: 'landed', operation, viewId: 'rv_5' }
        : operation.action === 'pin'
          ? { status: 'landed', operation, pinned }
          : { status: 'landed', operation, ...(operation.viewId === undefined ? {} : { viewId: operation.viewId }) },
    ),
  };
}

async function verifyWith(
  plan: Parameters<typeof checkApplied>[0],
  execution: Parameters<typeof checkApplied>[1],
  client: ServiceClient,
) {
  return checkApplied(plan, execution, await readAll(client, verifyReads(plan, execution)));
}

describe('verifyReads, read, then checkApplied', () => {
  it('finds nothing wrong when the service holds what the plan said, reading one list per touched domain', async () => {
    const client = listingClient({
      // Set order differs from the plan's: normalisation makes them equal.
      '/v1/recordings/views': [
        apiView('rv_1', 'Calls', { icon: 'star' }),
        apiView('rv_5', 'Team', { filters: { sourceIn: ['Zoom', 'Call'] } }),
      ],
      '/v1/deals/views': [apiView('dv_1', 'Pipeline')],
    });
    const verification = await verifyWith(plan, landedAll([apiView('rv_5', 'Team'), apiView('rv_1', 'Calls')]), client);
    expect(verification.problems).toEqual([]);
    expect(client.reads.sort()).toEqual(['/v1/deals/views', '/v1/recordings/views']);
  });

  it('lists every difference: attributes, duplicates, survivors, tab order', async () => {
    const client = listingClient({
      '/v1/recordings/views': [apiView('rv_1', 'Calls'), apiView('rv_5', 'Team'), apiView('rv_6', 'Team')],
      '/v1/deals/views': [apiView('dv_9', 'Old')],
    });
    const verification = await verifyWith(plan, landedAll([apiView('rv_1', 'Calls'), apiView('rv_5', 'Team')]), client);
    expect(verification.problems.map((problem) => [problem.kind, problem.message])).toEqual([
      ['RecordingView', 'expected one view named "Team", found 2'],
      ['RecordingView', 'after apply, icon differs from the plan'],
      ['PinnedViews', 'pinned tabs are [rv_1, rv_5], expected [rv_5, rv_1]'],
      ['DealView', 'the view is still there after delete'],
    ]);
  });
});
