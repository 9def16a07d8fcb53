import { describe, expect, it } from 'vitest';
import { viewTarget } from '../../src/domain/targets.js';
import { driftDetails } from '../../src/plan/drift-record.js';
import type { Change } from '../../src/plan/types.js';
import { emptyMemory } from '../../src/state/sweep-memory.js';
import { emptyLive } from './fixtures.js';

/** When drift happened, as far as the sweep memory can tell: `since` and `already`. */

describe('driftDetails of a view prune would delete', () => {
  const target = viewTarget('deals', 'dv_board');
  const deletion = {
    action: 'delete',
    target,
    kind: 'DealView',
    domain: 'deals',
    id: 'dv_board',
    name: 'Board',
    reason: 'prune',
  } as unknown as Change;

  it('is already so when the memory saw the view: made before it was last seen, not since', () => {
    const memory = emptyMemory();
    memory.views[target] = { domain: 'deals', id: 'dv_board', name: 'Board', lastSeen: '2026-12-07T02:01:00.000Z' };
    expect(driftDetails(deletion, emptyLive(), memory)).toEqual({ since: '2026-12-07T02:01:00.000Z', already: true });
  });

  it('has no date when the memory never saw it', () => {
    expect(driftDetails(deletion, emptyLive(), emptyMemory())).toEqual({});
  });
});
