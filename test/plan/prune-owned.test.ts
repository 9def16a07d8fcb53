import { describe, expect, it } from 'vitest';
import { computePlan } from '../../src/plan/diff.js';
import { prunesViews } from '../../src/kinds/view-prune.js';
import type { Desired, Live } from '../../src/state/types.js';
import { DEAL_DEFAULTS, declared, emptyDesired, emptyLive, view } from './fixtures.js';

/** `prune: owned` deletes only undeclared views owned by creatorEmail; `prune: true` every undeclared one. */

function scenario(
  prune: Desired['workspace']['prune'],
  creatorEmail = 'ops@acme.com',
): { desired: Desired; live: Live } {
  const live = emptyLive();
  live.views.deals = [
    view('dv_1', 'Pipeline review'),
    view('dv_ops', 'Old ops board', { ownerId: 'u_ops' }),
    view('dv_mia', "Mia's board", { ownerId: 'u_mia' }),
    ...DEAL_DEFAULTS,
  ];
  const desired = emptyDesired({ prune, creatorEmail });
  desired.views = [declared('deals', 'Pipeline review')];
  return { desired, live };
}

const deleted = ({ desired, live }: { desired: Desired; live: Live }): string[] =>
  computePlan(desired, live).plan.changes.flatMap((change) =>
    change.action === 'delete' ? [`${change.id} ${change.ownerEmail ?? '?'}`] : [],
  );

describe('prune: owned', () => {
  it('deletes the undeclared views creatorEmail owns and leaves those people made in the app', () => {
    expect(deleted(scenario('owned'))).toEqual(['dv_ops ops@acme.com']);
  });

  it('leaves prune: true as it was: every undeclared public saved view, owners named by email', () => {
    expect(deleted(scenario(true))).toEqual(['dv_mia mia@acme.com', 'dv_ops ops@acme.com']);
  });

  it('deletes nothing, and says why, when creatorEmail is not a member', () => {
    const run = scenario('owned', 'gone@acme.com');
    const { plan } = computePlan(run.desired, run.live);
    expect(plan.summary.delete).toBe(0);
    expect(plan.warnings).toEqual([
      {
        code: 'prune.creator-owns-nothing',
        message: expect.stringContaining('creatorEmail gone@acme.com is not a member'),
      },
    ]);
  });

  it('asks for the users exactly when prune has a candidate (under owned, even one ignore keeps)', () => {
    const { desired, live } = scenario('owned');
    expect(prunesViews(desired, live.views)).toBe(true);
    expect(prunesViews({ ...desired, workspace: { ...desired.workspace, prune: false } }, live.views)).toBe(false);
    const ignoring = { ...desired.workspace, ignore: ['Old *', "Mia's *"] };
    expect(prunesViews({ ...desired, workspace: { ...ignoring, prune: true } }, live.views)).toBe(false);
    expect(prunesViews({ ...desired, workspace: ignoring }, live.views)).toBe(true);
    const allDeclared = {
      ...desired,
      views: [...desired.views, declared('deals', 'Old ops board'), declared('deals', "Mia's board")],
    };
    expect(prunesViews(allDeclared, live.views)).toBe(false);
  });
});
