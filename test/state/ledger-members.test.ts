import { describe, expect, it } from 'vitest';
import type { ApiUser } from '../../src/domain/api-types.js';
import type { DesiredPinGroup, MemberRole } from '../../src/domain/desired.js';
import { memberPinLists } from '../../src/kinds/pin-members.js';
import { usersLastSeen } from '../../src/state/ledger-members.js';
import { observeRun } from '../../src/state/ledger-observe.js';
import { emptyMemory } from '../../src/state/sweep-memory.js';
import { at, user } from '../plan/fixtures.js';

function member(id: string, email: string, role: MemberRole, state: ApiUser['state'] = 'Active'): ApiUser {
  return { ...user(id, email, state), role };
}

const USERS: ApiUser[] = [
  member('u_ana', 'Ana@Sales.acme.com', 'Member'),
  member('u_tom', 'tom@sales.acme.com', 'Member', 'Deactivated'),
  member('u_adam', 'adam@acme.com', 'Admin'),
  member('u_zoe', 'zoe@acme.com', 'Member', 'Invited'),
];

const sales: DesiredPinGroup = {
  group: { name: 'Sales', source: at('pins/sales.yaml') },
  users: [{ pattern: '*@sales.acme.com', isGlob: true, source: at('pins/sales.yaml', 3, 5) }],
  roles: ['Admin'],
  domain: 'deals',
  refs: [{ name: 'Pipeline' }],
  unpinPrivate: false,
  source: at('pins/sales.yaml', 10, 3),
  refSources: [at('pins/sales.yaml', 10, 15)],
};

describe('usersLastSeen', () => {
  it('gives the members as last seen: email (lower-cased), role and state, sorted', () => {
    const memory = observeRun(emptyMemory(), { workspace: { id: 'ws', name: 'W', createdAt: '', membersCount: 4, recordingsCount: 0 }, views: {}, pins: {}, users: USERS }, Date.parse('2026-01-01T00:00:00Z'));
    const seen = usersLastSeen(memory);
    expect(seen.map((entry) => [entry.email, entry.role, entry.state])).toEqual([
      ['adam@acme.com', 'Admin', 'Active'],
      ['ana@sales.acme.com', 'Member', 'Active'],
      ['tom@sales.acme.com', 'Member', 'Deactivated'],
      ['zoe@acme.com', 'Member', 'Invited'],
    ]);
    // A group expands to the same lists with the members last seen as with the users read.
    const keys = (users: readonly ApiUser[]) => memberPinLists({ pins: [], pinGroups: [sales] }, users).lists.map((list) => list.key).sort();
    expect(keys(seen)).toEqual(keys(USERS));
    expect(memberPinLists({ pins: [], pinGroups: [sales] }, seen).skipped).toBe(memberPinLists({ pins: [], pinGroups: [sales] }, USERS).skipped);
  });
});
