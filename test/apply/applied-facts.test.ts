import { describe, expect, it } from 'vitest';
import { appliedFacts } from '../../src/apply/applied-facts.js';
import type { ApplyReport } from '../../src/apply/report.js';
import { viewDigests } from '../../src/kinds/view-sweep-memory.js';
import type { Change } from '../../src/plan/types.js';

const snapshot = (name: string) => ({ name, columns: [], filters: {}, sort: [] });
/** written are the memory's digests of a view written as `snapshot` gives it (its name aside, all alike). */
const written = (domain: 'deals' | 'companies') => viewDigests(domain, snapshot(''));
const tab = (viewId: string | null, name: string) => ({
  viewId,
  name,
  visibility: 'Public' as const,
  isDefault: false,
});

const changes: Change[] = [
  {
    action: 'create',
    target: 'view:deals:name:New',
    kind: 'DealView',
    name: 'New',
    domain: 'deals',
    before: null,
    after: snapshot('New'),
  },
  {
    action: 'update',
    target: 'view:deals:id:v1',
    kind: 'DealView',
    name: 'Renamed',
    domain: 'deals',
    id: 'v1',
    before: snapshot('Old'),
    after: snapshot('Renamed'),
    patch: [],
  },
  {
    action: 'delete',
    target: 'view:deals:id:v9',
    kind: 'DealView',
    name: 'Gone',
    domain: 'deals',
    id: 'v9',
    before: snapshot('Gone'),
    after: null,
    reason: 'prune',
    ownerId: 'u_1',
    pinnedBy: [],
  },
  {
    action: 'pin',
    target: 'pins:deals:ann@example.com',
    kind: 'PinnedViews',
    name: 'ann@example.com',
    domain: 'deals',
    userEmail: 'Ann@example.com',
    before: [tab('v9', 'Gone')],
    after: [tab(null, 'New'), tab('p1', 'Mine'), tab('v1', 'Renamed')],
  },
  {
    action: 'pin',
    target: 'pins:deals:bob@example.com',
    kind: 'PinnedViews',
    name: 'bob@example.com',
    domain: 'deals',
    userEmail: 'bob@example.com',
    before: [],
    after: [tab('v1', 'Renamed')],
  },
  {
    action: 'pin',
    target: 'pins:deals:cy@example.com',
    kind: 'PinnedViews',
    name: 'cy@example.com',
    domain: 'deals',
    userEmail: 'cy@example.com',
    before: [],
    after: [tab('v1', 'Renamed')],
  },
] as Change[];

type Entry = ApplyReport['landed'][number];
const entry = (action: Entry['action'], name: string, extra: Partial<Entry> = {}): Entry => ({
  action,
  kind: action === 'pin' ? 'PinnedViews' : 'DealView',
  name,
  domain: 'deals',
  ...extra,
});

describe('appliedFacts', () => {
  it('turns what landed into lists written (new views by their new ids), views seen and views deleted', () => {
    const report = {
      landed: [
        entry('create', 'New', { id: 'v7' }),
        entry('update', 'Renamed', { id: 'v1' }),
        entry('pin', 'Ann@example.com deals', { userEmail: 'Ann@example.com' }),
        entry('delete', 'Gone', { id: 'v9' }),
      ],
      // An earlier run's pin, already live as the plan leaves it: known as well as one sent now.
      alreadyApplied: [entry('pin', 'bob@example.com deals', { userEmail: 'bob@example.com' })],
    };
    expect(appliedFacts({ changes }, report)).toEqual({
      lists: { 'deals:ann@example.com': ['v7', 'p1', 'v1'], 'deals:bob@example.com': ['v1'] },
      seen: [
        { domain: 'deals', id: 'v7', name: 'New', digests: written('deals') },
        { domain: 'deals', id: 'v1', name: 'Renamed', digests: written('deals') },
      ],
      deleted: [{ domain: 'deals', id: 'v9' }],
    });
  });

  it('leaves out a list naming a view whose create did not land (its id is unknown), and whatever did not land', () => {
    const report = {
      landed: [entry('pin', 'Ann@example.com deals', { userEmail: 'Ann@example.com' })],
      alreadyApplied: [],
    };
    expect(appliedFacts({ changes }, report)).toEqual({ lists: {}, seen: [], deleted: [] });
  });

  it("takes each entry's change by the subject it names: two views of one name by their ids or domains, one member's lists by their domains", () => {
    const update = (id: string, after: string): Change => ({
      ...(changes[1] as Change & { action: 'update' }),
      target: `view:deals:id:${id}`,
      id,
      name: 'Board',
      after: snapshot(after),
    });
    const create = (domain: 'deals' | 'companies'): Change => ({
      ...(changes[0] as Change & { action: 'create' }),
      target: `view:${domain}:name:Board`,
      kind: domain === 'deals' ? 'DealView' : 'CompanyView',
      name: 'Board',
      domain,
      after: snapshot('Board'),
    });
    const list = (domain: 'deals' | 'companies', id: string | null): Change => ({
      ...(changes[4] as Change & { action: 'pin' }),
      target: `pins:${domain}:bob@example.com`,
      domain,
      after: [tab(id, 'Board')],
    });
    const twins = [
      update('v1', 'Board one'),
      update('v2', 'Board two'),
      create('deals'),
      create('companies'),
      list('deals', 'v1'),
      list('companies', null),
    ];
    const report = {
      landed: [
        entry('update', 'Board', { id: 'v2' }),
        entry('update', 'Board', { id: 'v1' }),
        entry('create', 'Board', { domain: 'companies', id: 'c7' }),
        entry('pin', 'bob@example.com companies', { domain: 'companies', userEmail: 'bob@example.com' }),
      ],
      alreadyApplied: [],
    };
    expect(appliedFacts({ changes: twins }, report)).toEqual({
      lists: { 'companies:bob@example.com': ['c7'] },
      seen: [
        { domain: 'deals', id: 'v2', name: 'Board two', digests: written('deals') },
        { domain: 'deals', id: 'v1', name: 'Board one', digests: written('deals') },
        { domain: 'companies', id: 'c7', name: 'Board', digests: written('companies') },
      ],
      deleted: [],
    });
  });
});
