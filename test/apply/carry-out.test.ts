import { describe, expect, it } from 'vitest';
import { carryOut } from '../../src/apply/carry-out.js';
import type { ApplyReport } from '../../src/apply/report.js';
import { renderReportText } from '../../src/render/apply-report.js';
import { executeOperations } from '../../src/apply/execute.js';
import type { ApiView } from '../../src/domain/api-types.js';
import { ServiceError } from '../../src/errors.js';
import { buildOperations } from '../../src/plan/operations.js';
import type { Change } from '../../src/plan/types.js';
import type { ServiceClient, ServiceRequest } from '../../src/service/types.js';
import type { Live } from '../../src/state/types.js';
import { handPlan, snapshot } from './plan-fixtures.js';

/** carryOut (carry-out.ts) after the writes: reading back, settling copies a concurrent run made, and what it reports when the service fails then. */

/** A scripted client: each call is answered by the next handler for its `METHOD route`. */
function scriptedClient(
  script: Record<string, ((request: ServiceRequest) => unknown)[]>,
): ServiceClient & { log: string[] } {
  const log: string[] = [];
  return {
    log,
    request: async <T>(request: ServiceRequest): Promise<T> => {
      const key = `${request.method} ${request.route}`;
      log.push(`${key}${request.params?.viewId === undefined ? '' : ` ${String(request.params.viewId)}`}`);
      const handler = script[key]?.shift();
      if (handler === undefined) throw new Error(`unscripted ${key}`);
      return handler(request) as T;
    },
    stats: () => ({ requests: log.length, retries: 0, rateLimited: 0, dailyRemaining: null }),
  };
}

function apiView(viewId: string, name: string): ApiView {
  return { viewId, name, visibility: 'Public', isDefault: false, ownerId: 'u_ops', columns: [], filters: {}, sort: [] };
}

const lost = (): never => {
  const error = new ServiceError('service.outcome-unknown', 'no answer to POST /v1/recordings/views', {
    endpoint: 'POST /v1/recordings/views',
  });
  error.mayHaveLanded = true;
  throw error;
};
const unavailable = (): never => {
  throw new ServiceError('service.unavailable', 'the service answered 503', {
    endpoint: 'GET /v1/recordings/views',
    status: 503,
  });
};

const create = (name: string): Change => ({
  action: 'create',
  target: `view:recordings:name:${name}`,
  kind: 'RecordingView',
  name,
  domain: 'recordings',
  before: null,
  after: snapshot(name),
});
const live: Live = {
  workspace: { id: 'ws_test', name: 'Test', createdAt: '', membersCount: 1, recordingsCount: 0 },
  views: { recordings: [] },
  pins: {},
  requests: { used: 0, dailyRemaining: null },
};
const noWait = { relistDelaysMs: [1], sleep: async () => undefined };

describe('carryOut after the writes', () => {
  it('reports a failed read-back as a verification problem of a partial run, not as a thrown error', async () => {
    const client = scriptedClient({
      'POST /v1/recordings/views': [() => apiView('rv_9', 'Team')],
      'GET /v1/recordings/views': [unavailable],
    });
    const plan = handPlan([create('Team')]);
    const report = await carryOut(plan, buildOperations(plan), { client, live, fromPlanFile: false });
    expect(report.status).toBe('partial');
    expect(report.counts.created).toBe(1);
    expect(report.verification?.problems).toEqual([
      {
        changeIndex: -1,
        kind: 'Apply',
        name: 'verification',
        message: 'could not read back what was applied: the service answered 503',
      },
    ]);
  });

  it('settles copies after a run stopped by a failure, and reports them as its only verification', async () => {
    // The create's answer is lost and two identical views of its name show up: the create fails as one that may have landed.
    const client = scriptedClient({
      'POST /v1/recordings/views': [lost],
      'GET /v1/recordings/views': [
        () => [apiView('rv_8', 'Team'), apiView('rv_7', 'Team')],
        () => [apiView('rv_8', 'Team'), apiView('rv_7', 'Team')],
      ],
      'DELETE /v1/recordings/views/{viewId}': [() => undefined],
    });
    const plan = handPlan([create('Team')]);
    const report = await carryOut(plan, buildOperations(plan), { client, live, fromPlanFile: false, ...noWait });
    expect(report.stopped).toBe('failure');
    expect(client.log.filter((entry) => entry.startsWith('DELETE'))).toEqual([
      'DELETE /v1/recordings/views/{viewId} rv_8',
    ]);
    expect(report.verification?.problems.map((problem) => [problem.changeIndex, problem.name])).toEqual([[0, 'Team']]);
  });

  it('leaves a stopped run unverified when no copy was found', async () => {
    const client = scriptedClient({
      'POST /v1/recordings/views': [
        () => apiView('rv_9', 'Team'),
        () => {
          throw new ServiceError('service.validation', 'bad name', {
            endpoint: 'POST /v1/recordings/views',
            status: 400,
          });
        },
      ],
      'GET /v1/recordings/views': [() => [apiView('rv_9', 'Team')]],
    });
    const plan = handPlan([create('Team'), create('Other')]);
    const report = await carryOut(plan, buildOperations(plan), {
      client,
      live,
      fromPlanFile: false,
      inFlightPerEndpoint: 1,
    });
    expect(report.stopped).toBe('failure');
    expect(report.verification).toBeNull();
  });

  it('says it could not check for copies when the listing fails after a stopped run', async () => {
    const client = scriptedClient({
      'POST /v1/recordings/views': [
        () => apiView('rv_9', 'Team'),
        () => {
          throw new ServiceError('service.validation', 'bad name', {
            endpoint: 'POST /v1/recordings/views',
            status: 400,
          });
        },
      ],
      'GET /v1/recordings/views': [unavailable],
    });
    const plan = handPlan([create('Team'), create('Other')]);
    const report = await carryOut(plan, buildOperations(plan), {
      client,
      live,
      fromPlanFile: false,
      inFlightPerEndpoint: 1,
    });
    expect(report.verification?.problems).toEqual([
      {
        changeIndex: -1,
        kind: 'Apply',
        name: 'verification',
        message: 'could not check for copies a concurrent run created: the service answered 503',
      },
    ]);
  });

  it('reads nothing back after an interrupt', async () => {
    const controller = new AbortController();
    const client = scriptedClient({
      'POST /v1/recordings/views': [
        () => {
          controller.abort();
          return apiView('rv_9', 'Team');
        },
      ],
    });
    const plan = handPlan([create('Team'), create('Other')]);
    const report = await carryOut(plan, buildOperations(plan), {
      client,
      live,
      fromPlanFile: false,
      signal: controller.signal,
      inFlightPerEndpoint: 1,
    });
    expect(report.stopped).toBe('aborted');
    expect(report.verification).toBeNull();
    expect(client.log).toEqual(['POST /v1/recordings/views']);
  });
});

describe('a pinned list refused because a concurrent run deleted the view it named', () => {
  const pin: Change = {
    action: 'pin',
    target: 'pins:recordings:mia@acme.test',
    kind: 'PinnedViews',
    name: 'mia@acme.test',
    domain: 'recordings',
    userEmail: 'mia@acme.test',
    before: [],
    after: [{ viewId: null, name: 'Team', visibility: 'Public', isDefault: false }],
  };
  const unknownId = (request: ServiceRequest): never => {
    throw new ServiceError(
      'service.validation',
      `viewIds: unknown view ${String((request.body as { viewIds: string[] }).viewIds[0])}`,
      {
        endpoint: 'PUT /v1/recordings/views/pinned',
        status: 400,
        errorType: 'validation_error',
        path: 'viewIds',
      },
    );
  };

  it('says a concurrent run removed the view and a new plan converges, not that something needs fixing', async () => {
    // This run created rv_12; a concurrent run made rv_9 too and, settling the identical copies, deleted rv_12 before this run's PUT.
    const plan = handPlan([create('Team'), pin]);
    const run = (fromPlanFile: boolean): Promise<ApplyReport> => {
      const client = scriptedClient({
        'POST /v1/recordings/views': [() => apiView('rv_12', 'Team')],
        'PUT /v1/recordings/views/pinned': [unknownId],
        'GET /v1/recordings/views': [() => [apiView('rv_9', 'Team')]],
      });
      return carryOut(plan, buildOperations(plan), { client, live, fromPlanFile });
    };
    const report = await run(false);
    expect(report.failed).toHaveLength(1);
    expect(report.failed[0]?.error).toMatchObject({ status: 400, path: 'viewIds', concurrentChange: true });
    const text = renderReportText(report, { color: false });
    expect(text).toContain(
      'the list names rv_12 ("Team"), the view this run created; a concurrent run deleted it while settling the copies both runs made of that view (identical copies keep the smallest id; rv_9 remains), so the service refused the list as naming an unknown view; nothing needs fixing',
    );
    expect(text).not.toContain('fix what the error says');
    expect(report.next).toBe(
      'A concurrent run removed a view a pinned list named while this run applied; nothing needs fixing: a new plan converges (run the same command again).',
    );
    expect((await run(true)).next).toBe(
      'A concurrent run removed a view a pinned list named while this run applied; nothing needs fixing: a new plan converges (run viewctl plan again and apply the new plan).',
    );
  });

  it('still asks for a fix when the view the list named is there: the refusal is about something else', async () => {
    const client = scriptedClient({
      'POST /v1/recordings/views': [() => apiView('rv_12', 'Team')],
      'PUT /v1/recordings/views/pinned': [unknownId],
      'GET /v1/recordings/views': [() => [apiView('rv_12', 'Team')]],
    });
    const plan = handPlan([create('Team'), pin]);
    const report = await carryOut(plan, buildOperations(plan), { client, live, fromPlanFile: false });
    expect(report.failed[0]?.error?.concurrentChange).toBeUndefined();
    expect(report.next).toContain('fix what the error says');
  });
});

describe('executeOperations while a lost create is looked for', () => {
  it('stops listing again once the run is interrupted, and reports the create as one that may have landed', async () => {
    const controller = new AbortController();
    const client = scriptedClient({
      'POST /v1/recordings/views': [lost],
      'GET /v1/recordings/views': [
        () => {
          controller.abort();
          return [];
        },
      ],
    });
    const plan = handPlan([create('Team')]);
    const execution = await executeOperations(plan, buildOperations(plan), {
      client,
      live,
      signal: controller.signal,
      relistDelaysMs: [1, 1, 1],
      sleep: async () => undefined,
    });
    expect(client.log).toEqual(['POST /v1/recordings/views', 'GET /v1/recordings/views']);
    expect(execution.outcomes[0]).toMatchObject({
      status: 'failed',
      error: { code: 'apply.create-unconfirmed', mayHaveLanded: true },
    });
  });
});
