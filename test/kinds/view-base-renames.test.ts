import { describe, expect, it } from 'vitest';
import type { DesiredView } from '../../src/domain/desired.js';
import { baseRenames } from '../../src/kinds/view-base-renames.js';
import { SAVED_VIEWS } from '../../src/kinds/saved-views.js';
import { PINNED_VIEWS } from '../../src/kinds/pinned-views.js';
import { compileGlobs } from '../../src/text/glob.js';
import type { Desired, Live } from '../../src/state/types.js';
import { DEAL_DEFAULTS, at, declared, emptyDesired, emptyLive, pinsOf, user, view } from '../plan/fixtures.js';

/**
 * A view document renamed since `--base` (view-base-renames.ts): which document at REF
 * a current one renames, and what the saved-views kind then plans against the live
 * listing (the live view of the old name renamed, or the rename held).
 */

const FILE = 'views/deals.yaml';
const risk = { filters: { stageIn: ['Risk'] } };
const won = { filters: { stageIn: ['Won'] } };

/** deal is a DealView document of `file`, at `line` (its place in the file is its order in the list). */
function deal(name: string, managed: DesiredView['managed'], line: number, file = FILE): DesiredView {
  return declared('deals', name, managed, { source: at(file, line), nameSource: at(file, line + 1, 7) });
}

function manifests(...views: DesiredView[]): Desired {
  const desired = emptyDesired({ creatorEmail: 'ops@acme.com' });
  desired.views = views;
  return desired;
}

/** pairs are the renames found, as [old name, new name]. */
function pairs(base: Desired, now: Desired): [string, string][] {
  return [...baseRenames(base, now).renamed].map(([view, { from }]) => [from.name, view.name]);
}

function diffOf(desired: Desired, live: Live, base?: Desired) {
  return SAVED_VIEWS.diff(desired, live, {
    ignored: compileGlobs([]),
    declared: new Map(),
    deleted: new Map(),
    heldViews: new Map(),
    ...(base === undefined ? {} : { base }),
  });
}

function liveDeals(...views: ReturnType<typeof view>[]): Live {
  const live = emptyLive();
  live.views.deals = [...views, ...DEAL_DEFAULTS];
  live.users = [];
  return live;
}

describe('baseRenames: the same document at --base', () => {
  it('pairs a document whose name changed in place, with or without its other attributes', () => {
    const base = manifests(deal('Deals at risk', risk, 1), deal('Won', won, 10));
    expect(pairs(base, manifests(deal('At risk (weekly)', risk, 1), deal('Won', won, 10)))).toEqual([
      ['Deals at risk', 'At risk (weekly)'],
    ]);
    // Its filter edited in the same pull request: the same place in the file says it is the same document.
    const edited = { filters: { stageIn: ['Risk', 'Stalled'] } };
    expect(pairs(base, manifests(deal('At risk (weekly)', edited, 1), deal('Won', won, 10)))).toEqual([
      ['Deals at risk', 'At risk (weekly)'],
    ]);
  });

  it('never pairs a document moved to another file, nor a name some document still has', () => {
    const base = manifests(deal('Deals at risk', risk, 1), deal('Won', won, 10));
    const moved = manifests(deal('At risk (weekly)', risk, 1, 'views/risk.yaml'), deal('Won', won, 10));
    expect(baseRenames(base, moved)).toEqual({ renamed: new Map(), ambiguous: new Map() });
    // Two documents that swapped names (and places) rename nothing: each name still binds by name.
    const swapped = manifests(deal('Won', risk, 1), deal('Deals at risk', won, 10));
    expect(pairs(base, swapped)).toEqual([]);
    // A document that binds by viewId needs no REF to be renamed.
    const bound = manifests(deal('At risk (weekly)', risk, 1), deal('Won', won, 10));
    bound.views[0] = { ...(bound.views[0] as DesiredView), viewId: 'dv_1' };
    expect(pairs(base, bound)).toEqual([]);
  });

  it('pairs two renamed documents that also swapped places by their content, not their places', () => {
    const base = manifests(deal('Deals at risk', risk, 1), deal('Won', won, 10));
    const now = manifests(deal('Won deals', won, 1), deal('At risk (weekly)', risk, 10));
    expect(pairs(base, now).sort()).toEqual([
      ['Deals at risk', 'At risk (weekly)'],
      ['Won', 'Won deals'],
    ]);
  });

  it('holds a document that could be the rename of two at REF, which its place does not settle', () => {
    const base = manifests(deal('A', risk, 1), deal('B', risk, 10));
    const now = manifests(deal('C', risk, 1));
    const found = baseRenames(base, now);
    expect(found.renamed.size).toBe(0);
    expect(
      [...found.ambiguous].map(([view, { candidates }]) => [view.name, candidates.map((old) => old.name)]),
    ).toEqual([['C', ['A', 'B']]]);
    // The same place settles it when nothing was inserted or removed.
    expect(
      pairs(manifests(deal('A', risk, 1), deal('B', risk, 10)), manifests(deal('C', risk, 1), deal('D', risk, 10))),
    ).toEqual([
      ['A', 'C'],
      ['B', 'D'],
    ]);
  });
});

describe('the saved views planned with the manifests at --base', () => {
  const base = manifests(deal('Deals at risk', risk, 1));
  const now = manifests(deal('At risk (weekly)', risk, 1));

  it('renames the live view of the old name, where without --base it would create a new one', () => {
    const live = liveDeals(view('dv_1', 'Deals at risk', { filters: { stageIn: ['Risk'] } }));
    const renamed = diffOf(now, live, base);
    expect(renamed.reasons).toEqual([]);
    expect(renamed.changes.map((change) => [change.action, change.name, 'id' in change ? change.id : null])).toEqual([
      ['update', 'At risk (weekly)', 'dv_1'],
    ]);
    expect(renamed.changes[0]).toMatchObject({ patch: [{ op: 'replace', path: '/name', value: 'At risk (weekly)' }] });
    expect(renamed.declared?.get('deals')).toEqual([{ name: 'At risk (weekly)', viewId: 'dv_1' }]);
    // The pins then resolve the old name to it, with the warning.
    const pins = pinsOf('mia@acme.com', 'deals', [{ name: 'Deals at risk' }]);
    const withPins = { ...now, pins: [pins] };
    live.pins['deals:mia@acme.com'] = [view('dv_1', 'Deals at risk')];
    live.users = [user('u_mia', 'mia@acme.com')];
    const planned = PINNED_VIEWS.diff(withPins, live, {
      ignored: compileGlobs([]),
      declared: renamed.declared ?? new Map(),
      deleted: new Map(),
      heldViews: new Map(),
    });
    expect(planned.reasons).toEqual([]);
    expect(planned.warnings.map((warning) => warning.code)).toEqual(['pins.renamed-view']);
    // A near miss of the old name: "did you mean" the new one first.
    const near = PINNED_VIEWS.diff(
      { ...now, pins: [pinsOf('mia@acme.com', 'deals', [{ name: 'Deals at rsk' }])] },
      live,
      {
        ignored: compileGlobs([]),
        declared: renamed.declared ?? new Map(),
        deleted: new Map(),
        heldViews: new Map(),
      },
    );
    expect(near.reasons[0]?.message).toContain('did you mean "At risk (weekly)"');
    // Without the manifests at REF: a new view, and the old one left alone.
    expect(diffOf(now, live).changes.map((change) => [change.action, change.name])).toEqual([
      ['create', 'At risk (weekly)'],
    ]);
  });

  it('holds the rename when a live view already has the new name, and keeps both views from prune', () => {
    const live = liveDeals(view('dv_1', 'Deals at risk'), view('dv_2', 'At risk (weekly)'));
    const pruning = { ...now, workspace: { ...now.workspace, prune: true } };
    const planned = diffOf(pruning, live, base);
    expect(planned.reasons).toEqual([]);
    expect(planned.changes).toEqual([]);
    expect(planned.held).toEqual([
      {
        target: 'view:deals:name:At risk (weekly)',
        code: 'view.rename-name-taken',
        reason:
          'DealView "At risk (weekly)" (views/deals.yaml:2) renames "Deals at risk" since --base (dv_1), but the public DealView dv_2 already has the name "At risk (weekly)": the rename is held, neither view is changed',
        wayOut:
          'rename or delete dv_2 in the app, or give the document a name no view has; to manage dv_2 instead, bind the document with `viewId: dv_2`',
        source: at(FILE, 2, 7),
      },
    ]);
    expect(planned.heldViews?.get('deals')).toEqual([
      { name: 'At risk (weekly)', viewId: null, target: 'view:deals:name:At risk (weekly)' },
    ]);
  });

  it('binds by the new name once the rename landed, and holds a document that could rename two live views', () => {
    const landed = liveDeals(view('dv_1', 'At risk (weekly)', { filters: { stageIn: ['Risk'] } }));
    expect(diffOf(now, landed, base).changes).toEqual([]);
    const twoBase = manifests(deal('A', risk, 1), deal('B', risk, 10));
    const planned = diffOf(manifests(deal('C', risk, 1)), liveDeals(view('dv_a', 'A'), view('dv_b', 'B')), twoBase);
    expect(planned.changes).toEqual([]);
    expect(planned.held?.map((held) => [held.code, held.reason, held.wayOut])).toEqual([
      [
        'view.rename-ambiguous',
        'DealView "C" (views/deals.yaml:2) may be the rename of "A" (views/deals.yaml:1) or "B" (views/deals.yaml:10) at --base, and the documents do not tell which: the rename is held, no view is changed',
        'bind the document to the view it renames with `viewId: dv_a` (or dv_b)',
      ],
    ]);
  });
});
