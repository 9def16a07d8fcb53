import { describe, expect, it } from 'vitest';
import type { UpdateChange, ViewSnapshot } from '../../src/kinds/changes.js';
import { SAVED_VIEWS } from '../../src/kinds/saved-views.js';
import { viewDigests } from '../../src/kinds/view-sweep-memory.js';
import { emptyMemory, type SweepMemory, type ViewDigests } from '../../src/state/sweep-memory.js';
import { emptyLive } from '../plan/fixtures.js';

/**
 * The memory's digests of a view's attributes date its drift: an edit in the app whose
 * attributes digest as the memory last saw them was there then (reported before,
 * `already`); one that digests otherwise came about since `lastSeen`.
 */

const LAST_SEEN = '2026-12-01T02:00:00.000Z';

const seenAs: ViewSnapshot = {
  name: 'Board',
  icon: 'star',
  columns: [{ field: 'Stage' }],
  filters: { stageIn: ['won', 'open'] },
  sort: [],
};

/** edited is the update repairing the live view `before` back to `seenAs` with an icon the manifests ask for. */
function edited(before: ViewSnapshot, paths: string[], appOwns?: UpdateChange['appOwns']): UpdateChange {
  return {
    action: 'update',
    target: 'view:deals:id:dv_1',
    kind: 'DealView',
    name: 'Board',
    domain: 'deals',
    id: 'dv_1',
    before,
    after: { ...before, icon: 'flag' },
    patch: paths.map((path) => ({ op: 'replace', path, value: 'x' })),
    origin: 'outside',
    ...(appOwns === undefined ? {} : { appOwns }),
  };
}

function remembering(digests: ViewDigests | undefined): SweepMemory {
  const entry = { domain: 'deals' as const, id: 'dv_1', name: 'Board', lastSeen: LAST_SEEN };
  return { ...emptyMemory(), views: { 'view:deals:id:dv_1': digests === undefined ? entry : { ...entry, digests } } };
}

describe('driftWhen of the saved views, with the digests the memory last saw', () => {
  it('is already so when the attributes the update writes digest as last seen, and dated from lastSeen when one does not', () => {
    const memory = remembering(viewDigests('deals', seenAs));
    // Night 2 finds the icon edited on night 1 still so: reported before, not "between night 1 and now".
    expect(SAVED_VIEWS.driftWhen?.(edited(seenAs, ['/icon']), emptyLive(), memory)).toEqual({
      since: LAST_SEEN,
      already: true,
    });
    // The icon edited again since: changed between lastSeen and now.
    const again = { ...seenAs, icon: 'bolt' };
    expect(SAVED_VIEWS.driftWhen?.(edited(again, ['/icon']), emptyLive(), memory)).toEqual({ since: LAST_SEEN });
    // The icon as then, but the filters edited since and part of the drift: the drift is partly new.
    const filtered = { ...seenAs, filters: { stageIn: ['lost'] } };
    expect(SAVED_VIEWS.driftWhen?.(edited(filtered, ['/icon', '/filters/stageIn/0']), emptyLive(), memory)).toEqual({
      since: LAST_SEEN,
    });
  });

  it('digests values as the plan compares them, and never weighs an attribute the update leaves alone', () => {
    // The service spelling a set in another order is no edit: normalised, it digests the same.
    const reordered = { ...seenAs, filters: { stageIn: ['open', 'won'] } };
    expect(viewDigests('deals', reordered)).toEqual(viewDigests('deals', seenAs));
    // The sort changed in the app since, but the app owns it: only the icon is the drift, and it was so then.
    const sorted = { ...seenAs, sort: [{ field: 'Stage', order: 'Desc' }] };
    expect(
      SAVED_VIEWS.driftWhen?.(
        edited(sorted, ['/icon'], ['sort']),
        emptyLive(),
        remembering(viewDigests('deals', seenAs)),
      ),
    ).toEqual({
      since: LAST_SEEN,
      already: true,
    });
  });

  it('dates an edit from lastSeen, as before, when the memory keeps no digests (a memory written before them)', () => {
    expect(SAVED_VIEWS.driftWhen?.(edited(seenAs, ['/icon']), emptyLive(), remembering(undefined))).toEqual({
      since: LAST_SEEN,
    });
  });
});
