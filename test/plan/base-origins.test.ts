import { describe, expect, it } from 'vitest';
import type { Desired } from '../../src/domain/desired.js';
import { planWorkspace } from '../../src/flows/plan-workspace.js';
import type { Live } from '../../src/state/types.js';
import { pinsKey } from '../../src/state/types.js';
import { declared, emptyDesired, emptyLive, pinsOf, view } from './fixtures.js';
import { liveClient } from './live-client.js';

/**
 * What a `--base REF` plan labels, through planWorkspace: the pull request's own change
 * is never labelled as made outside viewctl, whichever route it takes (a deletion that
 * only `creatorEmail` decides, a name given to another view), and what REF asked too is
 * labelled with the hedge while nothing says REF was applied.
 */

async function originsOf(now: Desired, base: Desired, live: Live): Promise<string[][]> {
  const { client } = liveClient(live);
  const { plan } = await planWorkspace(now, client, {
    scope: { base: { ref: 'origin/main', commit: 'a'.repeat(40), desired: base } },
  });
  return plan.changes.map((change) => [change.action, change.name, change.origin ?? 'own']);
}

describe('--base origins through planWorkspace', () => {
  it("prune: owned, the pull request changing only creatorEmail to the owner of an undeclared view: its deletion is the pull request's own", async () => {
    const live = emptyLive();
    live.views.deals = [
      view('dv_1', 'Pipeline'),
      view('dv_9', "Max's board", { ownerId: 'u_max' }),
      ...(live.views.deals ?? []),
    ];
    const base = emptyDesired({ prune: 'owned', creatorEmail: 'ops@acme.com' });
    base.views = [declared('deals', 'Pipeline')];
    const now: Desired = { ...base, workspace: { ...base.workspace, creatorEmail: 'max@acme.com' } };
    expect(await originsOf(now, base, live)).toEqual([['delete', "Max's board", 'own']]);
  });

  it("a pull request renaming a view and giving its old name to a new view: the unchanged pins document now means the new view, the pull request's own", async () => {
    const live = emptyLive();
    live.views.recordings = [view('rv_1', 'Calls'), ...(live.views.recordings ?? [])];
    live.pins = { [pinsKey('recordings', 'mia@acme.com')]: [view('rv_1', 'Calls')] };
    const pins = [pinsOf('mia@acme.com', 'recordings', [{ name: 'Calls' }])];
    const now: Desired = {
      ...emptyDesired(),
      views: [declared('recordings', 'Old calls', {}, { viewId: 'rv_1' }), declared('recordings', 'Calls')],
      pins,
    };
    // At REF the name was bound by id, or by name alone: either way it meant rv_1.
    for (const atBase of [declared('recordings', 'Calls', {}, { viewId: 'rv_1' }), declared('recordings', 'Calls')]) {
      const base: Desired = { ...emptyDesired(), views: [atBase], pins };
      expect(await originsOf(now, base, live)).toEqual([
        ['create', 'Calls', 'own'],
        ['update', 'Old calls', 'own'],
        ['pin', 'mia@acme.com', 'own'],
      ]);
    }
  });

  it('a change committed at REF but never applied is labelled "not applied or changed outside", never asserted as outside', async () => {
    const live = emptyLive();
    live.views.recordings = [view('rv_1', 'Calls', { icon: 'phone' }), ...(live.views.recordings ?? [])];
    const now = emptyDesired();
    now.views = [declared('recordings', 'Calls', { icon: 'telephone' })];
    expect(await originsOf(now, structuredClone(now), live)).toEqual([['update', 'Calls', 'unapplied-or-outside']]);
  });

  it("a prune deletion of a view the manifests declared at REF is the pull request's own; one undeclared at REF too is not", async () => {
    const live = emptyLive();
    live.views.deals = [
      view('dv_1', 'Pipeline'),
      view('dv_8', 'Scratch'),
      view('dv_9', 'Temp'),
      ...(live.views.deals ?? []),
    ];
    const now = emptyDesired({ prune: true });
    now.views = [declared('deals', 'Pipeline')];
    const base: Desired = { ...now, views: [...now.views, declared('deals', 'Scratch')] };
    const origins = await originsOf(now, base, live);
    expect(origins).toContainEqual(['delete', 'Scratch', 'own']);
    expect(origins.find(([, name]) => name === 'Temp')?.[2]).not.toBe('own');
  });
});
