import { describe, expect, it } from 'vitest';
import { driftCause, driftGroups, driftPlan } from '../../src/plan/drift-causes.js';
import type { Change, ChangeOrigin, PinChange, PinnedTab, UpdateChange } from '../../src/plan/types.js';
import { at } from './fixtures.js';

/** How drift is told by cause (README, "Drift: who, what, when"): from the change alone, before (live) against after (asked). */

const tab = (viewId: string, visibility: PinnedTab['visibility'] = 'Public'): PinnedTab => ({
  viewId,
  name: viewId,
  visibility,
  isDefault: false,
});

export function pinDrift(member: string, before: string[], after: string[], extra: Partial<PinChange> = {}): PinChange {
  return {
    action: 'pin',
    kind: 'PinnedViews',
    name: member,
    target: `pins:${extra.domain ?? 'deals'}:${member}`,
    domain: 'deals',
    userEmail: member,
    before: before.map((id) => tab(id)),
    after: after.map((id) => tab(id)),
    source: at('pins/sales.yaml', 4),
    origin: 'outside',
    ...extra,
  };
}

export function viewDrift(id: string, patchPaths: string[], origin: ChangeOrigin = 'outside'): UpdateChange {
  const snapshot = { name: id, columns: [], filters: {}, sort: [] };
  return {
    action: 'update',
    kind: 'DealView',
    name: id,
    target: `view:deals:id:${id}`,
    domain: 'deals',
    id,
    before: snapshot,
    after: snapshot,
    patch: patchPaths.map((path) => ({ op: 'replace', path, value: 'x' })),
    origin,
  };
}

describe('driftCause, as a table', () => {
  const rows: [string, Change, ReturnType<typeof driftCause>][] = [
    ['the same tabs in another order', pinDrift('a@x.com', ['dv_2', 'dv_1'], ['dv_1', 'dv_2']), 'reordered'],
    ['a tab the manifests do not list', pinDrift('a@x.com', ['dv_1', 'dv_3', 'dv_2'], ['dv_1', 'dv_2']), 'added'],
    ['a listed tab gone', pinDrift('a@x.com', ['dv_1'], ['dv_1', 'dv_2']), 'removed'],
    ['one swapped for another', pinDrift('a@x.com', ['dv_1', 'dv_3'], ['dv_1', 'dv_2']), 'added-and-removed'],
    [
      "private tabs are the member's: not a cause",
      {
        ...pinDrift('a@x.com', ['dv_2', 'dv_1'], ['dv_1', 'dv_2']),
        before: [tab('p_1', 'Private'), tab('dv_2'), tab('dv_1')],
        after: [tab('p_1', 'Private'), tab('dv_1'), tab('dv_2')],
      },
      'reordered',
    ],
    [
      'a private tab pinned in the app that unpinPrivate takes off, the others in order: added, not re-ordered',
      {
        ...pinDrift('a@x.com', ['dv_1', 'dv_2'], ['dv_1', 'dv_2']),
        before: [tab('p_1', 'Private'), tab('dv_1'), tab('dv_2')],
      },
      'added',
    ],
    [
      'a view created by this plan, not yet pinned: removed',
      {
        ...pinDrift('a@x.com', ['dv_1'], ['dv_1']),
        after: [tab('dv_1'), { viewId: null, name: 'New', visibility: 'Public', isDefault: false }],
      },
      'removed',
    ],
    ["a view's name only", viewDrift('dv_1', ['/name']), 'renamed'],
    ["a view's attributes", viewDrift('dv_1', ['/filters/statusIn']), 'edited'],
    ["a view's name and attributes", viewDrift('dv_1', ['/name', '/icon']), 'edited'],
    [
      'a joiner: membership, whatever the tabs',
      pinDrift('a@x.com', [], ['dv_1'], { origin: 'membership' }),
      'membership',
    ],
    ["the pull request's own: no cause", { ...viewDrift('dv_1', ['/name']), origin: undefined } as Change, undefined],
  ];
  it.each(rows)('%s', (_name, change, cause) => {
    expect(driftCause(change)).toBe(cause);
  });
});

describe('tabs that went with a view deleted in the app', () => {
  const recreate: Change = {
    action: 'create',
    kind: 'DealView',
    name: 'Stalled',
    target: 'view:deals:name:Stalled',
    domain: 'deals',
    before: null,
    after: { name: 'Stalled', columns: [], filters: {}, sort: [] },
    origin: 'outside',
    deletedOutside: { id: 'dv_stalled', lastSeen: '2026-04-07T06:00:00.000Z' },
  };
  const lost = (member: string, extra: string[] = []): PinChange => ({
    ...pinDrift(member, ['dv_1', ...extra], ['dv_1']),
    after: [tab('dv_1'), { viewId: null, name: 'Stalled', visibility: 'Public', isDefault: false }],
  });

  it('are lost with the view, not removed by the member, when the plan creates it again; removed otherwise', () => {
    const plan = driftPlan([recreate, lost('a@x.com')]);
    expect(plan.recreated).toEqual(new Set(['deals\u0000Stalled']));
    expect(driftCause(lost('a@x.com'), plan)).toBe('lost-with-view');
    // A view the manifests add (no deletion in the app) missing from a list: removed, as before.
    expect(driftCause(lost('a@x.com'), driftPlan([{ ...recreate, deletedOutside: undefined } as Change]))).toBe(
      'removed',
    );
    // Another listed tab missing too: the member removed something as well.
    const both = { ...lost('a@x.com'), after: [...lost('a@x.com').after, tab('dv_2')] };
    expect(driftCause(both, plan)).toBe('removed');
  });

  it('are grouped apart from the members who removed tabs, whichever section the create is in', () => {
    const removedByHand = pinDrift('c@x.com', ['dv_1'], ['dv_1', 'dv_2']);
    const groups = driftGroups([lost('a@x.com'), lost('b@x.com'), removedByHand], [recreate, lost('a@x.com')]);
    expect(groups.map((group) => [group.cause, group.changes.map((change) => change.name)])).toEqual([
      ['removed', ['c@x.com']],
      ['lost-with-view', ['a@x.com', 'b@x.com']],
    ]);
  });
});

describe('driftGroups', () => {
  it('groups by cause, origin and domain or kind (and group, for joiners), in a fixed order of causes, each change once', () => {
    const changes: Change[] = [
      viewDrift('dv_9', ['/name']),
      pinDrift('a@x.com', ['dv_2', 'dv_1'], ['dv_1', 'dv_2']),
      pinDrift('b@x.com', ['dv_2', 'dv_1'], ['dv_1', 'dv_2']),
      pinDrift('c@x.com', ['dv_2', 'dv_1'], ['dv_1', 'dv_2'], { domain: 'recordings' }),
      pinDrift('d@x.com', ['dv_2', 'dv_1'], ['dv_1', 'dv_2'], { origin: 'unapplied-or-outside' }),
      pinDrift('e@x.com', [], ['dv_1'], { origin: 'membership', group: 'Sales' }),
      pinDrift('f@x.com', [], ['dv_1'], { origin: 'membership', group: 'Support' }),
      { ...pinDrift('g@x.com', ['dv_2', 'dv_1'], ['dv_1', 'dv_2']), origin: undefined } as Change,
    ];
    const groups = driftGroups(changes).map((group) => [
      group.cause,
      group.origin,
      group.scope,
      group.group ?? '-',
      group.changes.map((change) => change.name).join(' '),
    ]);
    expect(groups).toEqual([
      ['reordered', 'outside', 'deals', '-', 'a@x.com b@x.com'],
      ['reordered', 'outside', 'recordings', '-', 'c@x.com'],
      ['reordered', 'unapplied-or-outside', 'deals', '-', 'd@x.com'],
      ['renamed', 'outside', 'DealView', '-', 'dv_9'],
      ['membership', 'membership', 'deals', 'Sales', 'e@x.com'],
      ['membership', 'membership', 'deals', 'Support', 'f@x.com'],
    ]);
  });
});
