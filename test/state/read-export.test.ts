import { describe, expect, it } from 'vitest';
import { ViewctlError } from '../../src/errors.js';
import { readExport, type PinReadPlan } from '../../src/state/read-export.js';
import { pinsKey } from '../../src/state/types.js';
import { automation, emptyLive, view } from '../plan/fixtures.js';
import { liveClient } from '../plan/live-client.js';

/** A workspace with a view in each listing read, an automation and a pinned list for mia. */
function workspace() {
  const live = emptyLive();
  live.views.companies = [view('cv_1', 'Key accounts')];
  live.automations = [automation('au_1', 'Tag calls')];
  live.pins[pinsKey('deals', 'mia@acme.com')] = [view('dv_7', 'Closing')];
  return live;
}

describe('readExport', () => {
  it('without users wanted: every listing and the automations, no users and no pinned list', async () => {
    const { client, routes } = liveClient(workspace(), 2000);
    const { live, pinUsers } = await readExport(client);
    expect(routes.sort()).toEqual([
      '/v1/admin-automations',
      '/v1/companies/views',
      '/v1/contacts/views',
      '/v1/deals/views',
      '/v1/recordings/views',
      '/v1/workspaces/mine',
    ]);
    expect(pinUsers).toEqual([]);
    expect(live.pins).toEqual({});
    expect(live.users).toBeUndefined();
    expect(live.views.companies?.map((v) => v.viewId)).toEqual(['cv_1']);
    expect(live.automations?.map((a) => a.adminAutomationId)).toEqual(['au_1']);
    expect(live.requests).toEqual({ used: 6, dailyRemaining: 1994 });
  });

  it("reads the chosen users' lists in every domain, announcing their cost first and reporting progress", async () => {
    const { client, pinReads } = liveClient(workspace(), 2000);
    const announced: PinReadPlan[] = [];
    const progress: string[] = [];
    const { live, pinUsers } = await readExport(client, {
      selectUsers: (users) => users.filter((user) => user.email === 'mia@acme.com' || user.email === 'max@acme.com'),
      beforePins: (plan) => announced.push(plan),
      onProgress: (done, total) => progress.push(`${done}/${total}`),
    });
    expect(pinUsers.map((user) => user.email)).toEqual(['mia@acme.com', 'max@acme.com']);
    expect(announced.map((plan) => [plan.users.map((user) => user.email), plan.requests])).toEqual([
      [['mia@acme.com', 'max@acme.com'], 8],
    ]);
    // The budget announced is what was left before the first pinned read: 6 listings and 1 page of users.
    expect(announced[0]?.dailyRemaining).toBe(2000 - 7);
    expect(pinReads.sort()).toEqual(
      ['companies', 'contacts', 'deals', 'recordings']
        .flatMap((domain) => [pinsKey(domain as 'deals', 'max@acme.com'), pinsKey(domain as 'deals', 'mia@acme.com')])
        .sort(),
    );
    expect(progress).toEqual(['1/8', '2/8', '3/8', '4/8', '5/8', '6/8', '7/8', '8/8']);
    expect(live.pins[pinsKey('deals', 'mia@acme.com')]?.map((v) => v.viewId)).toEqual(['dv_7']);
    expect(live.requests.used).toBe(15);
  });

  it('reads only the domains pinDomains leaves for a user, and announces only the users it still reads', async () => {
    const { client, pinReads } = liveClient(workspace());
    const announced: PinReadPlan[] = [];
    await readExport(client, {
      selectUsers: (users) => users.filter((user) => user.email !== 'ops@acme.com'),
      pinDomains: (user) => (user.email === 'mia@acme.com' ? ['deals'] : []),
      beforePins: (plan) => announced.push(plan),
    });
    expect(pinReads).toEqual([pinsKey('deals', 'mia@acme.com')]);
    expect(announced.map((plan) => [plan.users.map((user) => user.email), plan.requests])).toEqual([
      [['mia@acme.com'], 1],
    ]);
  });

  it('reads no pinned list when beforePins refuses the cost', async () => {
    const { client, pinReads } = liveClient(workspace());
    const refuse = (): void => {
      throw new ViewctlError('export.budget', 'too many requests');
    };
    await expect(readExport(client, { selectUsers: (users) => [...users], beforePins: refuse })).rejects.toMatchObject({
      code: 'export.budget',
    });
    expect(pinReads).toEqual([]);
  });

  it('announces nothing and reads no list when no user is chosen', async () => {
    const { client, pinReads } = liveClient(workspace());
    let announced = false;
    const { live } = await readExport(client, { selectUsers: () => [], beforePins: () => void (announced = true) });
    expect(announced).toBe(false);
    expect(pinReads).toEqual([]);
    expect(live.users?.length).toBe(4);
  });
});
