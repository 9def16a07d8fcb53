import { afterEach, describe, expect, it } from 'vitest';
import { buildOperations } from '../../src/plan/operations.js';
import type { RunningEmulator } from '../../src/emulator/server.js';
import type { ServiceClient, ServiceRequest } from '../../src/service/types.js';
import {
  SAMPLE,
  applyPlan,
  desired,
  desiredPins,
  desiredView,
  planFor,
  startTestEmulator,
  testClient,
  testWorkspace,
} from './harness.js';

let emulator: RunningEmulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

/** wanted touches every phase: a create, updates (one a rename), pins naming the new view, prune deletes. */
const wanted = desired(
  [
    desiredView('recordings', 'Customer calls', { icon: null, filters: { sourceIn: ['Call', 'MsTeams', 'Zoom'] } }),
    desiredView('recordings', 'Team calls', { icon: 'star', ...SAMPLE }),
    desiredView('deals', 'Sales pipeline', { filters: { statusIn: ['Open', 'Won'] } }, 'dv_1'),
    desiredView('companies', 'Key accounts', {}),
  ],
  [
    desiredPins('recordings', 'mia@acme.test', [
      { name: 'Team calls' },
      { name: 'Customer calls' },
      { viewId: 'rv_p' },
    ]),
    desiredPins('deals', 'max@acme.test', [{ name: 'Sales pipeline' }, { name: 'All deals' }]),
  ],
  true,
);

function recording(client: ServiceClient, log: string[]): ServiceClient {
  return {
    request: <T>(request: ServiceRequest) => {
      if (request.method !== 'GET') log.push(`${request.method} ${request.route}`);
      return client.request<T>(request);
    },
    stats: () => client.stats(),
  };
}

describe('apply against the emulator', () => {
  it('carries out the plan with one write per operation, and verifies it with the requests the plan announced', async () => {
    emulator = await startTestEmulator(testWorkspace());
    const client = testClient(emulator);
    const { plan, live } = await planFor(wanted, client);
    expect(plan.summary).toMatchObject({ create: 1, update: 2, pin: 2, delete: 2 });
    emulator.resetStats();

    const report = await applyPlan(plan, live, client);

    expect(report.status).toBe('applied');
    expect(report.verification?.problems).toEqual([]);
    expect(report.counts).toEqual({ created: 1, updated: 2, pinned: 2, deleted: 2 });
    expect(emulator.stats().writes).toBe(buildOperations(plan).length);
    // Writes plus one verifying list per touched view domain: what the plan announced.
    expect(report.requests).toBe(plan.requests.applyNeeds);

    const data = emulator.snapshot();
    const created = data.views.recordings.find((view) => view.name === 'Team calls');
    expect(created).toMatchObject({
      icon: 'star',
      visibility: 'Public',
      ownerId: 'u_ops',
      columns: SAMPLE.columns,
      sort: SAMPLE.sort,
    });
    expect(data.pinned.recordings.u_mia).toEqual([created?.viewId, 'rv_1', 'rv_p']);
    expect(data.views.recordings.find((view) => view.viewId === 'rv_1')?.icon).toBeUndefined();
    expect(data.views.recordings.some((view) => view.viewId === 'rv_2')).toBe(false);
    expect(data.views.deals.map((view) => view.name)).toEqual(['Sales pipeline', 'All deals']);
    expect(data.views.contacts.map((view) => view.viewId)).toEqual(['ctv_1', 'ctv_default_all']);
  });

  it('orders creates, updates, pinned lists, then deletes', async () => {
    emulator = await startTestEmulator(testWorkspace());
    const client = testClient(emulator);
    const { plan, live } = await planFor(wanted, client);
    const log: string[] = [];
    const report = await applyPlan(plan, live, recording(client, log));
    expect(report.status).toBe('applied');
    const phase = (entry: string): number => ['POST', 'PATCH', 'PUT', 'DELETE'].indexOf(entry.split(' ')[0] ?? '');
    expect(log.map(phase)).toEqual([...log.map(phase)].sort((a, b) => a - b));
    expect(log.filter((entry) => entry.startsWith('DELETE'))).toHaveLength(2);
    expect(log.at(-1)?.startsWith('DELETE')).toBe(true);
  });

  it('reports landed, failed and not attempted when the service refuses a write, and exits partial', async () => {
    emulator = await startTestEmulator(testWorkspace());
    const client = testClient(emulator);
    const { plan, live } = await planFor(wanted, client);
    // The service refuses a value outside an enum with 400 validation_error.
    const broken = structuredClone(plan);
    const update = broken.changes.find((change) => change.action === 'update' && change.domain === 'deals');
    if (update?.action !== 'update') throw new Error('expected the deals update');
    update.after.filters = { statusIn: ['Open', 'Sideways'] };
    emulator.resetStats();

    const report = await applyPlan(broken, live, client, { inFlightPerEndpoint: 1 });

    expect(report.status).toBe('partial');
    expect(report.stopped).toBe('failure');
    expect(report.verification).toBeNull();
    expect(report.failed).toHaveLength(1);
    expect(report.failed[0]).toMatchObject({
      action: 'update',
      kind: 'DealView',
      id: 'dv_1',
      error: { status: 400, errorType: 'validation_error' },
    });
    expect(report.failed[0]?.error?.path).toMatch(/^filters/);
    // The create landed in its phase; the other update runs on the same endpoint, so
    // whatever was not started when the failure came was not attempted.
    expect(report.landed.map((entry) => entry.action)).toContain('create');
    const accounted = report.landed.length + report.failed.length + report.notAttempted.length;
    expect(accounted).toBe(buildOperations(broken).length);
    expect(report.notAttempted.map((entry) => entry.action)).toEqual(
      expect.arrayContaining(['pin', 'pin', 'delete', 'delete']),
    );
    expect(emulator.stats().writes).toBe(report.landed.length);
    // A 400 will come again: the advice is to fix it first.
    expect(report.next).toBe(
      'The service refused a write: fix what the error says (in the manifests or the workspace), then run the same command again.',
    );
  });

  it('stops starting operations once aborted, and lists them as not attempted', async () => {
    emulator = await startTestEmulator(testWorkspace());
    const client = testClient(emulator);
    const { plan, live } = await planFor(wanted, client);
    const controller = new AbortController();
    const operations = buildOperations(plan);
    const { carryOut } = await import('../../src/apply/carry-out.js');
    const report = await carryOut(plan, operations, {
      client,
      live,
      fromPlanFile: true,
      signal: controller.signal,
      inFlightPerEndpoint: 1,
      onOutcome: (outcome) => {
        if (outcome.operation.action === 'create') controller.abort();
      },
    });
    expect(report.stopped).toBe('aborted');
    expect(report.landed.map((entry) => entry.action)).toEqual(['create']);
    expect(report.notAttempted).toHaveLength(operations.length - 1);
    // Applying the saved plan again skips the create that landed and sends the rest.
    expect(report.next).toBe(
      'Run the same command again to apply the rest: what landed is skipped as already applied.',
    );
  });
});
