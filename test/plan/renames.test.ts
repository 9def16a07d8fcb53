import { describe, expect, it } from 'vitest';
import { computePlan } from '../../src/plan/diff.js';
import { PlanRefusedError } from '../../src/plan/refusal.js';
import type { Desired, Live } from '../../src/state/types.js';
import { RECORDING_DEFAULTS, declared, emptyDesired, emptyLive, view } from './fixtures.js';

function reasons(desired: Desired, live: Live): PlanRefusedError['reasons'] {
  try {
    computePlan(desired, live);
  } catch (error) {
    if (error instanceof PlanRefusedError) return error.reasons;
    throw error;
  }
  return [];
}

function scenario(...renames: [id: string, name: string][]): { desired: Desired; live: Live } {
  const live = emptyLive();
  live.views.recordings = [view('rv_1', 'Calls'), view('rv_2', 'Demos'), view('rv_3', 'Team'), ...RECORDING_DEFAULTS];
  const desired = emptyDesired();
  desired.views = renames.map(([viewId, name]) =>
    declared('recordings', name, {}, { viewId, source: { file: `views/${viewId}.yaml`, line: 2, column: 7 } }),
  );
  return { desired, live };
}

describe('renames obey the name rules for the name after the change', () => {
  it('refuses renaming a saved view to a default view name, with position, ids and way out', () => {
    const { desired, live } = scenario(['rv_1', 'All recordings']);
    expect(reasons(desired, live)).toEqual([
      {
        code: 'view.default-name',
        message:
          'RecordingView "Calls" (rv_1) is renamed to "All recordings", the name of the built-in default view rv_all; pinned lists would resolve that name to it',
        wayOut: 'give the view a name no default view has',
        source: { file: 'views/rv_1.yaml', line: 2, column: 7 },
        ids: ['rv_1', 'rv_all'],
      },
    ]);
  });

  it('refuses renaming to the name another live public view keeps', () => {
    const { desired, live } = scenario(['rv_1', 'Demos']);
    const [reason] = reasons(desired, live);
    expect(reason).toMatchObject({
      code: 'view.ambiguous-name',
      ids: ['rv_1', 'rv_2'],
      source: { file: 'views/rv_1.yaml' },
    });
    expect(reason?.wayOut).toContain('rename or delete rv_2');
  });

  it('refuses two manifests renaming into one name, each at its position', () => {
    const { desired, live } = scenario(['rv_1', 'Shared'], ['rv_2', 'Shared']);
    expect(reasons(desired, live).map((reason) => [reason.code, reason.source?.file, reason.ids])).toEqual([
      ['view.ambiguous-name', 'views/rv_1.yaml', ['rv_1', 'rv_2']],
      ['view.ambiguous-name', 'views/rv_2.yaml', ['rv_2', 'rv_1']],
    ]);
  });

  it('allows swapping names, renaming into a name the plan frees, and keeping an existing shared name', () => {
    expect(reasons(...(Object.values(scenario(['rv_1', 'Demos'], ['rv_2', 'Calls'])) as [Desired, Live]))).toEqual([]);
    const pruned = scenario(['rv_1', 'Team']);
    pruned.desired.workspace.prune = true;
    pruned.desired.views.push(declared('recordings', 'Demos'));
    expect(
      computePlan(pruned.desired, pruned.live).plan.changes.map((change) => `${change.action}:${change.name}`),
    ).toEqual(['update:Team', 'delete:Team']);
    const shared = scenario(['rv_1', 'Same'], ['rv_2', 'Same']);
    shared.live.views.recordings = [view('rv_1', 'Same'), view('rv_2', 'Same'), ...RECORDING_DEFAULTS];
    expect(reasons(shared.desired, shared.live)).toEqual([]);
  });
});
