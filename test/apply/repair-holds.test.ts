import { describe, expect, it } from 'vitest';
import { holdsNow } from '../../src/apply/repair-holds.js';
import { viewTarget } from '../../src/domain/targets.js';
import { computePlan } from '../../src/plan/diff.js';
import { emptyMemory, type SweepMemory } from '../../src/state/sweep-memory.js';
import type { Desired, Live } from '../../src/state/types.js';
import { declared, emptyDesired, emptyLive, pinsOf, view } from '../plan/fixtures.js';

/**
 * When the memory's held targets end (`holdsNow`): over the real diff of declared views
 * and lists against a live state, with a memory that held them at the last apply.
 */

const SDR = 'view:recordings:id:rv_sdr';
const MIA = 'pins:recordings:mia@acme.com';
const NOAH = 'pins:recordings:max@acme.com';

/** desired declares SDR coaching bound by id, Mia's tabs naming it, and Max's naming only a default. */
function desired(creatorEmail?: string): Desired {
  const state = emptyDesired(creatorEmail === undefined ? {} : { creatorEmail });
  if (creatorEmail === undefined) delete state.workspace.creatorEmail;
  state.views = [declared('recordings', 'SDR coaching', {}, { viewId: 'rv_sdr' })];
  state.pins = [
    pinsOf('mia@acme.com', 'recordings', [{ name: 'SDR coaching' }, { name: 'All recordings' }]),
    pinsOf('max@acme.com', 'recordings', [{ name: 'All recordings' }]),
  ];
  return state;
}

/** live is the workspace with SDR coaching gone (deleted in the app), or `replacement` made in its place, and the lists as read. */
function live(replacement?: string, pins: Live['pins'] = {}): Live {
  const state = emptyLive();
  const recordings = state.views.recordings ?? [];
  state.views.recordings = replacement === undefined ? recordings : [view(replacement, 'SDR coaching'), ...recordings];
  state.pins = pins;
  return state;
}

/** The codes SDR coaching and Mia's list were held with when its bound id was not found. */
const DELETION: Record<string, string> = { [SDR]: 'view.id-not-found', [MIA]: 'pins.names-held-view' };

/**
 * memory held `held` at the last apply, with the codes of `codes` (a view's deletion by
 * default; none: a memory written before codes were kept); `sawSdr` when an earlier run
 * saw SDR coaching live and public.
 */
function memory(held: string[], sawSdr: boolean, codes: Record<string, string> = DELETION): SweepMemory {
  const base = emptyMemory();
  const heldCodes = Object.fromEntries(
    held.flatMap((target) => (codes[target] === undefined ? [] : [[target, codes[target]]])),
  );
  return {
    ...base,
    views: sawSdr
      ? { [SDR]: { domain: 'recordings', id: 'rv_sdr', name: 'SDR coaching', lastSeen: '2026-05-01T03:00:00.000Z' } }
      : {},
    lastApplied: {
      commit: 'c'.repeat(40),
      at: '2026-05-02T03:00:00.000Z',
      held,
      ...(Object.keys(heldCodes).length === 0 ? {} : { heldCodes }),
    },
  };
}

/** holds plans `state` against `read` as a scoped plan does (only the lists read), then asks which holds end. */
function holds(state: Desired, read: Live, known: SweepMemory) {
  const pins = state.pins.filter((list) => read.pins[`${list.domain}:${list.userEmail}`] !== undefined);
  const { plan } = computePlan({ ...state, pins }, read, { memory: known });
  return holdsNow(known, plan, read);
}

const ALL = (read: Live['pins'] = {}): Live['pins'] => ({
  'recordings:mia@acme.com': [view('rv_all', 'All recordings', { isDefault: true })],
  'recordings:max@acme.com': [view('rv_all', 'All recordings', { isDefault: true })],
  ...read,
});

describe('holdsNow', () => {
  it('ends the hold of a view the memory knows was deleted in the app, and of a list held with it: its create again is an ordinary repair', () => {
    const known = memory([SDR, MIA], true);
    expect(holds(desired('ops@acme.com'), live(undefined, ALL()), known)).toEqual({ ended: [SDR, MIA], held: [] });
  });

  it("keeps a saved plan's stale list held although the view it names was deleted in the app: only found as desired, or written by a later apply, ends it", () => {
    const known = memory([MIA], true, { [MIA]: 'apply.stale-target' });
    expect(holds(desired('ops@acme.com'), live(undefined, ALL()), known)).toEqual({ ended: [], held: [MIA] });
    const dependent = memory([MIA], true, { [MIA]: 'apply.held-dependent' });
    expect(holds(desired('ops@acme.com'), live(undefined, ALL()), dependent)).toEqual({ ended: [], held: [MIA] });
  });

  it('keeps a hold of unknown cause (a memory written before codes were kept) until it is found as desired', () => {
    const known = memory([SDR, MIA], true, {});
    expect(holds(desired('ops@acme.com'), live(undefined, ALL()), known)).toEqual({ ended: [], held: [SDR, MIA] });
    const asked = ALL({
      'recordings:mia@acme.com': [
        view('rv_sdr', 'SDR coaching'),
        view('rv_all', 'All recordings', { isDefault: true }),
      ],
    });
    expect(holds(desired('ops@acme.com'), live('rv_sdr', asked), known)).toEqual({ ended: [SDR, MIA], held: [] });
  });

  it('ends them when someone made the view again by hand: it binds by name, nothing is created', () => {
    const known = memory([SDR, MIA], true);
    expect(holds(desired('ops@acme.com'), live('rv_by_hand', ALL()), known)).toEqual({
      ended: [SDR, MIA],
      held: [],
    });
  });

  it('keeps them while the plan holds the view again: the memory never saw it public (a typo, a private view)', () => {
    const known = memory([SDR, MIA], false);
    expect(holds(desired('ops@acme.com'), live(undefined, ALL()), known)).toEqual({ ended: [], held: [SDR, MIA] });
  });

  it('keeps a list it did not read now: nothing says its cause ended', () => {
    const known = memory([SDR, MIA], true);
    expect(holds(desired('ops@acme.com'), live(), known)).toEqual({ ended: [SDR], held: [MIA] });
  });

  it('keeps a held list the plan still changes for another reason (a stale target), and ends one found as desired', () => {
    const known = memory([NOAH], false);
    const reordered = ALL({ 'recordings:max@acme.com': [view('rv_mine', 'My recordings', { isDefault: true })] });
    expect(holds(desired('ops@acme.com'), live('rv_sdr', reordered), known)).toEqual({ ended: [], held: [NOAH] });
    expect(holds(desired('ops@acme.com'), live('rv_sdr', ALL()), known)).toEqual({ ended: [NOAH], held: [] });
  });

  it('ends the hold of a view deleted in the app while the Workspace names no creatorEmail: the create again is held anew, under its own target and way out', () => {
    const known = memory([SDR], true);
    const read = live(undefined, ALL());
    const { plan } = computePlan(desired(), read, { memory: known });
    expect(plan.held?.map((held) => [held.target, held.code])).toContainEqual([
      'view:recordings:name:SDR coaching',
      'view.create-needs-creator',
    ]);
    expect(holdsNow(known, plan, read)).toEqual({ ended: [SDR], held: [] });
  });

  it('keeps a held create the plan now carries out for no reason of the app (its creator, who had left, is back)', () => {
    const state = desired('ops@acme.com');
    state.views = [declared('recordings', 'Coaching')];
    state.pins = [];
    const target = 'view:recordings:name:Coaching';
    const known = memory([target], false);
    expect(holds(state, live(undefined, ALL()), known)).toEqual({ ended: [], held: [target] });
  });

  it('ends nothing without a memory that held something, and never a target it cannot read', () => {
    expect(holds(desired('ops@acme.com'), live(), emptyMemory())).toEqual({ ended: [], held: [] });
    const known = memory(['automations', 'something:else'], false);
    expect(holds(desired('ops@acme.com'), live(), known)).toEqual({
      ended: [],
      held: ['automations', 'something:else'],
    });
    expect(viewTarget('recordings', 'rv_sdr')).toBe(SDR);
  });
});
