import { describe, expect, it } from 'vitest';
import { computePlan } from '../../src/plan/diff.js';
import { emptyDesired, emptyLive } from './fixtures.js';

describe('the workspace guard warning', () => {
  it('warns when no Workspace document was planned, and only then', () => {
    const live = emptyLive();
    const guarded = emptyDesired();
    expect(computePlan(guarded, live).plan.warnings).toEqual([]);
    const { source: _, ...unguarded } = guarded.workspace;
    expect(computePlan({ ...guarded, workspace: unguarded }, live).plan.warnings).toEqual([
      {
        code: 'workspace.guard-off',
        message: expect.stringMatching(
          /^no Workspace document among the manifests planned: the workspace guard is off/,
        ),
      },
    ]);
  });
});
