import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ApiView } from '../../src/domain/api-types.js';
import type { PinRef } from '../../src/domain/desired.js';
import { computePlan } from '../../src/plan/diff.js';
import { pinsKey } from '../../src/state/types.js';
import { RECORDING_DEFAULTS, at, emptyDesired, emptyLive, pinsOf, privateView, view } from '../plan/fixtures.js';

/**
 * Private tabs are the member's, whatever the app did to them: for random live pinned
 * lists holding private views and random documents (per member or group) without
 * `unpinPrivate`, planning never fails on private-tab state, and the planned list
 * keeps every private view the member pins today, in order. The documents name public
 * and default views by name or id, and private views the member does not pin (any
 * more) by id, which the plan leaves out.
 */

const PUBLIC = [view('rv_a', 'A'), view('rv_b', 'B'), view('rv_c', 'C')];
const PRIVATE = [0, 1, 2, 3].map((index) => privateView(`rv_p${index}`, `Mine ${index}`));
const VISIBLE = [...PUBLIC, ...RECORDING_DEFAULTS];
const EMAIL = 'mia@acme.com';

/** A desired entry and the view it stands for, so a document names each view once. */
interface Slot {
  view: string;
  ref: PinRef;
}

const visibleSlots: Slot[] = VISIBLE.flatMap((live) => [
  { view: live.viewId, ref: { name: live.name } },
  { view: live.viewId, ref: { viewId: live.viewId } },
]);

const scenario = fc
  .uniqueArray(fc.constantFrom(...VISIBLE, ...PRIVATE), { selector: (live: ApiView) => live.viewId, maxLength: 7 })
  .chain((current) => {
    const pinned = new Set(current.map((live) => live.viewId));
    // Private views the member does not pin today: unpinned or deleted in the app, or never theirs.
    const gone: Slot[] = [...PRIVATE.map((live) => live.viewId), 'rv_deleted']
      .filter((id) => !pinned.has(id))
      .map((id) => ({ view: id, ref: { viewId: id } }));
    return fc.record({
      current: fc.constant(current),
      refs: fc
        .uniqueArray(fc.constantFrom(...visibleSlots, ...gone), {
          selector: (slot) => slot.view,
          minLength: 1,
          maxLength: 6,
        })
        .map((slots) => slots.map((slot) => slot.ref)),
      asGroup: fc.boolean(),
    });
  });

describe('private tabs under random app states', () => {
  it('are kept ahead, in their current order, and never make the plan fail', () => {
    fc.assert(
      fc.property(scenario, ({ current, refs, asGroup }) => {
        const live = emptyLive();
        live.views.recordings = [...VISIBLE];
        live.pins[pinsKey('recordings', EMAIL)] = current;
        const desired = emptyDesired();
        const pins = pinsOf(EMAIL, 'recordings', refs);
        if (asGroup) {
          desired.pinGroups = [
            {
              group: { name: 'Mia alone', source: at('pins/group.yaml') },
              users: [{ pattern: EMAIL, isGlob: false, source: at('pins/group.yaml', 3) }],
              roles: [],
              domain: 'recordings',
              refs,
              unpinPrivate: false,
              source: pins.source,
              refSources: pins.refSources,
            },
          ];
        } else {
          desired.pins = [pins];
        }
        const { plan } = computePlan(desired, live);
        const change = plan.changes.find((candidate) => candidate.action === 'pin');
        const planned =
          change?.action === 'pin' ? change.after.map((tab) => tab.viewId) : current.map((tab) => tab.viewId);
        const privateToday = current.filter((live) => live.visibility === 'Private').map((live) => live.viewId);
        expect(planned.slice(0, privateToday.length)).toEqual(privateToday);
        if (change?.action === 'pin') {
          expect(change.unpinPrivate).toBeUndefined();
          expect(change.group).toBe(asGroup ? 'Mia alone' : undefined);
        }
      }),
      { numRuns: 300 },
    );
  });
});
