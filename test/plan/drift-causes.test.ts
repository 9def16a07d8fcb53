import { describe, expect, it } from 'vitest';
import { driftCause, driftGroups } from '../../src/plan/drift-causes.js';
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
