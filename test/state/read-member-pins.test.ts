import { describe, expect, it } from 'vitest';
import type { ApiUser } from '../../src/domain/api-types.js';
import { readMemberPins } from '../../src/state/read-member-pins.js';
import { pinsKey } from '../../src/state/types.js';
import { emptyLive, view } from '../plan/fixtures.js';
import { liveClient } from '../plan/live-client.js';

/** A workspace where mia has deal and company tabs, and max none. */
function workspace() {
  const live = emptyLive();
  live.views.companies = [view('cv_1', 'Key accounts')];
  live.pins[pinsKey('deals', 'mia@acme.com')] = [view('dv_7', 'Closing')];
  live.pins[pinsKey('companies', 'mia@acme.com')] = [view('cv_1', 'Key accounts')];
  return live;
}

const MIA_AND_MAX = (users: readonly ApiUser[]): ApiUser[] =>
  users.filter((user) => user.email === 'mia@acme.com' || user.email === 'max@acme.com');

describe('readMemberPins', () => {
  it('with nothing known: the workspace, the users, every list of the members, then the listings of the domains they have a tab in', async () => {
    const { client, routes } = liveClient(workspace(), 2000);
    const { live, pinUsers } = await readMemberPins(client, MIA_AND_MAX);
    expect(pinUsers.map((user) => user.email)).toEqual(['mia@acme.com', 'max@acme.com']);
    expect(routes.slice(0, 2)).toEqual(['/v1/workspaces/mine', '/v1/users']);
    expect(routes.slice(2, 10).sort()).toEqual(
      ['companies', 'contacts', 'deals', 'recordings'].flatMap((domain) => [
        `/v1/${domain}/views/pinned`,
        `/v1/${domain}/views/pinned`,
      ]),
    );
    // No automations, and no listing of a domain where neither has a tab.
    expect(routes.slice(10).sort()).toEqual(['/v1/companies/views', '/v1/deals/views']);
    expect(Object.keys(live.views).sort()).toEqual(['companies', 'deals']);
    expect(live.views.companies?.map((v) => v.viewId)).toEqual(['cv_1']);
    expect(live.pins[pinsKey('deals', 'mia@acme.com')]?.map((v) => v.viewId)).toEqual(['dv_7']);
    expect(live.users?.length).toBe(4);
    expect(live.requests).toEqual({ used: 12, dailyRemaining: 2000 - 12 });
  });

  it('reads again none of what is known: the workspace, the users and the listings a plan read', async () => {
    const known = workspace();
    const { client, routes } = liveClient(known);
    const { live } = await readMemberPins(client, MIA_AND_MAX, {
      workspace: known.workspace,
      views: { deals: known.views.deals ?? [] },
      users: known.users,
    });
    expect(routes.filter((route) => !route.endsWith('/pinned'))).toEqual(['/v1/companies/views']);
    expect(routes.filter((route) => route.endsWith('/pinned'))).toHaveLength(8);
    expect(live.workspace).toBe(known.workspace);
    expect(live.users).toBe(known.users);
    expect(Object.keys(live.views).sort()).toEqual(['companies', 'deals']);
  });

  it('reads no list and no listing when no member is picked', async () => {
    const { client, routes } = liveClient(workspace());
    const { live, pinUsers } = await readMemberPins(client, () => []);
    expect(routes).toEqual(['/v1/workspaces/mine', '/v1/users']);
    expect([pinUsers, live.pins, live.views]).toEqual([[], {}, {}]);
  });
});
