import { describe, expect, it } from 'vitest';
import { savedPlanState } from '../../src/apply/gates.js';
import { identityProblems, liveRuleProblems } from '../../src/plan/saved-plan-checks.js';
import { toDesired } from '../../src/manifest/desired.js';
import { loadManifests } from '../../src/manifest/load.js';
import { memoryManifestSource } from '../../src/manifest/source.js';
import { computePlan } from '../../src/plan/diff.js';
import { renderPlan } from '../../src/render/render-plan.js';
import type { UpdateChange } from '../../src/kinds/changes.js';
import { declared, emptyDesired, emptyLive, view } from '../plan/fixtures.js';

/**
 * Attributes the app owns (README, Manifests: `appOwns`): written on create, then
 * never compared, never part of the stale check, and said once in the plan.
 */

const NARROW = [{ type: 'Default', columnId: 'title', width: 120 }];
const WIDE = [{ type: 'Default', columnId: 'title', width: 300 }];

async function desiredOf(files: Record<string, string>) {
  const result = await loadManifests(['.'], memoryManifestSource(files));
  expect(result.problems).toEqual([]);
  return toDesired(result.documents);
}

/** A live view a member widened in the app, and its manifest asking for a narrow title and a new icon. */
function widened(appOwns?: ('columns' | 'icon')[]) {
  const desired = emptyDesired();
  desired.views.push(
    declared('recordings', 'Calls', { columns: NARROW, icon: 'phone' }, appOwns === undefined ? {} : { appOwns }),
  );
  const live = emptyLive();
  live.views.recordings?.unshift(view('rv_1', 'Calls', { columns: WIDE }));
  return { desired, live };
}

describe('appOwns', () => {
  it("a view's own list replaces the Workspace's default; none without either", async () => {
    const desired = await desiredOf({
      'workspace.yaml': 'kind: Workspace\nappOwns: [sort, columns]\n',
      'a.yaml': 'kind: RecordingView\nname: A\n',
      'b.yaml': 'kind: RecordingView\nname: B\nappOwns: [icon]\n',
      'c.yaml': 'kind: RecordingView\nname: C\nappOwns: []\n',
    });
    expect(desired.views.map((entry) => [entry.name, entry.appOwns])).toEqual([
      ['A', ['columns', 'sort']],
      ['B', ['icon']],
      ['C', undefined],
    ]);
    const plain = await desiredOf({ 'a.yaml': 'kind: RecordingView\nname: A\n' });
    expect(plain.views[0]?.appOwns).toBeUndefined();
  });

  it('never diffs an app-owned attribute of a live view, and the update leaves it as it is', () => {
    const managed = computePlan(widened().desired, widened().live).plan;
    expect(managed.changes).toHaveLength(1);
    expect((managed.changes[0] as UpdateChange).patch.map((operation) => operation.path)).toEqual([
      '/columns/0/width',
      '/icon',
    ]);
    const { desired, live } = widened(['columns']);
    const { plan } = computePlan(desired, live);
    const update = plan.changes[0] as UpdateChange;
    expect(update.patch).toEqual([{ op: 'add', path: '/icon', value: 'phone' }]);
    expect(update.after.columns).toEqual(WIDE);
    expect(update.appOwns).toEqual(['columns']);
    // With the icon left to the app too, nothing is left to do.
    expect(computePlan(widened(['columns', 'icon']).desired, widened().live).plan.changes).toEqual([]);
  });

  it("writes an app-owned attribute when it creates the view: the manifest's value is the first one", () => {
    const desired = emptyDesired();
    desired.views.push(declared('recordings', 'Calls', { columns: NARROW }, { appOwns: ['columns'] }));
    const { plan } = computePlan(desired, emptyLive());
    expect(plan.changes[0]).toMatchObject({ action: 'create', after: { columns: NARROW } });
  });

  it('a member widening an app-owned column between plan and apply makes the plan neither stale nor wrong', () => {
    const { desired, live } = widened(['columns']);
    const { plan } = computePlan(desired, live);
    const later = structuredClone(live);
    const calls = later.views.recordings?.find((entry) => entry.viewId === 'rv_1');
    if (calls === undefined) throw new Error('no rv_1');
    calls.columns = [{ type: 'Default', columnId: 'title', width: 480 }];
    expect(savedPlanState(plan, later).stale).toEqual([]);
    expect(liveRuleProblems(plan, later)).toEqual([]);
    // A managed attribute changed in the app still does.
    calls.filters = { titleIn: ['x'] };
    expect(savedPlanState(plan, later).stale).toEqual(['view:recordings:id:rv_1']);
  });

  it('the plan says once which attributes were left to the app, in the JSON, text and markdown', () => {
    const desired = emptyDesired();
    desired.views.push(
      declared('recordings', 'Calls', {}, { appOwns: ['columns', 'sort'] }),
      declared('recordings', 'Demos', {}, { appOwns: ['columns'] }),
    );
    const live = emptyLive();
    live.views.recordings?.unshift(view('rv_1', 'Calls'), view('rv_2', 'Demos'));
    const { plan } = computePlan(desired, live);
    expect(plan.appOwns).toEqual([
      { attribute: 'columns', views: 2 },
      { attribute: 'sort', views: 1 },
    ]);
    const line = 'Left to the app (appOwns): columns of 2 views, sort of 1 view; never compared, repaired or pulled.';
    expect(renderPlan(plan, 'text', { color: false }).split(line)).toHaveLength(2);
    expect(renderPlan(plan, 'markdown', { color: false })).toContain(
      '*Left to the app (appOwns): columns of 2 views, sort of 1 view; never compared, repaired or pulled.*',
    );
    expect(computePlan(emptyDesired(), emptyLive()).plan.appOwns).toBeUndefined();
  });
});

describe('a saved plan that writes what it leaves to the app', () => {
  it('is refused by the identity checks', () => {
    const { desired, live } = widened(['columns']);
    const { plan } = computePlan(desired, live);
    expect(identityProblems(plan)).toEqual([]);
    const update = plan.changes[0] as UpdateChange;
    const forged = { ...update, after: { ...update.after, columns: NARROW } };
    forged.patch = [...update.patch, { op: 'replace', path: '/columns/0/width', value: 120 }];
    expect(identityProblems({ ...plan, changes: [forged] })).toContain(
      'changes[0] update RecordingView "Calls": its patch writes columns, which it leaves to the app',
    );
  });
});
