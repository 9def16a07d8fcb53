import { describe, expect, it } from 'vitest';
import { computePlan } from '../../src/plan/diff.js';
import { PlanRefusedError } from '../../src/plan/refusal.js';
import { createsViews } from '../../src/kinds/view-identity.js';
import { touchedViews } from '../../src/kinds/views-after-plan.js';
import { emptyMemory, type SweepMemory } from '../../src/state/sweep-memory.js';
import { pinsKey, type Desired, type Live } from '../../src/state/types.js';
import { viewTarget } from '../../src/domain/targets.js';
import { warningText } from '../../src/render/warning-lines.js';
import { RECORDING_DEFAULTS, at, declared, emptyDesired, emptyLive, pinsOf, user, view } from '../plan/fixtures.js';

/**
 * A declared view deleted in the app (README, "A declared view deleted in the app"):
 * the sweep memory tells a bound id that was live and public from a typo or a private
 * view. Built by hand here; the ledger file is not needed.
 */

const LAST_SEEN = '2026-11-20T03:00:00.000Z';

/** memorySaw is a memory that saw each `[id, name]` live and public in recordings. */
function memorySaw(...views: [string, string][]): SweepMemory {
  const memory = emptyMemory();
  for (const [id, name] of views)
    memory.views[viewTarget('recordings', id)] = { domain: 'recordings', id, name, lastSeen: LAST_SEEN };
  return memory;
}

/** scenario: "Coaching" bound to rv_gone, which is no longer listed; Mia pins it by name, Max by its old id. */
function scenario(): { desired: Desired; live: Live } {
  const desired = emptyDesired();
  desired.views = [
    declared(
      'recordings',
      'Coaching',
      { icon: 'mortar_board', filters: { sourceIn: ['Zoom'] } },
      { viewId: 'rv_gone', viewIdSource: at('views/coaching.yaml', 3, 9) },
    ),
    declared('recordings', 'Calls', {}, { viewId: 'rv_1' }),
  ];
  desired.pins = [
    pinsOf('mia@acme.com', 'recordings', [{ name: 'Coaching' }, { name: 'Calls' }]),
    pinsOf('max@acme.com', 'recordings', [{ viewId: 'rv_gone' }]),
  ];
  const live = emptyLive();
  live.views.recordings = [view('rv_1', 'Calls'), ...RECORDING_DEFAULTS];
  // The service unpinned the deleted view everywhere.
  live.pins[pinsKey('recordings', 'mia@acme.com')] = [view('rv_1', 'Calls')];
  live.pins[pinsKey('recordings', 'max@acme.com')] = [...RECORDING_DEFAULTS];
  return { desired, live };
}

describe('a declared view deleted in the app', () => {
  it('is created again, labelled outside, when the memory saw its id live and public; the lists naming it are planned against it', () => {
    const { desired, live } = scenario();
    const { plan } = computePlan(desired, live, { memory: memorySaw(['rv_gone', 'Coaching']) });
    expect(plan.held).toBeUndefined();
    const create = plan.changes.find((change) => change.action === 'create');
    expect(create).toMatchObject({
      action: 'create',
      target: 'view:recordings:name:Coaching',
      name: 'Coaching',
      origin: 'outside',
      deletedOutside: { id: 'rv_gone', lastSeen: LAST_SEEN },
      after: { name: 'Coaching', icon: 'mortar_board', filters: { sourceIn: ['Zoom'] } },
    });
    expect(plan.creatorEmail).toBe('ops@acme.com');
    // By name and by the old id, the tabs name the view the plan creates.
    const pins = plan.changes.filter((change) => change.action === 'pin');
    expect(
      pins.map((change) => [change.userEmail, change.after.map((tab) => tab.viewId ?? `new:${tab.name}`)]),
    ).toEqual([
      ['max@acme.com', ['new:Coaching']],
      ['mia@acme.com', ['new:Coaching', 'rv_1']],
    ]);
    // Apply's steps fill the new id into both lists once the create answers.
    expect(plan.steps.filter((step) => step.newViewTabs !== undefined)).toHaveLength(2);
    // Max's `{viewId}` entry is told to name the view, which holds when the id changes.
    expect(plan.warnings.map((warning) => [warning.code, warning.source])).toEqual([
      ['pins.id-replaced', desired.pins[1]?.refSources[0]],
    ]);
    expect(plan.warnings[0]?.message).toBe(
      'rv_gone in the recordings tabs of max@acme.com was deleted in the app: it stands for "Coaching" (which this plan creates again), the view that replaced it; name it `Coaching` instead, so the entry holds when the id changes',
    );
  });

  it('keeps its own origin in a --base plan, whatever REF asked', () => {
    const { desired, live } = scenario();
    const { plan } = computePlan(desired, live, {
      memory: memorySaw(['rv_gone', 'Coaching']),
      origin: () => 'unapplied-or-outside',
    });
    expect(plan.changes.map((change) => [change.action, change.origin])).toEqual([
      ['create', 'outside'],
      ['pin', 'unapplied-or-outside'],
      ['pin', 'unapplied-or-outside'],
    ]);
  });

  it('is held exactly as before without a memory, or with a memory that never saw the id', () => {
    for (const memory of [undefined, memorySaw(['rv_other', 'Coaching'])]) {
      const { desired, live } = scenario();
      const { plan } = computePlan(desired, live, memory === undefined ? {} : { memory });
      expect(plan.changes.some((change) => change.action === 'create')).toBe(false);
      expect(plan.held?.map((held) => [held.target, held.code])).toEqual([
        ['pins:recordings:max@acme.com', 'pins.names-held-view'],
        ['pins:recordings:mia@acme.com', 'pins.names-held-view'],
        ['view:recordings:id:rv_gone', 'view.id-not-found'],
      ]);
    }
  });

  it('is held by a creatorEmail who left, with the lists naming it by name or by its old id', () => {
    const { desired, live } = scenario();
    live.users = [
      user('u_ops', 'ops@acme.com', 'Deactivated'),
      user('u_mia', 'mia@acme.com'),
      user('u_max', 'max@acme.com'),
    ];
    const { plan } = computePlan(desired, live, { memory: memorySaw(['rv_gone', 'Coaching']) });
    expect(plan.changes).toEqual([]);
    expect(plan.held?.map((held) => [held.target, held.code])).toEqual([
      ['pins:recordings:max@acme.com', 'pins.names-held-view'],
      ['pins:recordings:mia@acme.com', 'pins.names-held-view'],
      ['view:recordings:name:Coaching', 'workspace.creator-inactive'],
    ]);
  });

  it('tells the reader to read the users (to check creatorEmail) only with the memory', () => {
    const { desired, live } = scenario();
    expect(createsViews(desired, live.views)).toBe(false);
    expect(createsViews(desired, live.views, memorySaw(['rv_gone', 'Coaching']))).toBe(true);
  });

  it('after apply, resolves by name to the one live public view that replaced it, in sync, with a warning naming the fix', () => {
    const { desired, live } = scenario();
    const again = view('rv_new', 'Coaching', { icon: 'mortar_board', filters: { sourceIn: ['Zoom'] } });
    live.views.recordings = [view('rv_1', 'Calls'), again, ...RECORDING_DEFAULTS];
    live.pins[pinsKey('recordings', 'mia@acme.com')] = [again, view('rv_1', 'Calls')];
    live.pins[pinsKey('recordings', 'max@acme.com')] = [again];
    const { plan } = computePlan(desired, live, { memory: memorySaw(['rv_gone', 'Coaching'], ['rv_new', 'Coaching']) });
    expect(plan.changes).toEqual([]);
    expect(plan.held).toBeUndefined();
    expect(plan.warnings.map((warning) => warning.code)).toEqual(['view.id-replaced', 'pins.id-replaced']);
    expect(warningText(plan.warnings[0] ?? { code: '', message: '' })).toBe(
      'views/coaching.yaml:3:9: RecordingView "Coaching" binds to rv_gone, which was deleted in the app; it resolves by name to rv_new, ' +
        'the view that replaced it: set `viewId: rv_new` in views/coaching.yaml, or `viewctl pull --target RecordingView/Coaching` rewrites it',
    );
  });

  it('resolves a `{viewId}` tab by the name the memory saw once the manifest names the new id, and leaves it out without memory', () => {
    const { desired, live } = scenario();
    desired.views = [
      declared(
        'recordings',
        'Coaching',
        { icon: 'mortar_board', filters: { sourceIn: ['Zoom'] } },
        { viewId: 'rv_new' },
      ),
      declared('recordings', 'Calls', {}, { viewId: 'rv_1' }),
    ];
    const again = view('rv_new', 'Coaching', { icon: 'mortar_board', filters: { sourceIn: ['Zoom'] } });
    live.views.recordings = [view('rv_1', 'Calls'), again, ...RECORDING_DEFAULTS];
    live.pins[pinsKey('recordings', 'mia@acme.com')] = [again, view('rv_1', 'Calls')];
    live.pins[pinsKey('recordings', 'max@acme.com')] = [again];
    const remembered = computePlan(desired, live, {
      memory: memorySaw(['rv_gone', 'Coaching'], ['rv_new', 'Coaching']),
    }).plan;
    expect(remembered.changes).toEqual([]);
    expect(remembered.warnings.map((warning) => warning.code)).toEqual(['pins.id-replaced']);
    expect(remembered.warnings[0]?.message).toContain('it stands for "Coaching" (rv_new)');
    // Without the memory the id means nothing live: the entry is left out, as a tab the member no longer pins.
    const blind = computePlan(desired, live).plan;
    expect(blind.warnings.map((warning) => warning.code)).toEqual(['pins.left-out', 'pins.nothing-to-pin']);
  });

  it('never prunes the view that may have replaced it when a plan without the memory holds the manifest', () => {
    const { desired, live } = scenario();
    desired.workspace.prune = true;
    desired.pins = [];
    live.views.recordings = [
      view('rv_1', 'Calls'),
      view('rv_new', 'Coaching'),
      view('rv_9', 'Scratch'),
      ...RECORDING_DEFAULTS,
    ];
    const blind = computePlan(desired, live).plan;
    expect(blind.changes.map((change) => [change.action, change.target])).toEqual([
      ['delete', 'view:recordings:id:rv_9'],
    ]);
    expect(blind.held?.map((held) => [held.target, held.code])).toEqual([
      ['view:recordings:id:rv_gone', 'view.id-not-found'],
      ['view:recordings:id:rv_new', 'prune.names-held-view'],
    ]);
    expect(blind.held?.[1]?.wayOut).toContain('set `viewId: rv_new` in that manifest');
    // With the memory it is the manifest's view, bound by name: neither held nor pruned.
    const seen = computePlan(desired, live, { memory: memorySaw(['rv_gone', 'Coaching']) }).plan;
    expect(seen.held).toBeUndefined();
    expect(seen.changes.map((change) => [change.action, change.target])).toEqual([
      ['update', 'view:recordings:id:rv_new'],
      ['delete', 'view:recordings:id:rv_9'],
    ]);
  });

  it('updates the replacement to the manifest when it differs, as any view bound by name', () => {
    const { desired, live } = scenario();
    live.views.recordings = [view('rv_1', 'Calls'), view('rv_new', 'Coaching'), ...RECORDING_DEFAULTS];
    const { plan } = computePlan(desired, live, { memory: memorySaw(['rv_gone', 'Coaching']) });
    expect(
      plan.changes.filter((change) => change.action !== 'pin').map((change) => [change.action, change.target]),
    ).toEqual([['update', 'view:recordings:id:rv_new']]);
  });

  it('refuses two live public views of its name with the ambiguity rule', () => {
    const { desired, live } = scenario();
    live.views.recordings = [
      view('rv_1', 'Calls'),
      view('rv_a', 'Coaching'),
      view('rv_b', 'Coaching'),
      ...RECORDING_DEFAULTS,
    ];
    let refused: PlanRefusedError | undefined;
    try {
      computePlan(desired, live, { memory: memorySaw(['rv_gone', 'Coaching']) });
    } catch (error) {
      if (error instanceof PlanRefusedError) refused = error;
    }
    expect(refused?.reasons.map((reason) => reason.code)).toEqual(['view.ambiguous-name']);
    expect(refused?.reasons[0]?.message).toContain('the manifest binds rv_gone, which was deleted in the app');
    expect(refused?.reasons[0]?.wayOut).toContain('set `viewId: rv_a` in the manifest');
  });

  it('makes a scoped plan read the lists naming its old id', () => {
    const { desired, live } = scenario();
    const { plan } = computePlan({ ...desired, pins: [] }, live, { memory: memorySaw(['rv_gone', 'Coaching']) });
    const touched = touchedViews(plan.changes);
    expect([...touched.names]).toEqual(['recordings:Coaching']);
    expect([...touched.ids]).toEqual(['recordings:rv_gone']);
  });
});
