import { describe, expect, it } from 'vitest';
import type { ApiView } from '../../src/domain/api-types.js';
import type { PinRef } from '../../src/domain/desired.js';
import { planPins, type PinContext } from '../../src/kinds/pinned-views.js';
import { at, defaultView, pinsOf, privateView, view } from '../plan/fixtures.js';

// The private-tab rule of planPins: private tabs are the member's.

const CALLS = view('rv_1', 'Calls');
const DEMOS = view('rv_2', 'Demos');
const ALL = defaultView('rv_all', 'All recordings');
const MINE = privateView('rv_p1', 'My follow-ups');
const OTHER = privateView('rv_p2', 'My demos');
const CONTEXT: PinContext = { domain: 'recordings', declared: [], listing: [CALLS, DEMOS, ALL], deleted: new Map() };

function plan(refs: PinRef[], current: ApiView[], extra: Parameters<typeof pinsOf>[3] = {}): ReturnType<typeof planPins> {
  return planPins(pinsOf('mia@acme.com', 'recordings', refs, extra), current, CONTEXT);
}

const ids = (outcome: ReturnType<typeof planPins>): (string | null)[] | undefined => outcome.change?.after.map((tab) => tab.viewId);

describe('planPins: private tabs are the member\'s', () => {
  it('keeps unlisted private tabs ahead of the listed ones, in their current order', () => {
    const outcome = plan([{ name: 'All recordings' }, { name: 'Calls' }], [CALLS, OTHER, ALL, MINE]);
    expect(outcome.reasons).toEqual([]);
    expect(ids(outcome)).toEqual(['rv_p2', 'rv_p1', 'rv_all', 'rv_1']);
    expect(outcome.change?.unpinPrivate).toBeUndefined();
  });

  it('keeps a private tab listed as {viewId} where the list puts it', () => {
    expect(ids(plan([{ name: 'Calls' }, { viewId: 'rv_p1' }, { name: 'Demos' }], [MINE, OTHER, CALLS]))).toEqual(['rv_p2', 'rv_1', 'rv_p1', 'rv_2']);
  });

  it('makes no change when the kept private tabs and the list are the live order', () => {
    expect(plan([{ name: 'Calls' }], [MINE, CALLS])).toEqual({ reasons: [], warnings: [] });
  });

  it('drops the unlisted private tabs with unpinPrivate, and marks the change', () => {
    const outcome = plan([{ viewId: 'rv_p2' }, { name: 'Calls' }], [MINE, OTHER, CALLS], { unpinPrivate: true });
    expect(ids(outcome)).toEqual(['rv_p2', 'rv_1']);
    expect(outcome.change?.unpinPrivate).toBe(true);
  });

  it('leaves out, with a warning at its entry, a {viewId} the member no longer pins; never refuses', () => {
    const outcome = plan([{ viewId: 'rv_gone' }, { name: 'Demos' }], [CALLS]);
    expect(outcome.reasons).toEqual([]);
    expect(ids(outcome)).toEqual(['rv_2']);
    expect(outcome.warnings).toEqual([
      'pins/mia.yaml:3:16: rv_gone is left out of the recordings tabs of mia@acme.com: they no longer pin it (unpinned or deleted in the app) and it is no public or default view',
    ]);
  });

  it('leaves the list as it is, with a warning, when nothing is left to pin', () => {
    const outcome = plan([{ viewId: 'rv_gone' }], [CALLS]);
    expect(outcome.change).toBeUndefined();
    expect(outcome.reasons).toEqual([]);
    expect(outcome.warnings[1]).toBe(`${'pins/mia.yaml:1:1'}: nothing is left to pin in the recordings tabs of mia@acme.com (the service needs at least one tab): the list is left as it is`);
  });

  it('names the group a list comes from on its change', () => {
    const outcome = plan([{ name: 'Demos' }], [CALLS], { group: { name: 'Sales tabs', source: at('pins/sales.yaml') } });
    expect(outcome.change).toMatchObject({ group: 'Sales tabs', name: 'mia@acme.com', source: at('pins/mia.yaml') });
  });
});

describe('planPins: a name that resolves to more than one view is refused, never guessed', () => {
  it('refuses a name two manifests declare, naming the bound ids and pinning by id as the way out', () => {
    const context: PinContext = { ...CONTEXT, declared: [{ name: 'Team', viewId: 'rv_1' }, { name: 'Team', viewId: 'rv_2' }] };
    const outcome = planPins(pinsOf('mia@acme.com', 'recordings', [{ name: 'Team' }]), [], context);
    expect(outcome.change).toBeUndefined();
    expect(outcome.reasons).toEqual([expect.objectContaining({ code: 'pins.ambiguous-name', ids: ['rv_1', 'rv_2'], wayOut: 'pin the one you mean by id, e.g. `{viewId: rv_1}`' })]);
  });

  it('asks for distinct names when the declared views of that name are all new', () => {
    const context: PinContext = { ...CONTEXT, declared: [{ name: 'Team', viewId: null }, { name: 'Team', viewId: null }] };
    const [reason] = planPins(pinsOf('mia@acme.com', 'recordings', [{ name: 'Team' }]), [], context).reasons;
    expect(reason).toMatchObject({ code: 'pins.ambiguous-name', ids: [], wayOut: 'give the declared views distinct names' });
  });

  it('refuses a name two built-in default views carry', () => {
    const context: PinContext = { ...CONTEXT, listing: [CALLS, ALL, defaultView('rv_all_2', 'All recordings')] };
    const [reason] = planPins(pinsOf('mia@acme.com', 'recordings', [{ name: 'All recordings' }]), [], context).reasons;
    expect(reason).toMatchObject({ code: 'pins.ambiguous-name', ids: ['rv_all', 'rv_all_2'] });
  });
});
