import { describe, expect, it } from 'vitest';
import type { ApiView } from '../../src/domain/api-types.js';
import type { PinRef } from '../../src/domain/desired.js';
import type { DesiredPinGroup } from '../../src/domain/desired.js';
import { InternalError } from '../../src/errors.js';
import { PINNED_VIEWS, planPins, type PinContext } from '../../src/kinds/pinned-views.js';
import { pinsKey } from '../../src/state/types.js';
import { compileGlobs } from '../../src/text/glob.js';
import {
  RECORDING_DEFAULTS,
  at,
  defaultView,
  emptyDesired,
  emptyLive,
  pinsOf,
  privateView,
  view,
} from '../plan/fixtures.js';

// The private-tab rule of planPins: private tabs are the member's.

const CALLS = view('rv_1', 'Calls');
const DEMOS = view('rv_2', 'Demos');
const ALL = defaultView('rv_all', 'All recordings');
const MINE = privateView('rv_p1', 'My follow-ups');
const OTHER = privateView('rv_p2', 'My demos');
const CONTEXT: PinContext = { domain: 'recordings', declared: [], listing: [CALLS, DEMOS, ALL], deleted: new Map() };

function plan(
  refs: PinRef[],
  current: ApiView[],
  extra: Parameters<typeof pinsOf>[3] = {},
): ReturnType<typeof planPins> {
  return planPins(pinsOf('mia@acme.com', 'recordings', refs, extra), current, CONTEXT);
}

const ids = (outcome: ReturnType<typeof planPins>): (string | null)[] | undefined =>
  outcome.change?.after.map((tab) => tab.viewId);

describe("planPins: private tabs are the member's", () => {
  it('keeps unlisted private tabs ahead of the listed ones, in their current order', () => {
    const outcome = plan([{ name: 'All recordings' }, { name: 'Calls' }], [CALLS, OTHER, ALL, MINE]);
    expect(outcome.reasons).toEqual([]);
    expect(ids(outcome)).toEqual(['rv_p2', 'rv_p1', 'rv_all', 'rv_1']);
    expect(outcome.change?.unpinPrivate).toBeUndefined();
  });

  it('keeps a private tab listed as {viewId} where the list puts it', () => {
    expect(ids(plan([{ name: 'Calls' }, { viewId: 'rv_p1' }, { name: 'Demos' }], [MINE, OTHER, CALLS]))).toEqual([
      'rv_p2',
      'rv_1',
      'rv_p1',
      'rv_2',
    ]);
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
      {
        code: 'pins.left-out',
        message:
          'rv_gone is left out of the recordings tabs of mia@acme.com: they no longer pin it (unpinned or deleted in the app) and it is no public or default view',
        source: expect.objectContaining({ file: 'pins/mia.yaml', line: 3, column: 16 }),
      },
    ]);
  });

  it('leaves the list as it is, with a warning, when nothing is left to pin', () => {
    const outcome = plan([{ viewId: 'rv_gone' }], [CALLS]);
    expect(outcome.change).toBeUndefined();
    expect(outcome.reasons).toEqual([]);
    expect(outcome.warnings[1]).toEqual({
      code: 'pins.nothing-to-pin',
      message:
        'nothing is left to pin in the recordings tabs of mia@acme.com (the service needs at least one tab): the list is left as it is',
      source: expect.objectContaining({ file: 'pins/mia.yaml', line: 1, column: 1 }),
    });
  });

  it('names the group a list comes from on its change', () => {
    const outcome = plan([{ name: 'Demos' }], [CALLS], {
      group: { name: 'Sales tabs', source: at('pins/sales.yaml') },
    });
    expect(outcome.change).toMatchObject({ group: 'Sales tabs', name: 'mia@acme.com', source: at('pins/mia.yaml') });
  });
});

describe('planPins: a name that resolves to more than one view is refused, never guessed', () => {
  it('refuses a name two manifests declare, naming the bound ids and pinning by id as the way out', () => {
    const context: PinContext = {
      ...CONTEXT,
      declared: [
        { name: 'Team', viewId: 'rv_1' },
        { name: 'Team', viewId: 'rv_2' },
      ],
    };
    const outcome = planPins(pinsOf('mia@acme.com', 'recordings', [{ name: 'Team' }]), [], context);
    expect(outcome.change).toBeUndefined();
    expect(outcome.reasons).toEqual([
      expect.objectContaining({
        code: 'pins.ambiguous-name',
        ids: ['rv_1', 'rv_2'],
        wayOut: 'pin the one you mean by id, e.g. `{viewId: rv_1}`',
      }),
    ]);
  });

  it('asks for distinct names when the declared views of that name are all new', () => {
    const context: PinContext = {
      ...CONTEXT,
      declared: [
        { name: 'Team', viewId: null },
        { name: 'Team', viewId: null },
      ],
    };
    const [reason] = planPins(pinsOf('mia@acme.com', 'recordings', [{ name: 'Team' }]), [], context).reasons;
    expect(reason).toMatchObject({
      code: 'pins.ambiguous-name',
      ids: [],
      wayOut: 'give the declared views distinct names',
    });
  });

  it('refuses a name two built-in default views carry', () => {
    const context: PinContext = { ...CONTEXT, listing: [CALLS, ALL, defaultView('rv_all_2', 'All recordings')] };
    const [reason] = planPins(pinsOf('mia@acme.com', 'recordings', [{ name: 'All recordings' }]), [], context).reasons;
    expect(reason).toMatchObject({ code: 'pins.ambiguous-name', ids: ['rv_all', 'rv_all_2'] });
  });
});

describe('planPins: what a name and an id resolve to', () => {
  const renamed: PinContext = { ...CONTEXT, declared: [{ name: 'Customer calls', viewId: 'rv_1' }] };

  it('resolves a view a manifest renames by its new name only, shown under that name', () => {
    const outcome = planPins(pinsOf('mia@acme.com', 'recordings', [{ name: 'Customer calls' }]), [DEMOS], renamed);
    expect(outcome.change?.after).toEqual([
      { viewId: 'rv_1', name: 'Customer calls', visibility: 'Public', isDefault: false },
    ]);
    const [reason] = planPins(pinsOf('mia@acme.com', 'recordings', [{ name: 'Calls' }]), [DEMOS], renamed).reasons;
    expect(reason?.code).toBe('pins.unknown-name');
  });

  it('resolves the old name of a view the manifests rename (formerNames) to it, with a warning naming the place and the new name', () => {
    const context: PinContext = {
      ...renamed,
      formerNames: new Map([['Calls', { name: 'Customer calls', viewId: 'rv_1' }]]),
    };
    const outcome = planPins(pinsOf('mia@acme.com', 'recordings', [{ name: 'Calls' }]), [DEMOS], context);
    expect(outcome.reasons).toEqual([]);
    expect(outcome.change?.after).toEqual([
      { viewId: 'rv_1', name: 'Customer calls', visibility: 'Public', isDefault: false },
    ]);
    expect(outcome.warnings).toEqual([
      {
        code: 'pins.renamed-view',
        message:
          '"Calls" in the recordings tabs of mia@acme.com is the old name of RecordingView "Customer calls" (rv_1): ' +
          'it resolves to it; name it "Customer calls" here and at each place these warnings list (with the document\'s old name back, `viewctl rename RecordingView "Calls" "Customer calls"` rewrites them all)',
        source: pinsOf('mia@acme.com', 'recordings', [{ name: 'Calls' }]).refSources[0],
      },
    ]);
    // A near miss of the old name suggests the new name first.
    const [near] = planPins(pinsOf('mia@acme.com', 'recordings', [{ name: 'Call' }]), [DEMOS], context).reasons;
    expect(near?.message).toBe(
      'no manifest, public view or default recordings view is named "Call"; did you mean "Customer calls"?',
    );
  });

  it('resolves a {viewId} the member does not pin yet from the listing, under the name a manifest gives it', () => {
    expect(
      planPins(pinsOf('mia@acme.com', 'recordings', [{ viewId: 'rv_1' }]), [DEMOS], renamed).change?.after,
    ).toEqual([{ viewId: 'rv_1', name: 'Customer calls', visibility: 'Public', isDefault: false }]);
  });

  it('resolves a name a saved view shares with a built-in default to the saved view', () => {
    const context: PinContext = { ...CONTEXT, listing: [view('rv_9', 'All recordings'), ALL] };
    expect(ids(planPins(pinsOf('mia@acme.com', 'recordings', [{ name: 'All recordings' }]), [CALLS], context))).toEqual(
      ['rv_9'],
    );
  });

  it("suggests the names of the member's own tabs for an unknown name, and nothing when no name is close", () => {
    const [near] = plan([{ name: 'My follow-up' }], [MINE, CALLS]).reasons;
    expect(near?.message).toBe(
      'no manifest, public view or default recordings view is named "My follow-up"; did you mean "My follow-ups"?',
    );
    const [far] = plan([{ name: 'Quarterly board review' }], [MINE, CALLS]).reasons;
    expect(far?.message).toBe('no manifest, public view or default recordings view is named "Quarterly board review"');
  });

  it('does not mark a change unpinPrivate when there is no private tab to drop', () => {
    const outcome = plan([{ name: 'Demos' }], [CALLS], { unpinPrivate: true });
    expect(ids(outcome)).toEqual(['rv_2']);
    expect(outcome.change).not.toHaveProperty('unpinPrivate');
  });
});

describe('PINNED_VIEWS', () => {
  const none = { ignored: compileGlobs([]), declared: new Map(), deleted: new Map(), heldViews: new Map() };
  const desired = { ...emptyDesired(), pins: [pinsOf('mia@acme.com', 'recordings', [{ name: 'Calls' }])] };

  it("diff: never plans a list that was not read (it cannot keep the member's private tabs)", () => {
    expect(() => PINNED_VIEWS.diff(desired, emptyLive(), none)).toThrow(InternalError);
  });

  it('diff: counts the skipped members only when group documents exist', () => {
    const live = emptyLive();
    live.views.recordings = [CALLS, ...RECORDING_DEFAULTS];
    live.pins[pinsKey('recordings', 'mia@acme.com')] = [CALLS];
    expect(PINNED_VIEWS.diff(desired, live, none)).not.toHaveProperty('skippedMembers');
    const group: DesiredPinGroup = {
      group: { name: 'Nobody', source: at('pins/g.yaml') },
      users: [{ pattern: '*@nowhere.test', isGlob: true, source: at('pins/g.yaml', 3) }],
      roles: [],
      domain: 'recordings',
      refs: [{ name: 'Calls' }],
      unpinPrivate: false,
      source: at('pins/g.yaml'),
      refSources: [at('pins/g.yaml', 5)],
    };
    expect(PINNED_VIEWS.diff({ ...desired, pinGroups: [group] }, live, none)).toMatchObject({
      changes: [],
      skippedMembers: 0,
    });
  });

  it('steps: a list of existing views only carries no newViewTabs', () => {
    const change = plan([{ name: 'Demos' }], [CALLS]).change;
    if (change === undefined) throw new Error('expected a change');
    expect(PINNED_VIEWS.steps(change, 2, { creatorEmail: undefined, created: new Set() })).toEqual([
      {
        change: 2,
        method: 'PUT',
        route: '/v1/recordings/views/pinned',
        params: {},
        query: { userEmail: 'mia@acme.com' },
        body: { viewIds: ['rv_2'] },
      },
    ]);
  });
});
