import { describe, expect, it } from 'vitest';
import { prepareApply } from '../../src/flows/apply-ready.js';
import { planWorkspace } from '../../src/flows/plan-workspace.js';
import { mixedScenario, noChangeScenario } from '../plan/fixtures.js';
import { liveClient } from '../plan/live-client.js';

/** `apply` of the manifests up to its first write: the flow the CLI calls, with a fake service. */
describe('prepareApply', () => {
  it('plans, then refuses another digest than the expected one before the gates of writes', async () => {
    const { desired, live } = mixedScenario();
    const refused = prepareApply(desired, liveClient(live).client, { maxDeletes: 0, expectDigest: 'f'.repeat(64) });
    await expect(refused).rejects.toMatchObject({ code: 'apply.digest-unexpected' });
    await expect(prepareApply(desired, liveClient(live).client, { maxDeletes: 0 })).rejects.toMatchObject({ code: 'apply.max-deletes' });
  });

  it('answers the operations of the plan it made, which is the plan `plan` shows', async () => {
    const { desired, live } = mixedScenario();
    const { plan: shown } = await planWorkspace(desired, liveClient(live).client);
    const ready = await prepareApply(desired, liveClient(live).client, { maxDeletes: 1, expectDigest: shown.digest });
    expect(ready.plan.digest).toBe(shown.digest);
    expect(ready.operations.map((operation) => operation.changeIndex)).toEqual(shown.steps.map((step) => step.change));
  });

  it('has nothing to apply when the workspace is as the manifests say, whatever --max-deletes', async () => {
    const { desired, live } = noChangeScenario();
    const ready = await prepareApply(desired, liveClient(live).client, { maxDeletes: 0 });
    expect(ready.operations).toEqual([]);
  });
});
