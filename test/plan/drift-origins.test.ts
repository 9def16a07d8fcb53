import { describe, expect, it } from 'vitest';
import type { Desired, DesiredPinGroup } from '../../src/domain/desired.js';
import { planWorkspace, type PlanWorkspaceOptions } from '../../src/flows/plan-workspace.js';
import {
  membersLastSeen,
  originDecision,
  pendingLists,
  planOrigins,
  reachedSinceRead,
  type AppliedManifests,
  type OriginInputs,
} from '../../src/plan/drift-origins.js';
import type { Change } from '../../src/plan/types.js';
import type { Plan } from '../../src/plan/types.js';
import { emptyMemory, type SweepMemory } from '../../src/state/sweep-memory.js';
import type { Live } from '../../src/state/types.js';
import { pinsKey } from '../../src/state/types.js';
import { at, declared, emptyDesired, emptyLive, pinsOf, view } from './fixtures.js';
import { liveClient } from './live-client.js';

/**
 * Which origins a plan labels, and how sure it is (README, "Drift: who, what, when"):
 * the rule as a table, then through planWorkspace with a sweep memory written by hand.
 */

const HEAD = 'h'.repeat(40);
const OLD = 'o'.repeat(40);
const REF = 'r'.repeat(40);

function memory(extra: Partial<SweepMemory> = {}): SweepMemory {
  return { ...emptyMemory(), ...extra };
}

const applied = (commit: string): SweepMemory => memory({ lastApplied: { commit, at: '2026-11-20T02:00:00Z' } });
const current: AppliedManifests = { state: 'current', commit: HEAD };
const older: AppliedManifests = { state: 'older', commit: OLD, desired: emptyDesired() };

describe('originDecision, the rule as a table', () => {
  const rows: [string, OriginInputs, ReturnType<typeof originDecision>][] = [
    ['plain plan, no memory: nothing labelled', { budget: false }, undefined],
    ['sweep, no memory: every change, hedged', { budget: true }, { against: 'manifests', baseIsLastApplied: false }],
    [
      'plain plan with a memory that knows no apply: hedged',
      { budget: false, memory: memory() },
      { against: 'manifests', baseIsLastApplied: false },
    ],
    [
      'sweep, last applied is HEAD (clean): every change, sure',
      { budget: true, memory: applied(HEAD), applied: current },
      { against: 'manifests', baseIsLastApplied: true },
    ],
    [
      'plain plan, last applied is HEAD: the same',
      { budget: false, memory: applied(HEAD), applied: current },
      { against: 'manifests', baseIsLastApplied: true },
    ],
    [
      'sweep, last applied is older: against its manifests, sure',
      { budget: true, memory: applied(OLD), applied: older },
      { against: 'last-applied', baseIsLastApplied: true },
    ],
    [
      'sweep, last applied could not be loaded: hedged',
      { budget: true, memory: applied(OLD), applied: { state: 'unloadable', commit: OLD, reason: 'gone' } },
      { against: 'manifests', baseIsLastApplied: false },
    ],
    [
      'what was found of another commit than the memory names is not used',
      { budget: true, memory: applied(OLD), applied: current },
      { against: 'manifests', baseIsLastApplied: false },
    ],
    ['--base, no memory: hedged', { baseCommit: REF, budget: false }, { against: 'ref', baseIsLastApplied: false }],
    [
      '--base, memory says REF was last applied: sure',
      { baseCommit: REF, budget: false, memory: applied(REF) },
      { against: 'ref', baseIsLastApplied: true },
    ],
    [
      '--base, memory says another commit was last applied: hedged',
      { baseCommit: REF, budget: true, memory: applied(OLD), applied: older },
      { against: 'ref', baseIsLastApplied: false },
    ],
  ];
  it.each(rows)('%s', (_name, inputs, decision) => {
    expect(originDecision(inputs)).toEqual(decision);
  });

  it('reads the members last seen as users, and none when the memory saw none (no one is known to have joined)', () => {
    expect(membersLastSeen(undefined)).toBeUndefined();
    expect(membersLastSeen(memory())).toBeUndefined();
    expect(
      membersLastSeen(
        memory({ members: { 'mia@acme.com': { role: 'Admin', state: 'Active', lastSeen: '2026-11-20T02:00:00Z' } } }),
      ),
    ).toEqual([expect.objectContaining({ email: 'mia@acme.com', role: 'Admin', state: 'Active' })]);
  });
});

/** A workspace where Mia re-ordered her deals tabs in the app, and a group "Sales" gives every m* member the same tabs. */
function scenario(): { desired: Desired; live: Live } {
  const live = emptyLive();
  const pipeline = view('dv_1', 'Pipeline');
  const forecast = view('dv_2', 'Forecast');
  live.views.deals = [pipeline, forecast, ...(live.views.deals ?? [])];
  live.pins = {
    [pinsKey('deals', 'mia@acme.com')]: [forecast, pipeline],
    [pinsKey('deals', 'max@acme.com')]: [pipeline],
  };
  const desired = emptyDesired();
  desired.pins = [pinsOf('mia@acme.com', 'deals', [{ name: 'Pipeline' }, { name: 'Forecast' }])];
  const group: DesiredPinGroup = {
    group: { name: 'Sales', source: at('pins/sales.yaml') },
    users: [{ pattern: 'max@acme.com', isGlob: false, source: at('pins/sales.yaml', 3) }],
    roles: [],
    domain: 'deals',
    refs: [{ name: 'Pipeline' }, { name: 'Forecast' }],
    unpinPrivate: false,
    source: at('pins/sales.yaml', 5),
    refSources: [at('pins/sales.yaml', 6), at('pins/sales.yaml', 7)],
  };
  desired.pinGroups = [group];
  return { desired, live };
}

async function sweep(options: PlanWorkspaceOptions, change?: (desired: Desired) => void): Promise<Plan> {
  const { desired, live } = scenario();
  change?.(desired);
  const { client } = liveClient(live);
  return (await planWorkspace(desired, client, options)).plan;
}

const origins = (plan: Plan): string[] =>
  plan.changes.map(
    (change) => `${change.name} ${change.origin ?? 'own'}${change.since === undefined ? '' : ` since ${change.since}`}`,
  );

const READ = '2026-11-21T02:00:00Z';
const members: SweepMemory['members'] = Object.fromEntries(
  ['ops', 'mia', 'max', 'zoe'].map((name) => [
    `${name}@acme.com`,
    { role: 'Member' as const, state: 'Active' as const, lastSeen: READ },
  ]),
);

describe('origins through planWorkspace, with a memory written by hand', () => {
  it('a plain plan without memory labels nothing and has no drift record', async () => {
    const plan = await sweep({});
    expect(origins(plan)).toEqual(['max@acme.com own', 'mia@acme.com own']);
    expect(plan.drifted).toBeUndefined();
  });

  it('a sweep without memory labels every difference "not applied or changed outside", and counts it as drift', async () => {
    const plan = await sweep({ scope: { budget: 100 } });
    expect(origins(plan)).toEqual(['max@acme.com unapplied-or-outside', 'mia@acme.com unapplied-or-outside']);
    expect(plan.drifted).toEqual({ changes: 2 });
  });

  it("a sweep whose last applied commit is the manifests' HEAD: outside, dated by the last read; a member the memory never saw is a joiner (membership)", async () => {
    const seen = { ...members };
    delete seen['max@acme.com'];
    const plan = await sweep({
      scope: { budget: 100 },
      memory: {
        ...applied(HEAD),
        members: seen,
        lists: { [pinsKey('deals', 'mia@acme.com')]: { lastRead: READ, viewIds: ['dv_1', 'dv_2'] } },
      },
      applied: current,
    });
    expect(origins(plan)).toEqual(['max@acme.com membership', `mia@acme.com outside since ${READ}`]);
    expect(plan.drifted).toEqual({ changes: 2, lastApplied: { commit: HEAD, at: '2026-11-20T02:00:00Z' } });
  });

  it('the same with every member last seen: Max, reached then too, changed his tabs in the app (outside)', async () => {
    const plan = await sweep({ scope: { budget: 100 }, memory: { ...applied(HEAD), members }, applied: current });
    expect(origins(plan)).toEqual(['max@acme.com outside', 'mia@acme.com outside']);
  });

  it('a target held at the last apply is never labelled changed outside: no reviewer saw its change, and self-heal leaves it', async () => {
    const unheld = await sweep({ scope: { budget: 100 }, memory: { ...applied(HEAD), members }, applied: current });
    const target = unheld.changes.find((change) => change.name === 'max@acme.com')?.target;
    if (target === undefined) throw new Error('no change of Max');
    const plan = await sweep({
      scope: { budget: 100 },
      memory: { ...memory({ members }), lastApplied: { commit: HEAD, at: '2026-11-20T02:00:00Z', held: [target] } },
      applied: current,
    });
    expect(origins(plan)).toEqual(['max@acme.com unapplied-or-outside', 'mia@acme.com outside']);
  });

  it('a last applied commit older than the manifests: what they changed since is merged, not yet applied (no origin), and counted apart', async () => {
    // At the last applied commit Mia's document asked Forecast first, as her list is: the manifests changed it since.
    const { desired: before } = scenario();
    before.pins = [pinsOf('mia@acme.com', 'deals', [{ name: 'Forecast' }, { name: 'Pipeline' }])];
    const plan = await sweep({
      scope: { budget: 100 },
      memory: { ...applied(OLD), members },
      applied: { state: 'older', commit: OLD, desired: before },
    });
    expect(origins(plan)).toEqual(['max@acme.com outside', 'mia@acme.com own']);
    expect(plan.drifted).toEqual({
      changes: 1,
      lastApplied: { commit: OLD, at: '2026-11-20T02:00:00Z' },
      unapplied: 1,
    });
  });

  it('--base REF is sure (outside) only when the memory says REF is the last applied commit', async () => {
    // A view edited in the app: the manifests ask the same of it at REF and now.
    const edited = (desired: Desired): void => {
      desired.views = [declared('deals', 'Pipeline', { icon: 'star' })];
    };
    const { desired } = scenario();
    edited(desired);
    const base = { ref: 'origin/main', commit: REF, desired };
    const sure = await sweep(
      {
        scope: { base },
        memory: {
          ...applied(REF),
          members,
          views: { 'view:deals:id:dv_1': { domain: 'deals', id: 'dv_1', name: 'Pipeline', lastSeen: READ } },
        },
      },
      edited,
    );
    expect(origins(sure)).toEqual([`Pipeline outside since ${READ}`]);
    expect(sure.changes[0]).toMatchObject({ ownerId: 'u_ops', ownerEmail: 'ops@acme.com' });
    expect(sure.drifted).toEqual({ changes: 1 });
    const hedged = await sweep({ scope: { base }, memory: { ...applied(OLD), members } }, edited);
    expect(origins(hedged)).toEqual(['Pipeline unapplied-or-outside']);
  });

  it('--base REF with the members last seen: a joiner is membership, known, not hedged', async () => {
    const { desired, live } = scenario();
    const { plan } = await planWorkspace(desired, liveClient(live).client);
    const seen = { ...members };
    delete seen['max@acme.com'];
    const labels = planOrigins(desired, live, {
      baseCommit: REF,
      base: desired,
      budget: false,
      memory: { ...applied(REF), members: seen },
    });
    expect(plan.changes.map((change) => labels?.origin(change))).toEqual(['membership', 'outside']);
    const unknown = planOrigins(desired, live, { baseCommit: REF, base: desired, budget: false, memory: applied(REF) });
    expect(plan.changes.map((change) => unknown?.origin(change))).toEqual(['unapplied-or-outside', 'outside']);
  });
});

describe("reachedSinceRead: a group's new member's tabs are membership, even after another run refreshed the members last seen", () => {
  const KEY = 'deals:rep@acme.com';
  const tab = (viewId: string): { viewId: string; name: string; visibility: 'Public'; isDefault: false } => ({
    viewId,
    name: viewId,
    visibility: 'Public',
    isDefault: false,
  });
  const change = (extra: Record<string, unknown> = {}): Change =>
    ({
      action: 'pin',
      target: `pins:${KEY}`,
      kind: 'PinnedViews',
      name: 'rep@acme.com',
      domain: 'deals',
      userEmail: 'rep@acme.com',
      group: 'Sales',
      source: at('pins/sales.yaml'),
      before: [tab('v1')],
      after: [tab('v2')],
      unpinPrivate: false,
      ...extra,
    }) as unknown as Change;
  const member = (since?: string): SweepMemory['members'] => ({
    'rep@acme.com': {
      role: 'Member',
      state: 'Active',
      lastSeen: '2026-11-21T14:00:00Z',
      ...(since === undefined ? {} : { since }),
    },
  });
  const label = (memory: SweepMemory, subject = change()): string | undefined =>
    reachedSinceRead(() => 'outside', memory)(subject);

  it("relabels only a group's list whose member joined or changed after it was last read, or which the last read found pending and is unchanged since", () => {
    expect(label({ ...emptyMemory(), members: member('2026-11-21T14:00:00Z') })).toBe('membership');
    expect(
      label({
        ...emptyMemory(),
        members: member('2026-11-21T14:00:00Z'),
        lists: { [KEY]: { lastRead: '2026-11-20T02:00:00Z', viewIds: ['v1'] } },
      }),
    ).toBe('membership');
    // Read after they joined: what differs now was changed in the app, unless that read found it pending and it is unchanged.
    expect(
      label({
        ...emptyMemory(),
        members: member('2026-11-21T14:00:00Z'),
        lists: { [KEY]: { lastRead: '2026-11-22T02:00:00Z', viewIds: ['v1'] } },
      }),
    ).toBe('outside');
    expect(
      label({
        ...emptyMemory(),
        members: member('2026-11-21T14:00:00Z'),
        lists: { [KEY]: { lastRead: '2026-11-22T02:00:00Z', viewIds: ['v1'], pending: 'membership' } },
      }),
    ).toBe('membership');
    expect(
      label({
        ...emptyMemory(),
        members: member('2026-11-21T14:00:00Z'),
        lists: { [KEY]: { lastRead: '2026-11-22T02:00:00Z', viewIds: ['v9'], pending: 'membership' } },
      }),
    ).toBe('outside');
    // Unknown since (an older memory, or the member was there at the memory's first users read), a userEmail document's list, no memory: unchanged.
    expect(label({ ...emptyMemory(), members: member() })).toBe('outside');
    expect(label({ ...emptyMemory(), members: member('2026-11-21T14:00:00Z') }, change({ group: undefined }))).toBe(
      'outside',
    );
    expect(reachedSinceRead(() => 'outside', undefined)(change())).toBe('outside');
    // The pull request's own change stays its own.
    expect(
      reachedSinceRead(() => undefined, { ...emptyMemory(), members: member('2026-11-21T14:00:00Z') })(change()),
    ).toBeUndefined();
  });

  it("labels membership a never-read list of the built-in defaults only: a joiner the memory's first users read saw, whose group tabs were never written", () => {
    const defaults = change({
      before: [{ viewId: 'dv_all', name: 'All deals', visibility: 'Public', isDefault: true }],
    });
    expect(label({ ...emptyMemory(), members: member() }, defaults)).toBe('membership');
    // Read before (as it is now, or otherwise): the memory knows the list; tabs of their own: someone set them.
    expect(
      label(
        {
          ...emptyMemory(),
          members: member(),
          lists: { [KEY]: { lastRead: '2026-11-22T02:00:00Z', viewIds: ['dv_all'] } },
        },
        defaults,
      ),
    ).toBe('outside');
    expect(label({ ...emptyMemory(), members: member() })).toBe('outside');
    // Found pending at its first read, and unchanged since: still the membership's.
    expect(
      label(
        {
          ...emptyMemory(),
          members: member(),
          lists: { [KEY]: { lastRead: '2026-11-22T02:00:00Z', viewIds: ['dv_all'], pending: 'membership' } },
        },
        change({ before: [{ viewId: 'dv_all', name: 'All deals', visibility: 'Public', isDefault: true }] }),
      ),
    ).toBe('membership');
    // A member's own document: the group does not reach them.
    expect(label({ ...emptyMemory(), members: member() }, { ...defaults, group: undefined } as Change)).toBe('outside');
  });

  it("names as pending the lists whose change is the membership's", () => {
    expect([
      ...pendingLists([
        change({ origin: 'membership' }),
        change({ target: 'pins:deals:ann@acme.com', origin: 'outside' }),
      ]),
    ]).toEqual([KEY]);
  });
});
