import { afterEach, describe, expect, it } from 'vitest';
import { carryOut } from '../../src/apply/carry-out.js';
import type { RunningEmulator } from '../../src/emulator/server.js';
import { prepareApply } from '../../src/flows/apply-ready.js';
import { planWorkspace } from '../../src/flows/plan-workspace.js';
import { ROUTES } from '../../src/service/routes.js';
import type { ServiceClient } from '../../src/service/types.js';
import type { SweepMemory } from '../../src/state/sweep-memory.js';
import type { ApiView } from '../../src/domain/api-types.js';
import {
  applyPlan,
  desired,
  desiredPins,
  desiredView,
  startTestEmulator,
  testClient,
  testWorkspace,
  TEST_RELIST_DELAYS_MS,
} from './harness.js';

/**
 * Self-heal through the flows the CLI calls, over a few simulated nights against the
 * emulator: a reviewed apply, then members and admins change things in the app, and
 * each night `apply --budget` puts back what was reviewed, never deleting.
 */

let emulator: RunningEmulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

const HEAD = { commit: '1'.repeat(40), clean: true };

/** The manifests: "Customer calls" bound by id, "Team calls" by name, mia's and max's recordings tabs, prune on. */
const manifests = desired(
  [
    desiredView(
      'recordings',
      'Customer calls',
      { icon: 'telephone_receiver', filters: { sourceIn: ['Call', 'Zoom'] } },
      'rv_1',
    ),
    desiredView('recordings', 'Team calls', { filters: { sourceIn: ['GoogleMeet'] } }),
  ],
  [
    desiredPins('recordings', 'mia@acme.test', [{ name: 'Team calls' }, { name: 'Customer calls' }]),
    desiredPins('recordings', 'max@acme.test', [{ name: 'Customer calls' }, { name: 'All recordings' }]),
  ],
  true,
);

/** night is one `apply --budget 60 --auto-approve` of the manifests on day `day`, as the CLI runs it. */
async function night(client: ServiceClient, memory: SweepMemory, day: string, budget = 60) {
  const before = client.stats().requests;
  const ready = await prepareApply(manifests, client, {
    maxDeletes: 0,
    memory,
    scope: { budget, reserve: 0 },
    clock: { now: () => Date.parse(`${day}T02:00:00Z`) },
    repair: true,
  });
  const report = await carryOut(ready.plan, ready.operations, {
    client,
    live: ready.live,
    fromPlanFile: false,
    relistDelaysMs: TEST_RELIST_DELAYS_MS,
    ...(ready.repair === undefined ? {} : { repair: ready.repair }),
  });
  // --budget covers everything: the reads, the repairs' writes and the reads that verify them.
  expect(client.stats().requests - before).toBeLessThanOrEqual(budget);
  return { ready, report };
}

async function listing(client: ServiceClient): Promise<ApiView[]> {
  return client.request<ApiView[]>(ROUTES.listViews('recordings'));
}

describe('self-heal over simulated nights', () => {
  it('puts back tabs, attributes, renames and a view deleted in the app, and leaves the prune deletion', async () => {
    emulator = await startTestEmulator(testWorkspace());
    const client = testClient(emulator);
    // Day 0: the reviewed apply (its ledger records HEAD as the last applied commit).
    const first = await planWorkspace(manifests, client);
    expect((await applyPlan(first.plan, first.live, client)).status).toBe('applied');
    const memory: SweepMemory = {
      formatVersion: 1,
      lists: {},
      views: {},
      members: {},
      lastApplied: { commit: HEAD.commit, at: '2026-11-01T02:00:00Z' },
    };
    // "Old calls" (rv_2) was public and declared nowhere: the reviewed apply pruned it.
    expect(first.plan.changes.filter((change) => change.action === 'delete').map((change) => change.name)).toEqual([
      'Old calls',
    ]);

    // Day 1, in the app: mia re-orders her tabs, an admin renames "Customer calls" and changes its icon.
    const team = (await listing(client)).find((view) => view.name === 'Team calls');
    await client.request(ROUTES.putPinned('recordings', 'mia@acme.test', { viewIds: ['rv_1', team?.viewId] }));
    await client.request(ROUTES.patchView('recordings', 'rv_1', { name: 'Calls (customers)', icon: 'star' }));
    const one = await night(client, memory, '2026-11-02');
    expect(one.report.status).toBe('applied');
    expect(one.report.repair?.repaired.map((group) => `${group.count} ${group.what}`)).toEqual([
      "1 view's attributes",
      '1 pin list',
    ]);
    expect(one.report.repair?.repaired[1]?.names).toEqual(['mia@acme.test']);
    expect((await listing(client)).find((view) => view.viewId === 'rv_1')).toMatchObject({
      name: 'Customer calls',
      icon: 'telephone_receiver',
    });
    expect(
      (await client.request<ApiView[]>(ROUTES.getPinned('recordings', 'mia@acme.test'))).map((view) => view.name),
    ).toEqual(['Team calls', 'Customer calls']);

    // Day 2, in the app: "Team calls" deleted; a member makes a public view nobody declared.
    await client.request(ROUTES.deleteView('recordings', team?.viewId ?? ''));
    await client.request(
      ROUTES.createView('recordings', {
        name: 'Scratch',
        creatorEmail: 'mia@acme.test',
        columns: [],
        filters: {},
        sort: [],
      }),
    );
    const two = await night(client, memory, '2026-11-03');
    expect(two.report.status).toBe('applied');
    expect(two.report.repair?.repaired.map((group) => `${group.count} ${group.what}`)).toEqual([
      '1 view re-created',
      '1 pin list',
    ]);
    expect(two.report.repair?.leftForReview).toEqual([{ what: 'deletion', count: 1, names: ['Scratch'] }]);
    expect(two.report.counts.deleted).toBe(0);
    const after = await listing(client);
    expect(after.map((view) => view.name)).toContain('Scratch');
    const recreated = after.find((view) => view.name === 'Team calls');
    expect(recreated?.viewId).not.toBe(team?.viewId);
    expect(
      (await client.request<ApiView[]>(ROUTES.getPinned('recordings', 'mia@acme.test'))).map((view) => view.viewId),
    ).toEqual([recreated?.viewId, 'rv_1']);

    // Day 3: nothing changed in the app; what is left is the deletion, for a reviewed apply.
    const three = await night(client, memory, '2026-11-04');
    expect(three.ready.operations).toEqual([]);
    expect(three.ready.plan.changes.map((change) => `${change.action} ${change.name}`)).toEqual(['delete Scratch']);
  });

  it("cuts a night's repairs to its budget, saying what is left, and the next night repairs the rest", async () => {
    emulator = await startTestEmulator(testWorkspace());
    const client = testClient(emulator);
    const first = await planWorkspace(manifests, client);
    expect((await applyPlan(first.plan, first.live, client)).status).toBe('applied');
    const memory: SweepMemory = {
      formatVersion: 1,
      lists: {},
      views: {},
      members: {},
      lastApplied: { commit: HEAD.commit, at: '2026-11-01T02:00:00Z' },
    };
    // In the app: both members' tabs swapped for the default view, the bound view's icon changed.
    await client.request(ROUTES.putPinned('recordings', 'mia@acme.test', { viewIds: ['rv_default_all'] }));
    await client.request(ROUTES.putPinned('recordings', 'max@acme.test', { viewIds: ['rv_default_all'] }));
    await client.request(ROUTES.patchView('recordings', 'rv_1', { icon: 'star' }));
    // 7 requests: the reads take 4 (the workspace, the recordings listing, 2 lists), the repairs need 4 (2 writes of lists, 1 of the view and its listing).
    const tight = await night(client, memory, '2026-11-02', 7);
    const left = tight.ready.repair?.leftForNextNight ?? [];
    expect(left.length).toBeGreaterThan(0);
    expect(tight.report.repair?.leftForNextNight.reduce((sum, group) => sum + group.count, 0)).toBe(left.length);
    const next = await night(client, memory, '2026-11-03');
    expect(next.report.repair?.repaired.reduce((sum, group) => sum + group.count, 0)).toBe(left.length);
    expect((await planWorkspace(manifests, client)).plan.changes).toEqual([]);
  });
});
