import { describe, expect, it } from 'vitest';
import { prepareSavedPlan } from '../../src/flows/saved-plan.js';
import { computePlan } from '../../src/plan/diff.js';
import { planDigest } from '../../src/plan/hash.js';
import type { Plan } from '../../src/plan/types.js';
import { renderJson } from '../../src/render/json.js';
import { viewTarget } from '../../src/domain/targets.js';
import { emptyMemory } from '../../src/state/sweep-memory.js';
import { pinsKey, type Live } from '../../src/state/types.js';
import { RECORDING_DEFAULTS, declared, emptyDesired, emptyLive, pinsOf, view } from '../plan/fixtures.js';
import { liveClient } from '../plan/live-client.js';

/**
 * `apply --plan` of a saved plan that creates again a view deleted in the app: memory
 * decided the create, but the write is checked against a fresh read (README, "A
 * declared view deleted in the app"). Someone re-creating it by hand in between holds
 * the create; the old id listed again refuses the plan: never a duplicate.
 */

/** recreate plans "Coaching", bound to rv_gone, which the memory saw; with `pins`, Mia's list naming it too (whose hash covers the whole listing). */
function recreate(pins = true): { plan: Plan; live: Live } {
  const desired = emptyDesired();
  desired.views = [declared('recordings', 'Coaching', { icon: 'mortar_board' }, { viewId: 'rv_gone' })];
  desired.pins = pins ? [pinsOf('mia@acme.com', 'recordings', [{ name: 'Coaching' }])] : [];
  const live = emptyLive();
  live.pins[pinsKey('recordings', 'mia@acme.com')] = [...RECORDING_DEFAULTS];
  const memory = emptyMemory();
  memory.views[viewTarget('recordings', 'rv_gone')] = {
    domain: 'recordings',
    id: 'rv_gone',
    name: 'Coaching',
    lastSeen: '2026-11-20T03:00:00.000Z',
  };
  const { plan } = computePlan(desired, live, { memory });
  return { plan, live };
}

async function prepare(
  plan: Plan,
  live: Live,
): Promise<{ code?: string; message?: string; operations?: string[]; held?: string[][] }> {
  const service = liveClient(live, null);
  return prepareSavedPlan({ name: 'plan.json', text: renderJson(plan) }, async () => service.client, {
    maxDeletes: 5,
  }).then(
    (ready) => ({
      operations: ready.operations.map((operation) => operation.action),
      ...(ready.held === undefined ? {} : { held: ready.held.map((entry) => [entry.target, entry.code]) }),
    }),
    (error: unknown) => error as { code?: string; message?: string },
  );
}

describe('apply --plan of a view created again after its deletion in the app', () => {
  it('applies when the id is still gone and the name still free', async () => {
    const { plan, live } = recreate();
    expect(plan.changes.map((change) => change.action)).toEqual(['create', 'pin']);
    expect(await prepare(plan, live)).toEqual({ operations: ['create', 'pin'] });
  });

  it('holds the create, and the list naming it, when someone re-created it by hand in between: never a duplicate', async () => {
    const { plan, live } = recreate();
    const byHand = structuredClone(live);
    byHand.views.recordings = [view('rv_hand', 'Coaching', { icon: 'books' }), ...RECORDING_DEFAULTS];
    const outcome = await prepare(plan, byHand);
    expect(outcome.operations).toEqual([]);
    expect(outcome.held).toEqual([
      ['view:recordings:name:Coaching', 'apply.stale-target'],
      ['pins:recordings:mia@acme.com', 'apply.stale-target'],
    ]);
  });

  it('refuses when the old id is listed again (made public again), even under another name', async () => {
    // Without a list naming it, only the create's own hash and re-check guard it.
    const { plan, live } = recreate(false);
    const back = structuredClone(live);
    back.views.recordings = [view('rv_gone', 'Coaching (old)'), ...RECORDING_DEFAULTS];
    const outcome = await prepare(plan, back);
    expect(outcome.code).toBe('plan.unsafe');
    expect(outcome.message).toContain('rv_gone, which the plan took for deleted in the app, is listed again');
  });

  it('refuses a forged plan whose create claims a deletion the listing contradicts', async () => {
    const { plan, live } = recreate(false);
    const forged = structuredClone(plan);
    const create = forged.changes[0];
    if (create?.action === 'create') create.deletedOutside = { id: 'rv_1', lastSeen: '2026-11-20T03:00:00.000Z' };
    const withOther = structuredClone(live);
    withOther.views.recordings = [view('rv_1', 'Calls'), ...RECORDING_DEFAULTS];
    const outcome = await prepare({ ...forged, digest: planDigest(forged) }, withOther);
    expect(outcome.code).toBe('plan.unsafe');
  });
});
