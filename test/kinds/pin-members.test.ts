import { describe, expect, it } from 'vitest';
import { warningText } from '../../src/render/warning-lines.js';
import type { ApiUser } from '../../src/domain/api-types.js';
import type { DesiredPinGroup, MemberRole, PinRef } from '../../src/domain/desired.js';
import type { Domain } from '../../src/domain/domains.js';
import { hasPinGroups, memberPinLists } from '../../src/kinds/pin-members.js';
import { at, pinsOf, user } from '../plan/fixtures.js';

function member(id: string, email: string, role: MemberRole, state: ApiUser['state'] = 'Active'): ApiUser {
  return { ...user(id, email, state), role };
}

const USERS: ApiUser[] = [
  member('u_olivia', 'olivia@acme.com', 'Owner'),
  member('u_ana', 'Ana@Sales.acme.com', 'Member'),
  member('u_ben', 'ben@sales.acme.com', 'Member'),
  member('u_tom', 'tom@sales.acme.com', 'Member', 'Deactivated'),
  member('u_zoe', 'zoe@acme.com', 'Member', 'Invited'),
  member('u_adam', 'adam@acme.com', 'Admin'),
];

/** group builds one domain of a group document in `file`, its `users` entries on lines 3, 4, ... */
function group(
  name: string,
  file: string,
  who: { users?: string[]; roles?: MemberRole[] },
  domain: Domain = 'recordings',
  refs: PinRef[] = [{ name: 'Calls' }],
): DesiredPinGroup {
  return {
    group: { name, source: at(file) },
    users: (who.users ?? []).map((pattern, index) => ({
      pattern,
      isGlob: /[*?]/.test(pattern),
      source: at(file, 3 + index, 5),
    })),
    roles: who.roles ?? [],
    domain,
    refs,
    unpinPrivate: false,
    source: at(file, 10, 3),
    refSources: refs.map((_, index) => at(file, 10, 15 + index)),
  };
}

describe('memberPinLists', () => {
  it('takes userEmail documents as written when there is no group, without the users', () => {
    const desired = { pins: [pinsOf('Mia@acme.com', 'recordings', [{ name: 'Calls' }])] };
    expect(hasPinGroups(desired)).toBe(false);
    const expansion = memberPinLists(desired, undefined);
    expect(expansion.lists.map((list) => list.key)).toEqual(['recordings:mia@acme.com']);
    expect(expansion).toMatchObject({ skipped: 0, reasons: [], warnings: [] });
  });

  it('expands globs (case ignored) and roles to one list per active member, with the group and its source', () => {
    const sales = group('Sales tabs', 'pins/sales.yaml', { users: ['*@SALES.acme.com'], roles: ['Admin'] });
    const { lists, reasons } = memberPinLists({ pins: [], pinGroups: [sales] }, USERS);
    expect(reasons).toEqual([]);
    expect(lists.map((list) => [list.key, list.userEmail])).toEqual([
      ['recordings:ana@sales.acme.com', 'Ana@Sales.acme.com'],
      ['recordings:ben@sales.acme.com', 'ben@sales.acme.com'],
      ['recordings:adam@acme.com', 'adam@acme.com'],
    ]);
    expect(lists[0]).toMatchObject({
      group: { name: 'Sales tabs', source: at('pins/sales.yaml') },
      source: at('pins/sales.yaml', 10, 3),
      refs: [{ name: 'Calls' }],
      unpinPrivate: false,
    });
  });

  it('lets a userEmail document win over groups in its domain only', () => {
    const everyone = group('Everyone', 'pins/all.yaml', { roles: ['Member'] });
    const everyoneDeals = group('Everyone', 'pins/all.yaml', { roles: ['Member'] }, 'deals');
    const own = pinsOf('ana@sales.acme.com', 'recordings', [{ name: 'Mine' }]);
    const { lists, reasons } = memberPinLists({ pins: [own], pinGroups: [everyone, everyoneDeals] }, USERS);
    expect(reasons).toEqual([]);
    const ana = lists.filter((list) => list.key.endsWith(':ana@sales.acme.com'));
    expect(ana.map((list) => [list.key, list.group?.name ?? 'own'])).toEqual([
      ['recordings:ana@sales.acme.com', 'own'],
      ['deals:ana@sales.acme.com', 'Everyone'],
    ]);
    expect(lists.map((list) => list.key)).toContain('recordings:ben@sales.acme.com');
  });

  it('refuses two groups reaching one member in one domain, naming both documents and the member', () => {
    const byGlob = group('Sales', 'pins/sales.yaml', { users: ['*@sales.acme.com'] });
    const byRole = group('Members', 'pins/members.yaml', { roles: ['Member'] });
    const { reasons } = memberPinLists({ pins: [], pinGroups: [byGlob, byRole] }, USERS);
    expect(reasons).toHaveLength(1);
    expect(reasons[0]).toMatchObject({ code: 'pins.group-overlap', source: at('pins/members.yaml', 10, 3) });
    expect(reasons[0]?.message).toBe(
      'the recordings tabs of Ana@Sales.acme.com (and 1 more member) are managed by two groups: "Sales" (pins/sales.yaml:10:3) and "Members" (pins/members.yaml:10:3)',
    );
    // In different domains the two groups do not meet.
    const apart = memberPinLists({ pins: [], pinGroups: [byGlob, { ...byRole, domain: 'deals' }] }, USERS);
    expect(apart.reasons).toEqual([]);
    // A member's own document settles it: neither group applies to them there.
    const settled = memberPinLists(
      {
        pins: ['Ana@Sales.acme.com', 'ben@sales.acme.com'].map((email) =>
          pinsOf(email, 'recordings', [{ name: 'Mine' }]),
        ),
        pinGroups: [byGlob, byRole],
      },
      USERS,
    );
    expect(settled.reasons).toEqual([]);
  });

  it('warns about an explicit email of a member who is not active, at its entry, and skips them; refuses one that never was a member; skips inactive members a glob or role reaches silently, once each', () => {
    const named = group('Named', 'pins/named.yaml', { users: ['ben@sales.acme.com', 'zoe@acme.com', 'gone@acme.com'] });
    const first = memberPinLists({ pins: [], pinGroups: [named] }, USERS);
    expect(first.warnings.map((warning) => [warning.code, warning.source?.line])).toEqual([
      ['pins.user-not-active', 4],
    ]);
    expect(first.warnings[0]?.message).toBe(
      'zoe@acme.com is invited, not an active member: their tabs are skipped; remove zoe@acme.com from `users` of "Named" in pins/named.yaml; members a glob or a role reaches who are not active are skipped silently',
    );
    expect(first.reasons.map((reason) => [reason.code, reason.source?.line])).toEqual([['pins.user-not-active', 5]]);
    expect(first.reasons[0]?.message).toContain('gone@acme.com is not a member of the workspace');
    expect(first.lists.map((list) => list.userEmail)).toEqual(['ben@sales.acme.com']);
    expect(first.skipped).toBe(0);

    const reached = [
      group('Sales', 'pins/sales.yaml', { users: ['*@sales.acme.com'] }),
      group('Sales', 'pins/sales.yaml', { users: ['*@sales.acme.com'] }, 'deals'),
      group('Invited', 'pins/m.yaml', { roles: ['Member'] }, 'contacts'),
    ];
    const second = memberPinLists({ pins: [], pinGroups: reached }, USERS);
    expect(second.reasons).toEqual([]);
    expect(second.warnings).toEqual([]);
    // tom (deactivated, glob and role) and zoe (invited, role): two members, whatever the domains.
    expect(second.skipped).toBe(2);
    expect(second.lists.some((list) => list.userEmail.startsWith('tom') || list.userEmail.startsWith('zoe'))).toBe(
      false,
    );
  });

  it('warns about a userEmail document of a member who left, naming the file to delete, once per member, and skips their lists', () => {
    const pins = [
      pinsOf('tom@sales.acme.com', 'recordings', [{ name: 'Calls' }]),
      pinsOf('tom@sales.acme.com', 'deals', [{ name: 'Deals' }]),
      pinsOf('ben@sales.acme.com', 'recordings', [{ name: 'Calls' }]),
    ];
    const { reasons, warnings, lists } = memberPinLists(
      { pins, pinGroups: [group('Admins', 'pins/admins.yaml', { roles: ['Admin'] })] },
      USERS,
    );
    expect(reasons).toEqual([]);
    expect(warnings.map((warning) => [warning.code, warning.source])).toEqual([
      ['pins.user-not-active', pins[0]?.source],
    ]);
    expect(warnings[0]?.message).toBe(
      `tom@sales.acme.com is deactivated, not an active member: their tabs are skipped; delete ${pins[0]?.source.file ?? ''}, the PinnedViews document of a member who left or has not accepted the invitation yet`,
    );
    expect(lists.map((list) => list.key)).toEqual(['recordings:ben@sales.acme.com', 'recordings:adam@acme.com']);
  });

  it('suggests the active members a userEmail no member has most likely meant, the users being read', () => {
    const pins = [
      pinsOf('olvia@acme.com', 'recordings', [{ name: 'Calls' }]),
      pinsOf('someone@elsewhere.example', 'deals', [{ name: 'Deals' }]),
    ];
    const { reasons } = memberPinLists(
      { pins, pinGroups: [group('Admins', 'pins/admins.yaml', { roles: ['Admin'] })] },
      USERS,
    );
    expect(reasons[0]?.message).toBe(
      'olvia@acme.com is not a member of the workspace, so the service refuses to read or set their tabs',
    );
    expect(reasons[0]?.wayOut).toMatch(/^did you mean olivia@acme\.com\? fix `userEmail`/);
    // Nothing close: no suggestion; a member who left is named by state, never "did you mean".
    expect(reasons[1]?.wayOut).toMatch(/^fix `userEmail`/);
    const left = memberPinLists(
      { pins: [pinsOf('tom@sales.acme.com', 'recordings', [{ name: 'Calls' }])], pinGroups: [] },
      USERS,
    );
    expect(left.reasons).toEqual([]);
    expect(left.warnings[0]?.message).not.toContain('did you mean');
    // An explicit group entry, too.
    const named = memberPinLists(
      { pins: [], pinGroups: [group('Named', 'pins/named.yaml', { users: ['ben@sales.acme.cm'] })] },
      USERS,
    );
    expect(named.reasons[0]?.wayOut).toMatch(/^did you mean ben@sales\.acme\.com\? fix ben@sales\.acme\.cm/);
  });

  it('warns, at its position, about a glob that reaches no active member', () => {
    const sales = group('Sales', 'pins/sales.yaml', { users: ['*@sales.acme.com', '*@nowhere.acme.com', 'tom*'] });
    const { warnings } = memberPinLists({ pins: [], pinGroups: [sales, { ...sales, domain: 'deals' }] }, USERS);
    expect(warnings.map((warning) => [warning.code, warningText(warning)])).toEqual([
      [
        'pins.glob-reaches-none',
        'pins/sales.yaml:4:5: users glob "*@nowhere.acme.com" of the group "Sales" reaches no active member',
      ],
      [
        'pins.glob-reaches-none',
        'pins/sales.yaml:5:5: users glob "tom*" of the group "Sales" reaches no active member',
      ],
    ]);
  });

  it('keeps the first userEmail document of a member and domain, emails compared without case', () => {
    const first = pinsOf('Mia@acme.com', 'recordings', [{ name: 'Calls' }]);
    const again = pinsOf('mia@ACME.com', 'recordings', [{ name: 'Demos' }]);
    expect(memberPinLists({ pins: [first, again] }, undefined).lists).toEqual([
      { ...first, key: 'recordings:mia@acme.com' },
    ]);
  });

  it('gives a member a group names by exact email (any case) their list, and reports a named inactive member once whatever the domains', () => {
    const named = group('Named', 'pins/named.yaml', { users: ['BEN@sales.acme.com', 'zoe@acme.com'] });
    const { lists, reasons, warnings } = memberPinLists(
      { pins: [], pinGroups: [named, { ...named, domain: 'deals' }] },
      USERS,
    );
    expect(lists.map((list) => [list.key, list.userEmail])).toEqual([
      ['recordings:ben@sales.acme.com', 'ben@sales.acme.com'],
      ['deals:ben@sales.acme.com', 'ben@sales.acme.com'],
    ]);
    expect(reasons).toEqual([]);
    expect(warnings.map((warning) => [warning.code, warning.source?.line])).toEqual([['pins.user-not-active', 4]]);
  });

  it('needs the users when a group document exists', () => {
    expect(() =>
      memberPinLists({ pins: [], pinGroups: [group('G', 'g.yaml', { roles: ['Member'] })] }, undefined),
    ).toThrow(/without the users list/);
  });
});
