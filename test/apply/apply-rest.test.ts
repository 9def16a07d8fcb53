import { describe, expect, it } from 'vitest';
import { carryOut } from '../../src/apply/carry-out.js';
import { prepareSavedPlan } from '../../src/flows/saved-plan.js';
import { buildOperations } from '../../src/plan/operations.js';
import { renderJson } from '../../src/render/json.js';
import { ROUTES } from '../../src/service/routes.js';
import type { ApiView } from '../../src/domain/api-types.js';
import {
  desired,
  desiredPins,
  desiredView,
  planFor,
  SAMPLE,
  startTestEmulator,
  testClient,
  testWorkspace,
  TEST_RELIST_DELAYS_MS,
} from './harness.js';

/**
 * A saved plan applied part-way, against the emulator: the create landed, the pinned
 * list naming the view it created did not. Applying the plan again sends only the
 * list, its tab resolved to the view the earlier run created, and verifies it.
 */
describe('apply --plan of a plan whose create landed and whose pinned list did not', () => {
  it('sends only the pinned list, naming the view created before, and verifies it', async () => {
    const emulator = await startTestEmulator(testWorkspace());
    try {
      const client = testClient(emulator);
      const wanted = desired(
        [desiredView('recordings', 'Team calls', { icon: 'star', ...SAMPLE })],
        [desiredPins('recordings', 'mia@acme.test', [{ name: 'Team calls' }])],
      );
      const { plan, live } = await planFor(wanted, client);
      // The first run stops after its create (as a fault in the pins phase would).
      const first = await carryOut(
        plan,
        buildOperations(plan).filter((operation) => operation.action === 'create'),
        { client, live, fromPlanFile: true, relistDelaysMs: TEST_RELIST_DELAYS_MS },
      );
      const createdId = first.landed[0]?.id;
      expect(createdId).toBeDefined();
      const ready = await prepareSavedPlan({ name: 'plan.json', text: renderJson(plan) }, async () => client, {
        maxDeletes: 0,
      });
      expect(ready.operations.map((operation) => operation.action)).toEqual(['pin']);
      expect(ready.alreadyApplied.map((outcome) => [outcome.operation.action, outcome.viewId])).toEqual([
        ['create', createdId],
      ]);
      const report = await carryOut(ready.plan, ready.operations, {
        client,
        live: ready.live,
        fromPlanFile: true,
        alreadyApplied: ready.alreadyApplied,
        relistDelaysMs: TEST_RELIST_DELAYS_MS,
      });
      expect(report.status).toBe('applied');
      expect(report.verification?.problems).toEqual([]);
      expect(report.alreadyApplied.map((entry) => [entry.action, entry.id])).toEqual([['create', createdId]]);
      const pinned = await client.request<ApiView[]>(ROUTES.getPinned('recordings', 'mia@acme.test'));
      expect(pinned.map((view) => view.viewId)).toContain(createdId);
      expect(emulator.stats().writes).toBe(2);
    } finally {
      await emulator.close();
    }
  });
});
