import { describe, expect, it } from 'vitest';
import { formerNames } from '../../src/kinds/view-renames.js';
import { emptyMemory } from '../../src/state/sweep-memory.js';
import { rememberApplied } from '../../src/state/memory-applied.js';
import { observeRun } from '../../src/state/memory-observe.js';
import { defaultView, emptyLive, view } from '../plan/fixtures.js';

/** The old names of the views the manifests rename (view-renames.ts), which pinned names may still use. */

describe('formerNames', () => {
  it('maps the live name of a view bound by id, and the name the memory last saw, to the declared view', () => {
    const declared = [
      { name: 'Renewals over 50k', viewId: 'dv_1' },
      { name: 'Pipeline', viewId: 'dv_2' },
    ];
    const memory = emptyMemory();
    memory.views['view:deals:id:dv_2'] = {
      domain: 'deals',
      id: 'dv_2',
      name: 'Pipeline review',
      lastSeen: '2026-05-01T00:00:00Z',
    };
    const names = formerNames('deals', declared, [view('dv_1', 'Big renewals'), view('dv_2', 'Pipeline')], memory);
    expect([...names]).toEqual([
      ['Big renewals', declared[0]],
      ['Pipeline review', declared[1]],
    ]);
  });

  it('leaves out an old name a view or a manifest still has, and one two renamed views shared', () => {
    const declared = [
      { name: 'A2', viewId: 'dv_1' },
      { name: 'B2', viewId: 'dv_2' },
      { name: 'Old', viewId: null },
    ];
    const listing = [
      view('dv_1', 'Same'),
      view('dv_2', 'Same'),
      view('dv_3', 'Taken'),
      defaultView('dv_all', 'All deals'),
    ];
    const memory = emptyMemory();
    memory.views['view:deals:id:dv_1'] = {
      domain: 'deals',
      id: 'dv_1',
      name: 'Taken',
      lastSeen: '2026-05-01T00:00:00Z',
    };
    memory.views['view:companies:id:dv_2'] = {
      domain: 'companies',
      id: 'dv_2',
      name: 'Elsewhere',
      lastSeen: '2026-05-01T00:00:00Z',
    };
    expect([...formerNames('deals', declared, listing, memory)]).toEqual([]);
  });
});

describe('the old name once a rename is applied', () => {
  it('stays in the sweep memory as a former name, which still maps to the declared view', () => {
    const before = emptyMemory();
    before.views['view:deals:id:dv_1'] = {
      domain: 'deals',
      id: 'dv_1',
      name: 'Deals at risk',
      lastSeen: '2026-05-01T00:00:00.000Z',
    };
    const applied = rememberApplied(
      before,
      { lists: {}, seen: [{ domain: 'deals', id: 'dv_1', name: 'At risk (weekly)' }], deleted: [] },
      Date.parse('2026-05-02T00:00:00.000Z'),
    );
    // The nights after see it under its new name: the old one is kept.
    const live = { ...emptyLive(), views: { deals: [view('dv_1', 'At risk (weekly)')] } };
    const memory = observeRun(applied, live, Date.parse('2026-05-03T00:00:00.000Z'));
    expect(memory.views['view:deals:id:dv_1']).toEqual({
      domain: 'deals',
      id: 'dv_1',
      name: 'At risk (weekly)',
      lastSeen: '2026-05-03T00:00:00.000Z',
      formerNames: ['Deals at risk'],
    });
    const declared = [{ name: 'At risk (weekly)', viewId: 'dv_1' }];
    expect([...formerNames('deals', declared, [view('dv_1', 'At risk (weekly)')], memory)]).toEqual([
      ['Deals at risk', declared[0]],
    ]);
  });
});
