import { describe, expect, it } from 'vitest';
import { computePlan } from '../../src/plan/diff.js';
import { pinsKey } from '../../src/state/types.js';
import { emptyMemory } from '../../src/state/sweep-memory.js';
import { declared, emptyDesired, emptyLive, pinsOf, view } from '../plan/fixtures.js';

/**
 * A memory file is advice: self-heal never writes a pinned list that only the memory's
 * old names of a view make resolvable (a forged file could point an old name at another
 * declared view). A plan, which a reviewer reads, still resolves it with its warning.
 */
describe('a pinned name only the memory knows as a view old name', () => {
  const desired = {
    ...emptyDesired(),
    views: [declared('recordings', 'Customer calls', {}, { viewId: 'rv_1' })],
    pins: [pinsOf('mia@acme.com', 'recordings', [{ name: 'Old calls' }])],
  };
  const live = emptyLive();
  live.views.recordings = [...(live.views.recordings ?? []), view('rv_1', 'Customer calls')];
  live.pins = { [pinsKey('recordings', 'mia@acme.com')]: [] };
  const memory = emptyMemory();
  memory.views['view:recordings:id:rv_1'] = {
    domain: 'recordings',
    id: 'rv_1',
    name: 'Customer calls',
    lastSeen: '2026-05-01T00:00:00.000Z',
    formerNames: ['Old calls'],
  };

  it('resolves in a plan, with the warning that names the view anew', () => {
    const { plan } = computePlan(desired, live, { memory });
    expect(plan.changes.map((change) => change.target)).toEqual(['pins:recordings:mia@acme.com']);
    expect(plan.warnings?.map((warning) => warning.code)).toContain('pins.renamed-view');
  });

  it('is held in self-heal, never repaired', () => {
    const { plan } = computePlan(desired, live, { memory, repair: true });
    expect(plan.changes).toEqual([]);
    expect(plan.held).toEqual([
      expect.objectContaining({ target: 'pins:recordings:mia@acme.com', code: 'pins.renamed-by-memory' }),
    ]);
  });

  it('is repaired in self-heal when the live listing itself gives the old name (no advice needed)', () => {
    const renamedNow = { ...desired, views: [declared('recordings', 'Customer calls', {}, { viewId: 'rv_1' })] };
    const liveOld = emptyLive();
    liveOld.views.recordings = [...(liveOld.views.recordings ?? []), view('rv_1', 'Old calls')];
    liveOld.pins = { [pinsKey('recordings', 'mia@acme.com')]: [] };
    const { plan } = computePlan(renamedNow, liveOld, { memory, repair: true });
    expect(plan.held ?? []).toEqual([]);
    expect(plan.changes.map((change) => change.target)).toContain('pins:recordings:mia@acme.com');
  });
});
