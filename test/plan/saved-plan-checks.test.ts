import { describe, expect, it } from 'vitest';
import { computePlan } from '../../src/plan/diff.js';
import { identityProblems, liveRuleProblems } from '../../src/plan/saved-plan-checks.js';
import type { Change, Plan } from '../../src/plan/types.js';
import type { Live } from '../../src/state/types.js';
import {
  RECORDING_DEFAULTS,
  declared,
  emptyDesired,
  emptyLive,
  largeScenario,
  mixedScenario,
  privateView,
  view,
} from './fixtures.js';

describe('saved-plan checks accept every plan viewctl writes', () => {
  it.each([
    ['mixed', mixedScenario],
    ['large', () => largeScenario(200)],
  ])('%s scenario: no identity or rule problem', (_name, scenario) => {
    const { desired, live } = scenario();
    const { plan } = computePlan(desired, live);
    expect(identityProblems(plan)).toEqual([]);
    expect(liveRuleProblems(plan, live)).toEqual([]);
    // The same plan with a change pointed elsewhere is caught at once.
    const moved = structuredClone(plan);
    const update = moved.changes.find((change) => change.action === 'update' || change.action === 'delete');
    if (update?.action === 'update' || update?.action === 'delete') update.id = 'rv_elsewhere';
    expect(identityProblems(moved)).toHaveLength(1);
  });

  it('a create of a name a rename frees in the same plan, and name swaps', () => {
    const live = emptyLive();
    live.views.recordings = [view('rv_1', 'Calls'), view('rv_2', 'Demos'), ...RECORDING_DEFAULTS];
    const desired = emptyDesired();
    desired.views = [
      declared('recordings', 'Demos', {}, { viewId: 'rv_1' }),
      declared('recordings', 'Calls', {}, { viewId: 'rv_2' }),
    ];
    const swap = computePlan(desired, live).plan;
    expect(liveRuleProblems(swap, live)).toEqual([]);
    desired.views = [declared('recordings', 'New calls', {}, { viewId: 'rv_1' }), declared('recordings', 'Calls')];
    const freed = computePlan(desired, live).plan;
    expect(freed.changes.map((change) => change.action)).toEqual(['create', 'update']);
    expect(liveRuleProblems(freed, live)).toEqual([]);
  });
});

/**
 * A saved plan file can be edited and its digest recomputed (README: the digest is no
 * signature), so `apply --plan` re-checks each change against the live state it re-read.
 * Each test below edits one field of a plan viewctl wrote, or the live state, and
 * expects exactly the refusal that names it.
 */
describe('saved-plan checks refuse an edited plan or a changed workspace', () => {
  /** The mixed scenario's plan: changes[0] create "Team calls", [1] update rv_1, [2] delete dv_9, [3] pin mia recordings, [4] drift. */
  function mixedPlan(): { plan: Plan; live: Live } {
    const { desired, live } = mixedScenario();
    return { plan: structuredClone(computePlan(desired, live).plan), live };
  }
  const change = <A extends Change['action']>(plan: Plan, index: number, action: A): Extract<Change, { action: A }> => {
    const found = plan.changes[index];
    if (found?.action !== action) throw new Error(`changes[${index}] is no ${action}`);
    return found as Extract<Change, { action: A }>;
  };

  it('refuses two changes of one target', () => {
    const { plan } = mixedPlan();
    plan.changes.push(structuredClone(change(plan, 1, 'update')));
    expect(identityProblems(plan)).toEqual([
      'changes[5] update RecordingView "Zoom and Meet calls": changes the same target as changes[1]',
    ]);
  });

  it('refuses a create whose name a public or default view has after apply, since plan would bind or refuse', () => {
    const { plan, live } = mixedPlan();
    live.views.recordings = [...(live.views.recordings ?? []), view('rv_new', 'Team calls')];
    expect(liveRuleProblems(plan, live)).toEqual([
      expect.stringMatching(/^changes\[0\] create RecordingView "Team calls": the name is taken by rv_new after apply/),
    ]);
    change(plan, 0, 'create').after.name = 'My recordings';
    expect(liveRuleProblems(plan, mixedPlan().live)).toEqual([expect.stringContaining('the name is taken by rv_mine')]);
  });

  it('does not count a public view the plan deletes as taking the name of a create', () => {
    const { plan, live } = mixedPlan();
    live.views.deals = [...(live.views.deals ?? [])];
    const create = change(plan, 0, 'create');
    plan.changes[0] = {
      ...create,
      target: 'view:deals:name:Old pipeline',
      kind: 'DealView',
      domain: 'deals',
      name: 'Old pipeline',
      after: { ...create.after, name: 'Old pipeline' },
    };
    // changes[2] deletes dv_9 "Old pipeline": the name is free after apply.
    expect(liveRuleProblems(plan, live)).toEqual([]);
  });

  it('refuses a delete whose owner is not the owner of the view', () => {
    const { plan, live } = mixedPlan();
    change(plan, 2, 'delete').ownerId = 'u_ops';
    expect(liveRuleProblems(plan, live)).toEqual([
      'changes[2] delete DealView "Old pipeline": names owner u_ops, but dv_9 belongs to u_max',
    ]);
  });

  it("refuses a rename into a name another public view has after apply, with the plan's refusal code", () => {
    const { plan, live } = mixedPlan();
    live.views.recordings = [...(live.views.recordings ?? []), view('rv_5', 'Renamed')];
    const update = change(plan, 1, 'update');
    update.after.name = 'Renamed';
    const pin = change(plan, 3, 'pin');
    pin.after = pin.after.map((tab) => (tab.viewId === 'rv_1' ? { ...tab, name: 'Renamed' } : tab));
    expect(liveRuleProblems(plan, live)).toEqual([expect.stringMatching(/^\[view\.ambiguous-name\] .*rv_5/)]);
  });

  it('refuses a pinned list it did not re-read', () => {
    const { plan, live } = mixedPlan();
    live.pins = {};
    expect(liveRuleProblems(plan, live)).toEqual([
      'changes[3] pin PinnedViews "mia@acme.com": the pinned list of mia@acme.com was not read',
    ]);
  });

  it('refuses a pinned list whose before is not the live list', () => {
    const { plan, live } = mixedPlan();
    const pin = change(plan, 3, 'pin');
    pin.before = [...pin.before].reverse();
    expect(liveRuleProblems(plan, live)).toEqual([
      'changes[3] pin PinnedViews "mia@acme.com": its before is not the live pinned list',
    ]);
  });

  it('refuses a tab of a view the member does not pin and the key cannot see as public or default', () => {
    const { plan, live } = mixedPlan();
    live.views.recordings = [...(live.views.recordings ?? []), privateView('rv_secret', 'Secret', 'u_max')];
    const pin = change(plan, 3, 'pin');
    pin.after = [...pin.after, { viewId: 'rv_secret', name: 'Secret', visibility: 'Private', isDefault: false }];
    expect(liveRuleProblems(plan, live)).toEqual([
      'changes[3] pin PinnedViews "mia@acme.com": pins rv_secret, which is neither pinned by mia@acme.com today nor a public or default view',
    ]);
  });

  it('refuses a tab shown under another name, visibility or default flag than its view has', () => {
    for (const edit of [{ name: 'Other' }, { visibility: 'Private' as const }, { isDefault: true }]) {
      const { plan, live } = mixedPlan();
      const pin = change(plan, 3, 'pin');
      pin.after = pin.after.map((tab) => (tab.viewId === 'rv_1' ? { ...tab, ...edit } : tab));
      expect(liveRuleProblems(plan, live)).toEqual([expect.stringContaining('shows the tab rv_1 as')]);
    }
  });

  it('refuses an update or a delete of a view the key cannot see as public (private, deleted or unknown)', () => {
    const { plan, live } = mixedPlan();
    live.views.recordings = (live.views.recordings ?? []).map((entry) =>
      entry.viewId === 'rv_1' ? { ...entry, visibility: 'Private' as const } : entry,
    );
    live.views.deals = (live.views.deals ?? []).filter((entry) => entry.viewId !== 'dv_9');
    expect(liveRuleProblems(plan, live)).toEqual([
      'changes[1] update RecordingView "Zoom and Meet calls": rv_1 is not a public view the key can see (private, deleted or unknown); only public saved views are updated',
      'changes[2] delete DealView "Old pipeline": dv_9 is not a public view the key can see (private, deleted or unknown); only public saved views are deleted',
    ]);
  });

  it('refuses an update or a delete aimed at a built-in default view', () => {
    const { plan, live } = mixedPlan();
    change(plan, 1, 'update').id = 'rv_all';
    change(plan, 2, 'delete').id = 'dv_all';
    expect(liveRuleProblems(plan, live)).toEqual([
      'changes[1] update RecordingView "Zoom and Meet calls": rv_all is a built-in default view, which is never updated',
      'changes[2] delete DealView "Old pipeline": dv_all is a built-in default view, which is never deleted',
    ]);
  });

  it('refuses an update whose before is not the live state of its view', () => {
    const { plan, live } = mixedPlan();
    live.views.recordings = [view('rv_1', 'Zoom and Meet calls'), ...RECORDING_DEFAULTS];
    expect(liveRuleProblems(plan, live)).toEqual([
      'changes[1] update RecordingView "Zoom and Meet calls": its before is not the live state of rv_1',
    ]);
  });

  it('refuses a list that drops a private view the member pins today, unless it says unpinPrivate', () => {
    const { plan, live } = mixedPlan();
    const pin = change(plan, 3, 'pin');
    pin.after = pin.after.filter((tab) => tab.viewId !== 'rv_private_7');
    expect(liveRuleProblems(plan, live)).toEqual([
      'changes[3] pin PinnedViews "mia@acme.com": drops the private view rv_private_7 the member pins today, which only `unpinPrivate: true` allows',
    ]);
    pin.unpinPrivate = true;
    expect(liveRuleProblems(plan, live)).toEqual([]);
  });

  it('refuses a tab of a view the plan deletes', () => {
    const { plan, live } = mixedPlan();
    const update = change(plan, 1, 'update');
    plan.changes.push({
      action: 'delete',
      target: 'view:recordings:id:rv_1',
      kind: 'RecordingView',
      name: update.before.name,
      domain: 'recordings',
      id: 'rv_1',
      before: update.before,
      after: null,
      reason: 'prune',
      ownerId: 'u_ops',
      pinnedBy: [],
    });
    expect(liveRuleProblems(plan, live)).toEqual([
      'changes[3] pin PinnedViews "mia@acme.com": pins rv_1, which the plan deletes',
    ]);
  });

  it('refuses the creates of a plan whose creatorEmail is no longer an active member, when the users were re-read', () => {
    const { plan, live } = mixedPlan();
    live.users = (live.users ?? []).map((entry) =>
      entry.email === 'ops@acme.com' ? { ...entry, state: 'Deactivated' as const } : entry,
    );
    expect(liveRuleProblems(plan, live)).toEqual([
      'creatorEmail ops@acme.com is not an active member; the service would refuse every create',
    ]);
    delete live.users;
    expect(liveRuleProblems(plan, live)).toEqual([]);
  });
});
