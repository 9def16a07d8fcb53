import { describe, expect, it } from 'vitest';
import type { Execution, OperationOutcome } from '../../src/apply/execute.js';
import type { Operation } from '../../src/apply/operations.js';
import { findRaceCopies, settleRaceCopies } from '../../src/apply/race-copies.js';
import { compareIds } from '../../src/domain/views.js';
import type { ApiView } from '../../src/domain/api-types.js';
import type { Domain } from '../../src/domain/domains.js';
import { ServiceError } from '../../src/errors.js';
import type { ServiceClient, ServiceRequest } from '../../src/service/types.js';
import type { Live } from '../../src/state/types.js';

/** Copies left by concurrent applies: found in the verification listings; each run deletes only its own. */

function view(viewId: string, name: string, extra: Partial<ApiView> = {}): ApiView {
  return { viewId, name, visibility: 'Public', isDefault: false, ownerId: 'u_1', columns: [], filters: {}, sort: [], ...extra };
}

function created(changeIndex: number, domain: Domain, name: string, viewId: string): OperationOutcome {
  const operation: Operation = {
    id: `${changeIndex}-create`, changeIndex, action: 'create', kind: 'RecordingView', name, domain, method: 'POST',
    route: `/v1/${domain}/views`, params: {}, query: {}, body: { name }, endpoint: `POST /v1/${domain}/views`, newViewTabs: [],
  };
  return { status: 'landed', operation, viewId };
}

const live: Live = {
  workspace: { id: 'ws', name: 'W', createdAt: '2026-01-01T00:00:00Z', membersCount: 1, recordingsCount: 0 },
  views: { recordings: [view('rv_old', 'Calls')] },
  pins: {},
  requests: { used: 0, dailyRemaining: null },
};

describe('copies made by concurrent applies', () => {
  it('orders ids shorter first, so sequential ids keep the first created', () => {
    expect(['rv_10', 'rv_9', 'rv_11', 'rv_1'].sort(compareIds)).toEqual(['rv_1', 'rv_9', 'rv_10', 'rv_11']);
  });

  it('finds a created name that another new public view carries, ignoring views that existed, defaults and private views', () => {
    const execution: Execution = { outcomes: [created(0, 'recordings', 'Team', 'rv_12'), created(1, 'recordings', 'Solo', 'rv_13')], stopped: null };
    const listing = [
      view('rv_old', 'Team'), view('rv_12', 'Team'), view('rv_10', 'Team'), view('rv_9', 'Team'), view('rv_d', 'Team', { isDefault: true }),
      view('rv_p', 'Team', { visibility: 'Private' }), view('rv_13', 'Solo'),
    ];
    expect(findRaceCopies(execution, { ...live, views: { recordings: [view('rv_old', 'Team')] } }, new Map([['recordings', listing]]))).toEqual([
      { domain: 'recordings', name: 'Team', changeIndex: 0, ours: 'rv_12', others: ['rv_9', 'rv_10'] },
    ]);
  });

  it('deletes only this run\'s copy (a 404 is fine), points the create at the oldest other copy and reports it', async () => {
    for (const gone of [false, true]) {
      const sent: ServiceRequest[] = [];
      const client: ServiceClient = {
        request: <T>(request: ServiceRequest): Promise<T> => {
          sent.push(request);
          if (gone) return Promise.reject(new ServiceError('service.not-found', 'gone', { endpoint: 'DELETE', status: 404 }));
          return Promise.resolve({ ok: true } as T);
        },
        stats: () => ({ requests: sent.length, retries: 0, rateLimited: 0, dailyRemaining: null }),
      };
      const execution: Execution = { outcomes: [created(0, 'recordings', 'Team', 'rv_12')], stopped: null };
      const listing = [view('rv_12', 'Team'), view('rv_14', 'Team'), view('rv_9', 'Team'), view('rv_old', 'Calls')];
      const settled = await settleRaceCopies(execution, live, new Map([['recordings', listing]]), client);
      expect(sent.map((request) => `${request.method} ${request.params?.['viewId'] ?? ''}`)).toEqual(['DELETE rv_12']);
      expect(settled.listings.get('recordings')?.map((entry) => entry.viewId)).toEqual(['rv_14', 'rv_9', 'rv_old']);
      const [outcome] = settled.execution.outcomes;
      expect(outcome?.status === 'landed' ? outcome.viewId : undefined).toBe('rv_9');
      expect(settled.problems).toEqual([
        {
          changeIndex: 0, kind: 'RecordingView', name: 'Team', id: 'rv_12',
          message: 'a concurrent run created "Team" too (rv_9, rv_14); this run deleted its own copy rv_12, so pinned tabs it set to that copy are gone',
        },
      ]);
    }
  });

  it('changes nothing when every created name is unique', async () => {
    const client: ServiceClient = { request: () => Promise.reject(new Error('no request expected')), stats: () => ({ requests: 0, retries: 0, rateLimited: 0, dailyRemaining: null }) };
    const execution: Execution = { outcomes: [created(0, 'recordings', 'Team', 'rv_12')], stopped: null };
    const settled = await settleRaceCopies(execution, live, new Map([['recordings', [view('rv_12', 'Team')]]]), client);
    expect(settled.problems).toEqual([]);
    expect(settled.execution).toEqual(execution);
  });
});
