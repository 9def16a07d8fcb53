import { describe, expect, it, vi } from 'vitest';
import { carryOut } from '../../src/apply/carry-out.js';
import { executeOperations } from '../../src/apply/execute.js';
import { buildOperations } from '../../src/plan/operations.js';
import type { ApiView } from '../../src/domain/api-types.js';
import { ServiceError } from '../../src/errors.js';
import type { Change } from '../../src/plan/types.js';
import { createServiceClient } from '../../src/service/client.js';
import type { FetchLike } from '../../src/service/http-attempt.js';
import type { ServiceClient, ServiceRequest } from '../../src/service/types.js';
import { FakeClock } from '../service/helpers.js';
import type { Live } from '../../src/state/types.js';
import { emptyLive } from '../plan/fixtures.js';
import { handPlan, snapshot } from './plan-fixtures.js';

/** A scripted client: each call is answered by the next handler for its `METHOD route`. */
function scriptedClient(
  script: Record<string, ((request: ServiceRequest) => unknown)[]>,
): ServiceClient & { log: string[] } {
  const log: string[] = [];
  let requests = 0;
  return {
    log,
    request: async <T>(request: ServiceRequest): Promise<T> => {
      const key = `${request.method} ${request.route}`;
      log.push(key);
      requests += 1;
      const handler = script[key]?.shift();
      if (handler === undefined) throw new Error(`unscripted ${key}`);
      return handler(request) as T;
    },
    stats: () => ({ requests, retries: 0, rateLimited: 0, dailyRemaining: null }),
  };
}

/** A create whose answer was lost; the client marks such a write as one that may have landed. */
const lost = (): never => {
  const error = new ServiceError('service.outcome-unknown', 'no answer to POST /v1/recordings/views', {
    endpoint: 'POST /v1/recordings/views',
  });
  error.mayHaveLanded = true;
  throw error;
};

/** An instant sleep that records the waits asked for. */
function recordedSleep(): { sleep: (ms: number) => Promise<void>; waits: number[] } {
  const waits: number[] = [];
  return { waits, sleep: async (ms) => void waits.push(ms) };
}

function apiView(viewId: string, name: string): ApiView {
  return { viewId, name, visibility: 'Public', isDefault: false, ownerId: 'u_ops', columns: [], filters: {}, sort: [] };
}

/** remove prunes the live view rv_old. */
const remove: Change = {
  action: 'delete',
  target: 'view:recordings:id:rv_old',
  kind: 'RecordingView',
  name: 'Old',
  domain: 'recordings',
  id: 'rv_old',
  before: snapshot('Old'),
  after: null,
  reason: 'prune',
  ownerId: 'u_ops',
  pinnedBy: [],
};
const create: Change = {
  action: 'create',
  target: 'view:recordings:name:Team',
  kind: 'RecordingView',
  name: 'Team',
  domain: 'recordings',
  before: null,
  after: snapshot('Team'),
};
const live: Live = { ...emptyLive(), views: { recordings: [apiView('rv_old', 'Old')] } };

describe('executeOperations with lost create responses', () => {
  it('adopts the one new view of that name instead of creating it again', async () => {
    const client = scriptedClient({
      'POST /v1/recordings/views': [lost],
      'GET /v1/recordings/views': [() => [apiView('rv_old', 'Old'), apiView('rv_9', 'Team')]],
    });
    const { sleep } = recordedSleep();
    const execution = await executeOperations(handPlan([create]), buildOperations(handPlan([create])), {
      client,
      live,
      sleep,
    });
    expect(execution.outcomes[0]).toMatchObject({ status: 'landed', viewId: 'rv_9', note: 'adopted' });
    expect(client.log).toEqual(['POST /v1/recordings/views', 'GET /v1/recordings/views']);
  });

  it('never sends a lost create again: a create still in flight that lands late is found by a later listing', async () => {
    const client = scriptedClient({
      'POST /v1/recordings/views': [lost],
      'GET /v1/recordings/views': [
        () => [apiView('rv_old', 'Old')],
        () => [apiView('rv_old', 'Old')],
        () => [apiView('rv_old', 'Old'), apiView('rv_10', 'Team')],
      ],
    });
    const { sleep, waits } = recordedSleep();
    const execution = await executeOperations(handPlan([create]), buildOperations(handPlan([create])), {
      client,
      live,
      sleep,
    });
    expect(execution.outcomes[0]).toMatchObject({ status: 'landed', viewId: 'rv_10', note: 'adopted' });
    expect(client.log.filter((entry) => entry.startsWith('POST'))).toHaveLength(1);
    expect(waits).toEqual([1_000, 4_000, 10_000]);
  });

  it('reports a create that never showed up as one that may have landed, without sending it twice', async () => {
    const hopeless = scriptedClient({
      'POST /v1/recordings/views': [lost],
      'GET /v1/recordings/views': [() => [], () => []],
    });
    const failed = await executeOperations(handPlan([create]), buildOperations(handPlan([create])), {
      client: hopeless,
      live,
      relistDelaysMs: [5, 50],
      sleep: recordedSleep().sleep,
    });
    expect(failed.outcomes[0]).toMatchObject({
      status: 'failed',
      error: { code: 'apply.create-unconfirmed', mayHaveLanded: true },
    });
    expect(hopeless.log).toEqual(['POST /v1/recordings/views', 'GET /v1/recordings/views', 'GET /v1/recordings/views']);
  });

  it('reports a create whose confirming listing failed as one that may have landed, not as a failed write', async () => {
    const unavailable = (): never => {
      throw new ServiceError('service.unavailable', 'the service failed on GET /v1/recordings/views (503)', {
        endpoint: 'GET /v1/recordings/views',
        status: 503,
      });
    };
    const client = scriptedClient({ 'POST /v1/recordings/views': [lost], 'GET /v1/recordings/views': [unavailable] });
    const execution = await executeOperations(handPlan([create]), buildOperations(handPlan([create])), {
      client,
      live,
      relistDelaysMs: [5],
      sleep: recordedSleep().sleep,
    });
    expect(execution.outcomes[0]).toMatchObject({
      status: 'failed',
      error: { code: 'apply.write-unconfirmed', mayHaveLanded: true },
    });
    expect(client.log).toEqual(['POST /v1/recordings/views', 'GET /v1/recordings/views']);
  });

  it('reports duplicates the service made, and deletes nothing', async () => {
    const client = scriptedClient({
      'POST /v1/recordings/views': [lost],
      'GET /v1/recordings/views': [() => [apiView('rv_8', 'Team'), apiView('rv_9', 'Team')]],
    });
    const execution = await executeOperations(handPlan([create]), buildOperations(handPlan([create])), {
      client,
      live,
      sleep: recordedSleep().sleep,
    });
    expect(execution.outcomes[0]).toMatchObject({ status: 'failed', error: { code: 'apply.duplicate-created' } });
    expect(execution.stopped).toBe('failure');
    expect(client.log.some((entry) => entry.startsWith('DELETE'))).toBe(false);
  });

  it('never re-creates after a validation error, and counts a delete that finds nothing as landed', async () => {
    const refused = scriptedClient({
      'POST /v1/recordings/views': [
        () => {
          throw new ServiceError('service.validation', 'rejected', {
            endpoint: 'POST /v1/recordings/views',
            status: 400,
            errorType: 'validation_error',
            path: 'creatorEmail',
          });
        },
      ],
    });
    const execution = await executeOperations(handPlan([create]), buildOperations(handPlan([create])), {
      client: refused,
      live,
    });
    expect(execution.outcomes[0]).toMatchObject({
      status: 'failed',
      error: { status: 400, errorType: 'validation_error', path: 'creatorEmail' },
    });
    expect(refused.log).toEqual(['POST /v1/recordings/views']);

    const gone = scriptedClient({
      'DELETE /v1/recordings/views/{viewId}': [
        () => {
          throw new ServiceError('service.not-found', 'not found', {
            endpoint: 'DELETE /v1/recordings/views/{viewId}',
            status: 404,
            errorType: 'not_found',
          });
        },
      ],
    });
    const deleted = await executeOperations(handPlan([remove]), buildOperations(handPlan([remove])), {
      client: gone,
      live,
    });
    expect(deleted.outcomes[0]).toMatchObject({ status: 'landed', viewId: 'rv_old', note: 'already-gone' });
  });

  it('counts only a 404 as a delete already done: a refused delete fails and stops the run', async () => {
    const forbidden = scriptedClient({
      'DELETE /v1/recordings/views/{viewId}': [
        () => {
          throw new ServiceError('service.forbidden', 'forbidden', {
            endpoint: 'DELETE /v1/recordings/views/{viewId}',
            status: 403,
          });
        },
      ],
    });
    const execution = await executeOperations(handPlan([remove]), buildOperations(handPlan([remove])), {
      client: forbidden,
      live,
    });
    expect(execution).toMatchObject({
      stopped: 'failure',
      outcomes: [{ status: 'failed', error: { code: 'service.forbidden', status: 403 } }],
    });
  });

  it('sends nothing new once interrupted: a write waiting for its slot leaves the queue, not attempted; the one in flight lands', async () => {
    // Three creates on one endpoint at 1 request/s, two at a time: the first goes at
    // once, the second waits a second for its slot. The interrupt comes while the first
    // is in flight.
    const clock = new FakeClock();
    const controller = new AbortController();
    const sent: string[] = [];
    const fetch: FetchLike = async (_url, init) => {
      const { name } = JSON.parse(String(init.body)) as { name: string };
      sent.push(name);
      controller.abort();
      return new Response(JSON.stringify({ result: apiView(`rv_${name}`, name) }), { status: 200 });
    };
    const client = createServiceClient({ baseUrl: 'http://svc.test', apiKey: 'k-123456', rate: 1, clock, fetch });
    const named = (name: string): Change => ({
      ...create,
      target: `view:recordings:name:${name}`,
      name,
      after: snapshot(name),
    });
    const plan = handPlan([create, named('Other'), named('Third')]);
    const running = executeOperations(plan, buildOperations(plan), {
      client,
      live,
      signal: controller.signal,
      inFlightPerEndpoint: 2,
    });
    // Were the second create still queued, its slot would come now and it would be sent.
    await clock.advance(2000);
    const execution = await running;
    expect(sent).toEqual(['Team']);
    expect(execution).toMatchObject({
      stopped: 'aborted',
      outcomes: [{ status: 'landed', viewId: 'rv_Team' }, { status: 'not-attempted' }, { status: 'not-attempted' }],
    });
  });

  it('keeps the window full: two writes on one endpoint, two in flight at once', async () => {
    const held: (() => void)[] = [];
    let inFlight = 0;
    let most = 0;
    const client: ServiceClient = {
      request: async <T>(request: ServiceRequest): Promise<T> => {
        inFlight += 1;
        most = Math.max(most, inFlight);
        await new Promise<void>((release) => held.push(release));
        inFlight -= 1;
        const { name } = request.body as { name: string };
        return apiView(`rv_${name}`, name) as T;
      },
      stats: () => ({ requests: 0, retries: 0, rateLimited: 0, dailyRemaining: null }),
    };
    const named = (name: string): Change => ({
      ...create,
      target: `view:recordings:name:${name}`,
      name,
      after: snapshot(name),
    });
    const plan = handPlan([create, named('Other')]);
    const running = executeOperations(plan, buildOperations(plan), { client, live, inFlightPerEndpoint: 2 });
    // Both creates are sent before either is answered.
    await vi.waitFor(() => expect(held).toHaveLength(2));
    for (const release of held) release();
    const execution = await running;
    expect(most).toBe(2);
    expect(execution.outcomes.map((outcome) => outcome.status)).toEqual(['landed', 'landed']);
  });

  it('starts nothing when already aborted', async () => {
    const client = scriptedClient({});
    const controller = new AbortController();
    controller.abort();
    const execution = await executeOperations(handPlan([create]), buildOperations(handPlan([create])), {
      client,
      live,
      signal: controller.signal,
    });
    expect(execution).toMatchObject({ stopped: 'aborted', outcomes: [{ status: 'not-attempted' }] });
    expect(client.log).toEqual([]);
  });
});

describe('executeOperations with successes that carry no body (201/204)', () => {
  const update: Change = {
    action: 'update',
    target: 'view:recordings:id:rv_old',
    kind: 'RecordingView',
    name: 'Old',
    domain: 'recordings',
    id: 'rv_old',
    before: snapshot('Old'),
    after: { ...snapshot('Old'), icon: 'phone' },
    patch: [{ op: 'add', path: '/icon', value: 'phone' }],
  };
  const pin: Change = {
    action: 'pin',
    target: 'pins:recordings:mia@acme.test',
    kind: 'PinnedViews',
    name: 'mia@acme.test',
    domain: 'recordings',
    userEmail: 'mia@acme.test',
    before: [],
    after: [{ viewId: 'rv_old', name: 'Old', visibility: 'Public', isDefault: false }],
  };

  it('counts them as landed: the create is found by listing, the update keeps its id, the pins are read back', async () => {
    const client = scriptedClient({
      'POST /v1/recordings/views': [() => undefined],
      'GET /v1/recordings/views': [() => [apiView('rv_old', 'Old'), apiView('rv_11', 'Team')]],
      'PATCH /v1/recordings/views/{viewId}': [() => undefined],
      'PUT /v1/recordings/views/pinned': [() => undefined],
      'GET /v1/recordings/views/pinned': [
        (request) => (request.query?.userEmail === 'mia@acme.test' ? [apiView('rv_old', 'Old')] : []),
      ],
    });
    const execution = await executeOperations(
      handPlan([create, update, pin]),
      buildOperations(handPlan([create, update, pin])),
      { client, live },
    );
    expect(
      execution.outcomes.map((outcome) => [
        outcome.status,
        outcome.operation.action,
        'viewId' in outcome ? outcome.viewId : undefined,
      ]),
    ).toEqual([
      ['landed', 'create', 'rv_11'],
      ['landed', 'update', 'rv_old'],
      ['landed', 'pin', undefined],
    ]);
    expect(execution.outcomes[2]).toMatchObject({ pinned: [{ viewId: 'rv_old' }] });
  });

  it('reports a pinned list written without an answer whose read-back failed as one that may have landed', async () => {
    const client = scriptedClient({
      'PUT /v1/recordings/views/pinned': [() => undefined],
      'GET /v1/recordings/views/pinned': [
        () => {
          throw new ServiceError('service.unavailable', 'the service failed (503)', {
            endpoint: 'GET /v1/recordings/views/pinned',
            status: 503,
          });
        },
      ],
    });
    const execution = await executeOperations(handPlan([pin]), buildOperations(handPlan([pin])), { client, live });
    expect(execution.outcomes[0]).toMatchObject({
      status: 'failed',
      error: { code: 'apply.write-unconfirmed', mayHaveLanded: true },
    });
  });

  it('fails the create clearly when the listing does not show exactly one new view of the name', async () => {
    const client = scriptedClient({
      'POST /v1/recordings/views': [() => undefined],
      'GET /v1/recordings/views': [() => [apiView('rv_old', 'Old')]],
    });
    const execution = await executeOperations(handPlan([create]), buildOperations(handPlan([create])), {
      client,
      live,
    });
    expect(execution.outcomes[0]).toMatchObject({ status: 'failed', error: { code: 'apply.created-not-found' } });
  });
});

describe('a bug is never reported as a failed write', () => {
  const bug = (): never => {
    throw new TypeError("Cannot read properties of undefined (reading 'viewId')");
  };

  it('lets a TypeError while writing reach the top-level catch instead of "run the same command again"', async () => {
    const client = scriptedClient({ 'POST /v1/recordings/views': [bug] });
    await expect(
      executeOperations(handPlan([create]), buildOperations(handPlan([create])), { client, live }),
    ).rejects.toBeInstanceOf(TypeError);
  });

  it('lets a TypeError while reading back reach the top-level catch instead of "could not read back what was applied"', async () => {
    const client = scriptedClient({
      'POST /v1/recordings/views': [() => apiView('rv_9', 'Team')],
      'GET /v1/recordings/views': [bug],
    });
    const plan = handPlan([create]);
    await expect(carryOut(plan, buildOperations(plan), { client, live, fromPlanFile: false })).rejects.toBeInstanceOf(
      TypeError,
    );
  });
});

describe('a pinned list naming a view this run did not create', () => {
  it('is never sent: it fails as apply.unresolved-tab, known not to have landed', async () => {
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
    const both = handPlan([create, pin]);
    const pinOnly = buildOperations(both).filter((operation) => operation.action === 'pin');
    const client = scriptedClient({});
    const execution = await executeOperations(both, pinOnly, { client, live });
    expect(client.log).toEqual([]);
    expect(execution.outcomes).toEqual([
      { status: 'failed', operation: pinOnly[0], error: { code: 'apply.unresolved-tab', message: expect.any(String) } },
    ]);
  });
});
