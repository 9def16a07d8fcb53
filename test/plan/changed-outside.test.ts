import { describe, expect, it } from 'vitest';
import type { ApiUser } from '../../src/domain/api-types.js';
import type { Desired, DesiredPinGroup, MemberRole } from '../../src/domain/desired.js';
import { computePlan } from '../../src/plan/diff.js';
import { membershipChanged } from '../../src/plan/membership.js';
import { changeOrigins, originOf, type BaseMemory } from '../../src/plan/outside.js';
import type { Live } from '../../src/state/types.js';
import { pinsKey } from '../../src/state/types.js';
import { at, automation, declared, emptyDesired, emptyLive, pinsOf, user, view } from './fixtures.js';

/**
 * The origin of each change of a `--base REF` plan (src/plan/outside.ts,
 * asked-alike.ts, membership.ts): the pull request's own unless the manifests ask the
 * same of the target at REF and now by every route that decides it, and then
 * `outside` only when REF is known to be the last applied state and membership is known
 * not to matter. The changes are the real ones of a plan of `now` against `live`.
 */

const HEDGED: BaseMemory = { baseIsLastApplied: false };
const APPLIED: BaseMemory = { baseIsLastApplied: true };

/** originsOf plans `now` against `live` and labels each change as `label action name origin`. */
function originsOf(base: Desired, now: Desired, live: Live, memory: BaseMemory = HEDGED): string[] {
  const origin = changeOrigins(base, live, memory);
  return computePlan(now, live).plan.changes.map(
    (change) => `${change.action} ${change.name} ${origin(change) ?? 'own'}`,
  );
}

describe('originOf', () => {
  it('is none when REF asks something else, and otherwise asserts outside only when REF was the last apply and membership is known not to matter', () => {
    const cases: [boolean, boolean | undefined, BaseMemory, string | undefined][] = [
      [false, false, APPLIED, undefined],
      [false, true, APPLIED, undefined],
      [true, false, HEDGED, 'unapplied-or-outside'],
      [true, false, APPLIED, 'outside'],
      [true, undefined, HEDGED, 'unapplied-or-outside'],
      [true, undefined, APPLIED, 'unapplied-or-outside'],
      [true, true, HEDGED, 'membership'],
      [true, true, APPLIED, 'membership'],
    ];
    for (const [askedAlike, membership, memory, expected] of cases) {
      expect(originOf({ askedAlike, membershipChanged: membership }, memory)).toBe(expected);
    }
  });
});

describe('changeOrigins: views', () => {
  const live = (): Live => {
    const state = emptyLive();
    state.views.recordings = [
      view('rv_1', 'Calls', { icon: 'phone' }),
      view('rv_2', 'Demos', { icon: 'tv' }),
      ...(state.views.recordings ?? []),
    ];
    return state;
  };

  it('a change committed at REF and never applied (or undone in the app): hedged, and outside once REF is known to be the last apply', () => {
    const now = {
      ...emptyDesired(),
      views: [declared('recordings', 'Calls', { icon: 'telephone' }), declared('recordings', 'Team')],
    };
    const base = structuredClone(now);
    expect(originsOf(base, now, live())).toEqual([
      'create Team unapplied-or-outside',
      'update Calls unapplied-or-outside',
    ]);
    expect(originsOf(base, now, live(), APPLIED)).toEqual(['create Team outside', 'update Calls outside']);
  });

  it("the same document moved to another file asks the same; a new document, other attributes, or REF asking what is live are the pull request's own", () => {
    const now = {
      ...emptyDesired(),
      views: [
        declared('recordings', 'Calls', { icon: 'telephone' }),
        declared('recordings', 'Demos', { icon: 'movie_camera' }),
        declared('recordings', 'Team'),
        declared('recordings', 'Sales', { icon: 'star' }),
      ],
    };
    const base = {
      ...emptyDesired(),
      views: [
        declared('recordings', 'Calls', { icon: 'telephone' }, { source: at('moved.yaml', 9) }),
        // REF asked what Demos is live: the pull request's edit makes the update.
        declared('recordings', 'Demos', { icon: 'tv' }),
        declared('recordings', 'Sales', { icon: 'dollar' }),
      ],
    };
    expect(originsOf(base, now, live())).toEqual([
      'create Sales own',
      'create Team own',
      'update Calls unapplied-or-outside',
      'update Demos own',
    ]);
  });

  it('finds the view an update changes by what REF binds: by id or by name, the same live view asked the same is alike', () => {
    const now = {
      ...emptyDesired(),
      views: [declared('recordings', 'Calls', { icon: 'telephone' }, { viewId: 'rv_1' })],
    };
    const byName = { ...emptyDesired(), views: [declared('recordings', 'Calls', { icon: 'telephone' })] };
    const otherView = {
      ...emptyDesired(),
      views: [declared('recordings', 'Calls', { icon: 'telephone' }, { viewId: 'rv_2' })],
    };
    expect(originsOf(byName, now, live())).toEqual(['update Calls unapplied-or-outside']);
    expect(originsOf(otherView, now, live())).toEqual(['update Calls own']);
  });
});

describe('changeOrigins: prune, by prune, ignore, declared views and creatorEmail', () => {
  const live = (): Live => {
    const state = emptyLive();
    state.views.deals = [
      view('dv_1', 'Pipeline'),
      view('dv_8', 'Scratch'),
      view('dv_9', "Max's board", { ownerId: 'u_max' }),
      ...(state.views.deals ?? []),
    ];
    return state;
  };
  const withViews = (workspace: Partial<Desired['workspace']>, names: string[] = ['Pipeline']): Desired => ({
    ...emptyDesired(workspace),
    views: names.map((name) => declared('deals', name)),
  });

  it('prune: owned, a pull request changing only creatorEmail to the owner of an undeclared view: its deletion is its own', () => {
    const now = withViews({ prune: 'owned', creatorEmail: 'max@acme.com' });
    expect(originsOf(withViews({ prune: 'owned', creatorEmail: 'ops@acme.com' }), now, live())).toEqual([
      "delete Max's board own",
    ]);
    // The address written another way is the same owner.
    expect(originsOf(withViews({ prune: 'owned', creatorEmail: 'Max@Acme.com' }), now, live())).toEqual([
      "delete Max's board unapplied-or-outside",
    ]);
  });

  it("a view REF declared, an `ignore` at REF that kept it, REF not pruning, or REF declaring no view of the domain: the deletion is the pull request's own", () => {
    const now = withViews({ prune: true });
    const own = ["delete Max's board own", 'delete Scratch own'];
    expect(originsOf(withViews({ prune: true }, ['Pipeline', 'Scratch', "Max's board"]), now, live())).toEqual(own);
    expect(originsOf(withViews({ prune: true, ignore: ['Scratch', 'Max*'] }), now, live())).toEqual(own);
    expect(originsOf(withViews({ prune: false }), now, live())).toEqual(own);
    expect(
      originsOf({ ...emptyDesired({ prune: true }), views: [declared('recordings', 'Calls')] }, now, live()),
    ).toEqual(own);
  });

  it('asks about the view deleted, not about the prune settings: an `ignore` change that spares other names leaves it alike', () => {
    const now = withViews({ prune: true, ignore: ['Temp *'] });
    expect(originsOf(withViews({ prune: true }), now, live())).toEqual([
      "delete Max's board unapplied-or-outside",
      'delete Scratch unapplied-or-outside',
    ]);
    // prune: true and prune: owned both delete what viewctl's creator owns.
    const owned = withViews({ prune: 'owned', creatorEmail: 'max@acme.com' });
    expect(originsOf(withViews({ prune: true }), owned, live())).toEqual(["delete Max's board unapplied-or-outside"]);
  });
});

describe('changeOrigins: pinned lists, by the views their names resolve to', () => {
  const live = (): Live => {
    const state = emptyLive();
    state.views.recordings = [view('rv_1', 'Calls'), view('rv_2', 'Demos'), ...(state.views.recordings ?? [])];
    state.pins = {
      [pinsKey('recordings', 'mia@acme.com')]: [view('rv_2', 'Demos')],
      [pinsKey('recordings', 'max@acme.com')]: [view('rv_2', 'Demos')],
    };
    return state;
  };
  const calls = (email: string) => pinsOf(email, 'recordings', [{ name: 'Calls' }]);

  it('the same list, written elsewhere or by id instead of name, asks the same tabs; another list does not', () => {
    const now = {
      ...emptyDesired(),
      pins: [calls('mia@acme.com'), pinsOf('max@acme.com', 'recordings', [{ name: 'Demos' }, { name: 'Calls' }])],
    };
    const base = {
      ...emptyDesired(),
      pins: [
        pinsOf('mia@acme.com', 'recordings', [{ viewId: 'rv_1' }], { source: at('pins/old.yaml', 4) }),
        calls('max@acme.com'),
      ],
    };
    expect(originsOf(base, now, live())).toEqual(['pin max@acme.com own', 'pin mia@acme.com unapplied-or-outside']);
  });

  it('a pull request renaming a view and giving its old name to a new view: the unchanged list now means the new view, its own', () => {
    const now = {
      ...emptyDesired(),
      views: [declared('recordings', 'Old calls', {}, { viewId: 'rv_1' }), declared('recordings', 'Calls')],
      pins: [calls('mia@acme.com')],
    };
    for (const atBase of [declared('recordings', 'Calls', {}, { viewId: 'rv_1' }), declared('recordings', 'Calls')]) {
      const base = { ...emptyDesired(), views: [atBase], pins: [calls('mia@acme.com')] };
      expect(originsOf(base, now, live())).toEqual([
        'create Calls own',
        'update Old calls own',
        'pin mia@acme.com own',
      ]);
    }
  });

  it("a name REF resolved to the same view through another document is alike: a rename that keeps the name's meaning changes no list", () => {
    // REF pinned "Calls" (rv_1, by name); the pull request binds it by id and keeps its name.
    const now = {
      ...emptyDesired(),
      views: [declared('recordings', 'Calls', {}, { viewId: 'rv_1' })],
      pins: [calls('mia@acme.com')],
    };
    const base = { ...emptyDesired(), pins: [calls('mia@acme.com')] };
    expect(originsOf(base, now, live())).toEqual(['pin mia@acme.com unapplied-or-outside']);
  });

  it("a list REF did not give the member, or one REF's manifests refuse, is the pull request's own", () => {
    const now = { ...emptyDesired(), pins: [calls('mia@acme.com')] };
    expect(originsOf(emptyDesired(), now, live())).toEqual(['pin mia@acme.com own']);
    const refused = {
      ...emptyDesired(),
      pins: [pinsOf('mia@acme.com', 'recordings', [{ name: 'Calls' }, { name: 'Calls' }])],
    };
    expect(originsOf(refused, now, live())).toEqual(['pin mia@acme.com own']);
  });
});

describe('changeOrigins: members a group reaches', () => {
  const group = (
    refs: { name: string }[],
    options: { file?: string; users?: string[]; roles?: MemberRole[] } = {},
  ): DesiredPinGroup => {
    const file = options.file ?? 'pins/sales.yaml';
    return {
      group: { name: 'Sales', source: at(file) },
      users: (options.users ?? []).map((pattern) => ({ pattern, isGlob: /[*?]/.test(pattern), source: at(file, 3) })),
      roles: options.roles ?? [],
      domain: 'recordings',
      refs,
      unpinPrivate: false,
      source: at(file, 5),
      refSources: refs.map((_, index) => at(file, 6 + index)),
    };
  };
  const live = (): Live => {
    const state = emptyLive();
    state.views.recordings = [view('rv_1', 'Calls'), ...(state.views.recordings ?? [])];
    state.pins = Object.fromEntries(
      ['ops', 'mia', 'max', 'zoe'].map((name) => [
        pinsKey('recordings', `${name}@acme.com`),
        [view('rv_all', 'All recordings', { isDefault: true })],
      ]),
    );
    return state;
  };
  const calls = [{ name: 'Calls' }];

  it("the list a group gives each member, compared as REF's group gives it to the same members", () => {
    const now = { ...emptyDesired(), pinGroups: [group(calls, { users: ['m*@acme.com'], file: 'pins/team.yaml' })] };
    const base = { ...emptyDesired(), pinGroups: [group(calls, { users: ['m*@acme.com'] })] };
    expect(originsOf(base, now, live())).toEqual([
      'pin max@acme.com unapplied-or-outside',
      'pin mia@acme.com unapplied-or-outside',
    ]);
    const other = {
      ...emptyDesired(),
      pinGroups: [group([{ name: 'All recordings' }, { name: 'Calls' }], { users: ['m*@acme.com'] })],
    };
    expect(originsOf(other, now, live())).toEqual(['pin max@acme.com own', 'pin mia@acme.com own']);
    // A member the pull request adds to the group is its own, whoever else the glob reaches.
    const narrower = { ...emptyDesired(), pinGroups: [group(calls, { users: ['mia@acme.com'] })] };
    expect(originsOf(narrower, now, live())).toEqual(['pin max@acme.com own', 'pin mia@acme.com unapplied-or-outside']);
  });

  it('stays hedged even when REF is the last apply, while the members last seen are unknown: a joiner looks like an edit in the app', () => {
    const desired = { ...emptyDesired(), pinGroups: [group(calls, { users: ['m*@acme.com'] })] };
    expect(originsOf(desired, desired, live(), APPLIED)).toEqual([
      'pin max@acme.com unapplied-or-outside',
      'pin mia@acme.com unapplied-or-outside',
    ]);
  });

  it('with the members last seen: a joiner, or a member whose role brought them in, is membership; a member reached then too is outside', () => {
    const desired = { ...emptyDesired(), pinGroups: [group(calls, { users: ['m*@acme.com'], roles: ['Admin'] })] };
    const today = live();
    today.users = [
      ...(today.users ?? []).map(
        (entry): ApiUser => (entry.email === 'zoe@acme.com' ? { ...entry, role: 'Admin' } : entry),
      ),
    ];
    // Last seen: Max had not joined yet and Zoe was a Member.
    const lastSeen = (today.users ?? [])
      .filter((entry) => entry.email !== 'max@acme.com')
      .map((entry) => ({ ...entry, role: 'Member' as const }));
    expect(originsOf(desired, desired, today, { baseIsLastApplied: true, usersLastSeen: lastSeen })).toEqual([
      'pin max@acme.com membership',
      'pin mia@acme.com outside',
      'pin zoe@acme.com membership',
    ]);
    expect(originsOf(desired, desired, today, { baseIsLastApplied: false, usersLastSeen: lastSeen })).toEqual([
      'pin max@acme.com membership',
      'pin mia@acme.com unapplied-or-outside',
      'pin zoe@acme.com membership',
    ]);
  });

  it('a `userEmail` document that wins over the group is decided by no membership', () => {
    const desired = {
      ...emptyDesired(),
      pins: [pinsOf('mia@acme.com', 'recordings', calls)],
      pinGroups: [group(calls, { users: ['m*@acme.com'] })],
    };
    expect(originsOf(desired, desired, live(), APPLIED)).toEqual([
      'pin max@acme.com unapplied-or-outside',
      'pin mia@acme.com outside',
    ]);
  });
});

describe('membershipChanged', () => {
  const group: DesiredPinGroup = {
    group: { name: 'Sales', source: at('pins/sales.yaml') },
    users: [{ pattern: '*@acme.com', isGlob: true, source: at('pins/sales.yaml', 3) }],
    roles: [],
    domain: 'recordings',
    refs: [{ name: 'Calls' }],
    unpinPrivate: false,
    source: at('pins/sales.yaml', 5),
    refSources: [at('pins/sales.yaml', 6)],
  };
  const base = { ...emptyDesired(), pinGroups: [group] };
  const today = [user('u_mia', 'mia@acme.com'), user('u_max', 'max@acme.com')];

  it('is false for what no group decides, undefined without the members last seen, and true only for a member reached otherwise then', () => {
    const unknown = membershipChanged(base, { today, lastSeen: undefined });
    expect(
      ['view:recordings:id:rv_1', 'automations', 'pins:recordings:zoe@acme.com', 'pins:deals:mia@acme.com'].map(
        unknown,
      ),
    ).toEqual([false, false, false, false]);
    expect(unknown('pins:recordings:mia@acme.com')).toBeUndefined();
    const known = membershipChanged(base, {
      today,
      lastSeen: [user('u_mia', 'mia@acme.com'), user('u_max', 'max@acme.com', 'Invited')],
    });
    expect(['pins:recordings:mia@acme.com', 'pins:recordings:max@acme.com'].map(known)).toEqual([false, true]);
    expect(
      membershipChanged(emptyDesired(), { today: undefined, lastSeen: undefined })('pins:recordings:mia@acme.com'),
    ).toBe(false);
  });
});

describe('changeOrigins: drift', () => {
  it("compares what REF expects of each automation: another automation's edit leaves a drift alike", () => {
    const live = emptyLive();
    live.automations = [automation('aa_1', 'Record'), automation('aa_2', 'Tag')];
    const expected = (recordColor: string, tagColor: string): Desired => ({
      ...emptyDesired(),
      automations: {
        source: at('automations.yaml'),
        automations: [
          { name: 'Record', color: recordColor, source: at('automations.yaml', 3) },
          { name: 'Tag', color: tagColor, source: at('automations.yaml', 6) },
        ],
      },
    });
    expect(originsOf(expected('red', 'green'), expected('red', 'yellow'), live)).toEqual([
      'drift Record unapplied-or-outside',
      'drift Tag own',
    ]);
    expect(originsOf(emptyDesired(), expected('red', 'yellow'), live)).toEqual(['drift Record own', 'drift Tag own']);
  });
});
