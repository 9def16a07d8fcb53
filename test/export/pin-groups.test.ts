import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ApiUser, ApiView } from '../../src/domain/api-types.js';
import { DOMAINS, type Domain } from '../../src/domain/domains.js';
import { groupPinLists, type PinDocumentPlan } from '../../src/export/pin-groups.js';
import { globCandidates } from '../../src/export/pin-reach.js';
import { pinDocumentMatcher } from '../../src/export/pin-coverage.js';

/**
 * The documents `export --pins groups` proposes must give every member, by the
 * manifests' rules (a member's document wins over groups; two groups reaching one member
 * in one domain are an error; a group keeps each member's private tabs ahead of its
 * list), exactly the list they have live, and manage no one else's list.
 */

function view(viewId: string, visibility: 'Public' | 'Private', isDefault = false): ApiView {
  return {
    viewId,
    name: viewId,
    visibility,
    isDefault,
    ownerId: isDefault ? '#global' : 'u',
    columns: [],
    filters: {},
    sort: [],
  };
}

const DEFAULTS = [view('d1', 'Public', true), view('d2', 'Public', true)];
const PUBLIC = ['p1', 'p2', 'p3', 'p4'].map((id) => view(id, 'Public'));
const LISTING = [...PUBLIC, ...DEFAULTS];
/** A few lists many members share, as teams do. */
const SHARED = [['p1', 'p2'], ['p3', 'd1', 'p1'], ['p4']];

/** ListSeed is how one member's list of one domain is made. */
type ListSeed =
  | { kind: 'defaults' }
  | { kind: 'empty' }
  | { kind: 'shared'; index: number; privateAt?: number }
  | { kind: 'own'; picks: number[]; privateAt?: number };

const listSeed: fc.Arbitrary<ListSeed> = fc.oneof(
  { weight: 2, arbitrary: fc.constant({ kind: 'defaults' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'empty' as const }) },
  {
    weight: 6,
    arbitrary: fc.record(
      { kind: fc.constant('shared' as const), index: fc.nat(SHARED.length - 1), privateAt: fc.nat(3) },
      { requiredKeys: ['kind', 'index'] },
    ),
  },
  {
    weight: 2,
    arbitrary: fc.record(
      {
        kind: fc.constant('own' as const),
        picks: fc.uniqueArray(fc.nat(LISTING.length - 1), { maxLength: 4 }),
        privateAt: fc.nat(3),
      },
      { requiredKeys: ['kind', 'picks'] },
    ),
  },
);

const memberSeed: fc.Arbitrary<MemberSeed> = fc.record({
  team: fc.constantFrom('sales.acme.test', 'cs.acme.test', 'acme.test'),
  prefix: fc.constantFrom('ae.', 'sdr-', '', 'x*y.'),
  role: fc.constantFrom('Owner', 'Admin', 'Member', 'Member', 'Member'),
  state: fc.constantFrom('Active', 'Active', 'Active', 'Active', 'Invited', 'Deactivated'),
  exported: fc.boolean(),
  lists: fc.tuple(listSeed, listSeed, listSeed, listSeed),
});

/** MemberSeed is one generated member: mail team, address prefix, role, state, and a list seed per domain. */
interface MemberSeed {
  team: string;
  prefix: string;
  role: string;
  state: string;
  exported: boolean;
  lists: [ListSeed, ListSeed, ListSeed, ListSeed];
}

interface Workspace {
  everyone: ApiUser[];
  members: ApiUser[];
  lists: Map<string, ApiView[]>;
}

function build(seeds: MemberSeed[], allExported: boolean): Workspace {
  const everyone: ApiUser[] = [];
  const members: ApiUser[] = [];
  const lists = new Map<string, ApiView[]>();
  seeds.forEach((seed, index) => {
    const user = {
      id: `u${index}`,
      email: `${seed.prefix}m${index}@${seed.team}`,
      name: '',
      role: seed.role,
      state: seed.state,
    } as ApiUser;
    everyone.push(user);
    if (seed.state !== 'Active' || !(allExported || seed.exported)) return;
    members.push(user);
    for (const [at, domain] of DOMAINS.entries()) lists.set(`${domain} ${user.id}`, listOf(seed.lists[at], user));
  });
  return { everyone, members, lists };
}

function listOf(seed: ListSeed | undefined, user: ApiUser): ApiView[] {
  if (seed === undefined || seed.kind === 'empty') return [];
  if (seed.kind === 'defaults') return [...DEFAULTS];
  const tabs =
    seed.kind === 'shared'
      ? (SHARED[seed.index] ?? []).map((id) => LISTING.find((candidate) => candidate.viewId === id) as ApiView)
      : seed.picks.map((pick) => LISTING[pick] as ApiView);
  if (seed.privateAt === undefined) return tabs;
  const own = view(`private_${user.id}`, 'Private');
  return [...tabs.slice(0, seed.privateAt), own, ...tabs.slice(seed.privateAt)];
}

/** effectiveList is what the manifests' rules make of `user`'s list in `domain`, or undefined when unmanaged. */
function effectiveList(
  documents: readonly PinDocumentPlan[],
  user: ApiUser,
  domain: Domain,
  live: readonly ApiView[],
): string[] | undefined {
  const own = documents.find((document) => document.kind === 'member' && document.user.id === user.id);
  const ownTabs = own?.tabs[domain];
  if (ownTabs !== undefined) return ownTabs.map((tab) => tab.viewId);
  const groups = documents.filter(
    (document) =>
      document.kind === 'group' &&
      document.tabs[domain] !== undefined &&
      pinDocumentMatcher({
        users: 'users' in document.reach ? document.reach.users : [],
        roles: 'roles' in document.reach ? document.reach.roles : [],
      })(user),
  );
  expect(groups.length, `groups reaching ${user.email} in ${domain}`).toBeLessThanOrEqual(1);
  const [group] = groups;
  if (group === undefined) return undefined;
  const kept = live.filter((tab) => tab.visibility === 'Private' && !tab.isDefault);
  return [...kept, ...(group.tabs[domain] ?? [])].map((tab) => tab.viewId);
}

function checkGrouping(workspace: Workspace): PinDocumentPlan[] {
  const { documents } = groupPinLists({
    members: workspace.members,
    everyone: workspace.everyone,
    listOf: (domain, user) => workspace.lists.get(`${domain} ${user.id}`),
    listings: Object.fromEntries(DOMAINS.map((domain) => [domain, LISTING])),
  });
  const exported = new Set(workspace.members.map((user) => user.id));
  for (const user of workspace.everyone.filter((candidate) => candidate.state === 'Active')) {
    for (const domain of DOMAINS) {
      const live = workspace.lists.get(`${domain} ${user.id}`) ?? [];
      const effective = effectiveList(documents, user, domain, live);
      const liveIds = live.map((tab) => tab.viewId);
      if (!exported.has(user.id)) expect(effective, `${user.email} was not exported`).toBeUndefined();
      else if (effective === undefined)
        expect(liveIds.length === 0 || liveIds.join() === 'd1,d2', `${user.email} ${domain}: ${liveIds}`).toBe(true);
      else expect(effective, `${user.email} ${domain}`).toEqual(liveIds);
    }
  }
  const names = documents.flatMap((document) => (document.kind === 'group' ? [document.name] : []));
  expect(new Set(names).size).toBe(names.length);
  return documents;
}

describe('groupPinLists', () => {
  it('proposes documents that resolve to exactly each member’s live list, and reach no one else (random workspaces)', () => {
    fc.assert(
      fc.property(fc.array(memberSeed, { minLength: 1, maxLength: 30 }), fc.boolean(), (seeds, all) => {
        checkGrouping(build(seeds, all));
      }),
      { numRuns: 400, seed: 20261128 },
    );
  });

  it('writes a shared list once, by the role when it is exactly the role’s members, and a lone list in the member’s own document', () => {
    const seeds = ['Member', 'Member', 'Member', 'Admin'].map((role, index) => ({
      team: 'acme.test',
      prefix: '',
      role,
      state: 'Active',
      exported: true,
      lists: [
        index < 3 ? { kind: 'shared' as const, index: 0 } : { kind: 'own' as const, picks: [3, 2] },
        { kind: 'defaults' as const },
        { kind: 'defaults' as const },
        { kind: 'defaults' as const },
      ] as [ListSeed, ListSeed, ListSeed, ListSeed],
    }));
    const documents = checkGrouping(build(seeds, true));
    expect(documents.map((document) => (document.kind === 'group' ? document.reach : document.user.email))).toEqual([
      { roles: ['Member'] },
      'm3@acme.test',
    ]);
  });

  it('reaches a team by its mail domain, its members with lists of their own excepted by their documents', () => {
    const seeds = [0, 1, 2, 3, 4].map((index) => ({
      team: index < 4 ? 'sales.acme.test' : 'cs.acme.test',
      prefix: '',
      role: 'Member',
      state: 'Active',
      exported: true,
      lists: [
        index === 3
          ? { kind: 'own' as const, picks: [3] }
          : index === 4
            ? { kind: 'defaults' as const }
            : { kind: 'shared' as const, index: 1, privateAt: index === 0 ? 0 : undefined },
        { kind: 'empty' as const },
        { kind: 'empty' as const },
        { kind: 'empty' as const },
      ] as [ListSeed, ListSeed, ListSeed, ListSeed],
    }));
    const documents = checkGrouping(build(seeds, true));
    const group = documents.find((document) => document.kind === 'group');
    expect(group).toMatchObject({
      reach: { users: ['*@sales.acme.test'] },
      exceptions: 1,
      name: 'Users *@sales.acme.test',
    });
    expect(documents.filter((document) => document.kind === 'member')).toHaveLength(1);
  });

  it('proposes the globs a person would write, with the characters of a glob made literal', () => {
    expect(globCandidates(['ae.m1@sales.acme.test', 'ae.m2@sales.acme.test'])).toEqual([
      '*@sales.acme.test',
      'ae.*@sales.acme.test',
    ]);
    expect(globCandidates(['x*y.m1@a.test', 'x*y.m2@a.test'])).toEqual(['*@a.test', 'x\\*y.*@a.test']);
    expect(globCandidates(['a@one.test', 'b@two.test'])).toEqual([]);
  });
});
