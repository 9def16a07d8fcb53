import { describe, expect, it } from 'vitest';
import { holdStale, planLeft } from '../../src/apply/stale-holds.js';
import { checkPlanRules } from '../../src/apply/gates.js';
import { readyToApply } from '../../src/flows/apply-ready.js';
import { computePlan } from '../../src/plan/diff.js';
import type { ServiceClient } from '../../src/service/types.js';
import { pinsKey, type Live } from '../../src/state/types.js';
import { declared, mixedScenario, pinsOf, view } from '../plan/fixtures.js';
import { viewctlErrorOf } from '../support/errors.js';

/** The mixed scenario's plan: a create of "Team calls", an update of rv_1, a delete of dv_9, mia's recordings tabs (naming "Team calls"), automation drift. */
const mixed = () => {
  const { desired, live } = mixedScenario();
  return { plan: computePlan(desired, live).plan, live };
};

/**
 * renamed is the mixed scenario with rv_1 renamed "Calls" (bound by its id) and mia's
 * tabs naming it by its new name: her list depends on the rename.
 */
const renamed = () => {
  const { desired, live } = mixedScenario();
  desired.views = desired.views.map((entry) =>
    entry.name === 'Zoom and Meet calls' ? declared('recordings', 'Calls', entry.managed, { viewId: 'rv_1' }) : entry,
  );
  desired.pins = [pinsOf('mia@acme.com', 'recordings', [{ name: 'Calls' }, { viewId: 'rv_private_7' }])];
  return { plan: computePlan(desired, live).plan, live };
};

const client = (dailyRemaining: number | null = null) =>
  ({ stats: () => ({ requests: 0, dailyRemaining }) }) as unknown as ServiceClient;

/** editedInApp is `live` with rv_1's filters changed in the app (its name kept: no pinned list sees it). */
function editedInApp(live: Live): Live {
  const changed = structuredClone(live);
  changed.views.recordings = (changed.views.recordings ?? []).map((entry) =>
    entry.viewId === 'rv_1' ? { ...entry, filters: { sourceIn: ['Zoom'] } } : entry,
  );
  return changed;
}

describe('a saved plan whose stale check fails for some targets', () => {
  it('holds nothing and leaves the plan whole when no target changed', () => {
    const { plan, live } = mixed();
    const holds = holdStale(plan, live);
    expect(holds.held.size).toBe(0);
    expect(planLeft(plan, holds).plan).toBe(plan);
  });

  it('holds only the changed target, saying what the plan expected and what the app has, and carries out the rest', () => {
    const { plan, live } = mixed();
    const changed = structuredClone(live);
    changed.pins[pinsKey('recordings', 'mia@acme.com')] = [
      ...(changed.pins[pinsKey('recordings', 'mia@acme.com')] ?? []),
    ].reverse();
    const holds = holdStale(plan, changed);
    expect([...holds.held.values()]).toEqual([
      {
        target: 'pins:recordings:mia@acme.com',
        code: 'apply.stale-target',
        change: 'pinned recordings tabs of mia@acme.com',
        reason:
          'changed since the plan was reviewed (in the app, or by another apply): the tabs are now "All recordings", "Zoom and Meet calls", "Mia\'s calls"; the plan expected "Mia\'s calls", "Zoom and Meet calls", "All recordings"',
      },
    ]);
    const { plan: left, alreadyLive } = planLeft(plan, holds);
    expect(alreadyLive.size).toBe(0);
    expect(left.changes.map((change) => change.action)).toEqual(['create', 'update', 'delete', 'drift']);
    // The steps follow their changes, renumbered; the held list's is gone.
    expect(left.steps.map((step) => left.changes[step.change]?.action)).toEqual(['create', 'update', 'delete']);
    expect(left.summary).toMatchObject({ create: 1, update: 1, delete: 1, pin: 0 });
    // Apply needs three writes and a listing read per domain written: the list's PUT is not counted.
    expect(left.requests.applyNeeds).toBe(plan.requests.applyNeeds - 1);
    expect(left.held?.map((entry) => [entry.target, entry.code])).toEqual([
      ['pins:recordings:mia@acme.com', 'apply.stale-target'],
    ]);
    expect(left.digest).toBe(plan.digest);
    // The rules are re-checked against what is left, and hold.
    expect(viewctlErrorOf(() => checkPlanRules(left, changed, new Set(alreadyLive.keys())))).toBeUndefined();
  });

  it('holds a pinned list with the held rename whose name it shows, and says which depends on which', () => {
    const { plan, live } = renamed();
    expect(plan.changes.map((change) => change.action)).toEqual(['create', 'update', 'delete', 'pin', 'drift']);
    const holds = holdStale(plan, editedInApp(live));
    expect([...holds.held.values()]).toEqual([
      {
        target: 'view:recordings:id:rv_1',
        code: 'apply.stale-target',
        change: 'update RecordingView "Calls" (rv_1)',
        reason:
          'changed since the plan was reviewed (in the app, or by another apply): its filters changed from what the plan expected',
        dependents: ['pins:recordings:mia@acme.com'],
      },
      {
        target: 'pins:recordings:mia@acme.com',
        code: 'apply.held-dependent',
        change: 'pinned recordings tabs of mia@acme.com',
        reason:
          'depends on update RecordingView "Calls" (rv_1), which is held: it shows rv_1 as "Calls", the name the held rename gives it',
        dependsOn: 'view:recordings:id:rv_1',
      },
    ]);
    const { plan: left } = planLeft(plan, holds);
    expect(left.changes.map((change) => change.action)).toEqual(['create', 'delete', 'drift']);
    expect(left.held?.map((entry) => entry.code)).toEqual(['apply.stale-target', 'apply.held-dependent']);
  });

  it('holds a create taking the name a held rename frees, and the pinned list naming that create, in a chain', () => {
    const { desired, live } = mixedScenario();
    // rv_1 is renamed "Calls", a new view takes its old name, and mia's tabs name the new one.
    desired.views = [
      ...desired.views.map((entry) =>
        entry.name === 'Zoom and Meet calls'
          ? declared('recordings', 'Calls', entry.managed, { viewId: 'rv_1' })
          : entry,
      ),
      declared('recordings', 'Zoom and Meet calls', { filters: { sourceIn: ['Zoom'] } }),
    ];
    desired.pins = [
      pinsOf('mia@acme.com', 'recordings', [{ name: 'Zoom and Meet calls' }, { viewId: 'rv_private_7' }]),
    ];
    const plan = computePlan(desired, live).plan;
    expect(plan.steps.find((step) => step.newViewTabs !== undefined)?.newViewTabs).toEqual([
      { index: 0, name: 'Zoom and Meet calls' },
    ]);
    // Only rv_1's filters changed in the app: neither the create's target nor mia's list is stale itself.
    const holds = holdStale(plan, editedInApp(live));
    expect([...holds.held.values()].map((entry) => [entry.target, entry.code, entry.dependsOn])).toEqual([
      ['view:recordings:name:Zoom and Meet calls', 'apply.held-dependent', 'view:recordings:id:rv_1'],
      ['view:recordings:id:rv_1', 'apply.stale-target', undefined],
      ['pins:recordings:mia@acme.com', 'apply.held-dependent', 'view:recordings:name:Zoom and Meet calls'],
    ]);
    const byTarget = new Map([...holds.held.values()].map((entry) => [entry.target, entry]));
    expect(byTarget.get('view:recordings:name:Zoom and Meet calls')?.reason).toBe(
      'depends on update RecordingView "Calls" (rv_1), which is held: it takes the name "Zoom and Meet calls", which the held rename to "Calls" was to free',
    );
    expect(byTarget.get('pins:recordings:mia@acme.com')?.reason).toBe(
      'depends on create RecordingView "Zoom and Meet calls", which is held: it names "Zoom and Meet calls", which the held create makes',
    );
    expect(byTarget.get('view:recordings:name:Zoom and Meet calls')?.dependents).toEqual([
      'pins:recordings:mia@acme.com',
    ]);
    // What is left (the create of "Team calls", the delete of dv_9) is carried out, no step naming a held create.
    const { plan: left } = planLeft(plan, holds);
    expect(left.changes.map((change) => `${change.action} ${change.name}`)).toEqual([
      'create Team calls',
      'delete Old pipeline',
      'drift Record external meetings',
    ]);
    expect(left.steps.every((step) => step.newViewTabs === undefined)).toBe(true);
  });

  it('holds every change and leaves nothing to send when every target changed', () => {
    const { plan, live } = mixed();
    const changed = editedInApp(live);
    changed.views.recordings = [view('rv_new', 'Team calls'), ...(changed.views.recordings ?? [])];
    changed.views.deals = (changed.views.deals ?? []).map((entry) =>
      entry.viewId === 'dv_9' ? { ...entry, name: 'Older pipeline' } : entry,
    );
    const holds = holdStale(plan, changed);
    expect([...holds.held.values()].map((entry) => entry.target).sort()).toEqual([
      'pins:recordings:mia@acme.com',
      'view:deals:id:dv_9',
      'view:recordings:id:rv_1',
      'view:recordings:name:Team calls',
    ]);
    expect([...holds.held.values()].find((entry) => entry.target === 'view:deals:id:dv_9')?.reason).toBe(
      'changed since the plan was reviewed (in the app, or by another apply): it is named "Older pipeline" now; the plan expected "Old pipeline"',
    );
    const { plan: left, alreadyLive } = planLeft(plan, holds);
    expect(left.changes.map((change) => change.action)).toEqual(['drift']);
    expect(left.steps).toEqual([]);
    const ready = readyToApply({ plan: left, live: changed, elapsedMs: 0, alreadyLive }, client(), 0);
    expect(ready.operations).toEqual([]);
  });

  it('counts --max-deletes and --max-pin-changes on the changes left, not the held ones', () => {
    const { plan, live } = mixed();
    // With every target as planned, the delete of dv_9 is over --max-deletes 0.
    expect(viewctlErrorOf(() => readyToApply({ plan, live, elapsedMs: 0 }, client(), 0))?.code).toBe(
      'apply.max-deletes',
    );
    expect(viewctlErrorOf(() => readyToApply({ plan, live, elapsedMs: 0 }, client(), 1, 0))?.code).toBe(
      'apply.max-pin-changes',
    );
    const changed = structuredClone(live);
    changed.views.deals = (changed.views.deals ?? []).map((entry) =>
      entry.viewId === 'dv_9' ? { ...entry, name: 'Older pipeline' } : entry,
    );
    changed.pins[pinsKey('recordings', 'mia@acme.com')] = [];
    const { plan: left, alreadyLive } = planLeft(plan, holdStale(plan, changed));
    // The held delete and list count against neither limit: the create and the update are carried out.
    const ready = readyToApply({ plan: left, live: changed, elapsedMs: 0, alreadyLive }, client(), 0, 0);
    expect(ready.operations.map((operation) => operation.action)).toEqual(['create', 'update']);
  });
});
