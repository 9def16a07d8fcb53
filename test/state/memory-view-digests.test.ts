import { describe, expect, it } from 'vitest';
import type { ApiView } from '../../src/domain/api-types.js';
import { viewDigests } from '../../src/kinds/view-sweep-memory.js';
import { rememberApplied } from '../../src/state/memory-applied.js';
import { observeRun, type LiveSeen } from '../../src/state/memory-observe.js';
import { memoryShapeProblems } from '../../src/state/memory-schema.js';
import { emptyMemory } from '../../src/state/sweep-memory.js';

/**
 * The digests the memory keeps of each view (`views[…].digests`): taken from what a run
 * read when it is given a digester, from what an apply wrote, and never carried past a
 * sighting that did not digest the view (they may be of another state).
 */

const T0 = Date.parse('2026-03-01T06:00:00.000Z');
const KEY = 'view:deals:id:dv_1';

const board = (icon: string): ApiView => ({
  viewId: 'dv_1',
  name: 'Board',
  visibility: 'Public',
  isDefault: false,
  ownerId: 'u_1',
  icon,
  columns: [],
  filters: {},
  sort: [],
});

function liveWith(view: ApiView): LiveSeen {
  return {
    workspace: { id: 'ws_1', name: 'Acme', createdAt: '2025-01-01T00:00:00Z', membersCount: 1, recordingsCount: 0 },
    views: { deals: [view] },
    pins: {},
  };
}

describe("the memory's digests of a view", () => {
  it('are those of the view as read, then as written, and are dropped by a sighting without them', () => {
    const read = observeRun(emptyMemory(), liveWith(board('star')), T0, new Set(), viewDigests);
    expect(read.views[KEY]?.digests).toEqual(viewDigests('deals', board('star')));
    expect(memoryShapeProblems(read)).toEqual([]);

    const written = viewDigests('deals', board('flag'));
    const applied = rememberApplied(
      read,
      { lists: {}, seen: [{ domain: 'deals', id: 'dv_1', name: 'Board', digests: written }], deleted: [] },
      T0 + 1000,
    );
    expect(applied.views[KEY]?.digests).toEqual(written);

    // A run that saw the view without digesting it (no digester) keeps no digest of an earlier state.
    expect(observeRun(applied, liveWith(board('bolt')), T0 + 2000).views[KEY]?.digests).toBeUndefined();
  });

  it('fit the ledger schema only as four 16-hex-digit digests', () => {
    const memory = observeRun(emptyMemory(), liveWith(board('star')), T0, new Set(), viewDigests);
    const entry = memory.views[KEY];
    if (entry?.digests === undefined) throw new Error('no digests');
    const forged = { ...memory, views: { [KEY]: { ...entry, digests: { ...entry.digests, icon: 'not hex' } } } };
    expect(memoryShapeProblems(forged)).not.toEqual([]);
    const { icon: _icon, ...partial } = entry.digests;
    expect(memoryShapeProblems({ ...memory, views: { [KEY]: { ...entry, digests: partial } } })).not.toEqual([]);
  });
});
