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
    await expect(prepareApply(desired, liveClient(live).client, { maxDeletes: 0 })).rejects.toMatchObject({
      code: 'apply.max-deletes',
    });
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

/** Self-heal (`apply --budget N`) once its gate passed (test/flows/apply-run.test.ts): the same flow, given the sweep memory. */
describe('prepareApply with repair', () => {
  const head = { commit: 'a'.repeat(40) };
  const memory = {
    formatVersion: 1 as const,
    lists: {},
    views: {},
    members: {},
    lastApplied: { commit: head.commit, at: '2026-11-20T02:00:00Z' },
  };

  it('carries out the repairs alone: the prune deletion is left, so --max-deletes 0 holds, and the plan shows it', async () => {
    const { desired, live } = mixedScenario();
    const ready = await prepareApply(desired, liveClient(live).client, {
      maxDeletes: 0,
      memory,
      scope: { budget: 100, reserve: 0 },
      repair: true,
    });
    expect(ready.operations.map((operation) => `${operation.action} ${operation.name}`)).toEqual([
      'create Team calls',
      'update Zoom and Meet calls',
      'pin mia@acme.com recordings',
    ]);
    expect(ready.plan.changes.some((change) => change.action === 'delete')).toBe(true);
    expect(ready.repair?.leftForReview.map((index) => ready.plan.changes[index]?.name)).toEqual(['Old pipeline']);
    // --expect-digest binds the whole plan, as for any apply.
    const other = prepareApply(desired, liveClient(live).client, {
      maxDeletes: 0,
      memory,
      scope: { budget: 100, reserve: 0 },
      repair: true,
      expectDigest: 'f'.repeat(64),
    });
    await expect(other).rejects.toMatchObject({ code: 'apply.digest-unexpected' });
  });

  it('reads within the budget less a fifth, and leaves for the next night what the rest cannot pay for', async () => {
    const { desired, live } = mixedScenario();
    const { client, routes } = liveClient(live);
    const ready = await prepareApply(desired, client, {
      maxDeletes: 0,
      memory,
      scope: { budget: 10, reserve: 0 },
      repair: true,
    });
    expect(ready.repair?.budget).toEqual({ given: 10, reads: 8 });
    expect(routes.length).toBeLessThanOrEqual(8);
    // The repairs need 4 requests (3 writes, 1 listing to verify): they fit in what the reads left of 10.
    expect(ready.repair?.requests).toBeLessThanOrEqual(10 - routes.length);
    // What is left today less --reserve bounds the writes too: here nothing is.
    const tight = liveClient(live, 100);
    const cut = await prepareApply(desired, tight.client, {
      maxDeletes: 0,
      memory,
      scope: { budget: 100, reserve: 100 - 6 - tight.routes.length },
      repair: true,
    });
    expect(cut.operations).toEqual([]);
    expect(cut.repair?.leftForNextNight).toHaveLength(2);
    // The pinned list naming the view whose create is left waits for that create.
    expect(cut.repair?.waitingForCreate).toHaveLength(1);
  });

  it("says a budget too small of the budget given, not of the reads' share", async () => {
    const { desired, live } = mixedScenario();
    const refused = prepareApply(desired, liveClient(live).client, {
      maxDeletes: 0,
      memory,
      scope: { budget: 5, reserve: 0 },
      repair: true,
    });
    await expect(refused).rejects.toMatchObject({
      code: 'usage.budget-too-small',
      message: expect.stringMatching(
        /^--budget 5 is too small for self-heal, which keeps a fifth of it for the repairs and leaves 4 for the reads: /,
      ),
    });
  });
});
