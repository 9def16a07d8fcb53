import { describe, expect, it } from 'vitest';
import type { ApiView } from '../../src/domain/api-types.js';
import type { Desired, DesiredPinGroup } from '../../src/domain/desired.js';
import type { Live } from '../../src/state/types.js';
import {
  RECORDING_DEFAULTS,
  at as fixtureAt,
  defaultView,
  emptyDesired,
  emptyLive,
  pinsOf,
  user,
} from '../plan/fixtures.js';
import { liveClient } from '../plan/live-client.js';
import { planWorkspace } from '../../src/flows/plan-workspace.js';
import type { ServiceClient, ServiceRequest } from '../../src/service/types.js';

/** The one read-then-diff flow: what it reads, in which order, and when it stops. */

const at = { file: 'm.yaml', line: 1, column: 1 };

function fakeClient(views: ApiView[]): { client: ServiceClient; routes: string[] } {
  const routes: string[] = [];
  const client: ServiceClient = {
    async request<T>(request: ServiceRequest): Promise<T> {
      routes.push(request.route);
      if (request.route === '/v1/workspaces/mine')
        return { workspace: { id: 'ws_1', name: 'Acme', createdAt: '', membersCount: 1, recordingsCount: 0 } } as T;
      if (request.route === '/v1/users')
        return {
          users: [{ id: 'u_1', email: 'ops@x.test', state: 'Active', role: 'Admin', license: 'Full' }],
          pagination: { totalCount: 1 },
        } as T;
      if (request.route === '/v1/recordings/views') return views as T;
      throw new Error(`unexpected ${request.route}`);
    },
    stats: () => ({ requests: routes.length, retries: 0, rateLimited: 0, dailyRemaining: null }),
  };
  return { client, routes };
}

const existing: ApiView = {
  viewId: 'rv_1',
  name: 'Calls',
  visibility: 'Public',
  isDefault: false,
  ownerId: 'u_1',
  columns: [],
  filters: {},
  sort: [],
};

function wanting(name: string, workspaceId?: string): Desired {
  return {
    workspace: {
      prune: false,
      ignore: [],
      creatorEmail: 'ops@x.test',
      ...(workspaceId === undefined ? {} : { workspaceId }),
    },
    views: [{ domain: 'recordings', name, managed: {}, source: at }],
    pins: [],
  };
}

describe('planWorkspace', () => {
  it('reads the users only when the plan creates a view, to check its creator', async () => {
    const inSync = fakeClient([existing]);
    expect((await planWorkspace(wanting('Calls'), inSync.client)).plan.changes).toEqual([]);
    expect(inSync.routes).toEqual(['/v1/workspaces/mine', '/v1/recordings/views']);

    const creating = fakeClient([existing]);
    const { plan } = await planWorkspace(wanting('Demos'), creating.client);
    expect(plan.changes.map((change) => change.action)).toEqual(['create']);
    expect(creating.routes).toEqual(['/v1/workspaces/mine', '/v1/recordings/views', '/v1/users']);
  });

  it('reads the users when prune deletes a view, to name its owner by email', async () => {
    const pruning = fakeClient([existing, { ...existing, viewId: 'rv_2', name: 'Old calls' }]);
    const desired = wanting('Calls');
    desired.workspace.prune = true;
    const { plan } = await planWorkspace(desired, pruning.client);
    expect(plan.changes).toMatchObject([{ action: 'delete', id: 'rv_2', ownerEmail: 'ops@x.test' }]);
    expect(pruning.routes).toEqual(['/v1/workspaces/mine', '/v1/recordings/views', '/v1/users']);
  });

  it('with targets, reads and plans only the selected ones, after the workspace', async () => {
    const { client, routes } = fakeClient([existing]);
    const desired = wanting('Calls');
    desired.views.push({ domain: 'deals', name: 'Board', managed: {}, source: at });
    desired.automations = { automations: [], source: at };
    const { plan } = await planWorkspace(desired, client, {
      targets: [{ type: 'view', kind: 'RecordingView', name: 'Calls' }],
    });
    expect(routes).toEqual(['/v1/workspaces/mine', '/v1/recordings/views']);
    expect(plan.targets).toEqual(['RecordingView/Calls']);
  });

  it('stops after the first request when the key belongs to another workspace', async () => {
    const { client, routes } = fakeClient([existing]);
    await expect(planWorkspace(wanting('Calls', 'ws_other'), client)).rejects.toMatchObject({
      reasons: [{ code: 'workspace.mismatch' }],
    });
    expect(routes).toEqual(['/v1/workspaces/mine']);
  });

  it('reports progress for every read and measures with the clock it is given', async () => {
    const ticks: string[] = [];
    let clock = 100;
    const { elapsedMs } = await planWorkspace(wanting('Calls'), fakeClient([existing]).client, {
      onProgress: (done, total) => ticks.push(`${done}/${total}`),
      now: () => (clock += 250),
    });
    expect(ticks).toEqual(['1/2', '2/2']);
    expect(elapsedMs).toBe(250);
  });
});

describe('planWorkspace with group pin documents', () => {
  const groupOf = (name: string, pattern: string): DesiredPinGroup => ({
    group: { name, source: fixtureAt(`${name}.yaml`) },
    users: [{ pattern, isGlob: /[*?]/.test(pattern), source: fixtureAt(`${name}.yaml`, 3) }],
    roles: [],
    domain: 'companies',
    refs: [{ name: 'All companies' }],
    unpinPrivate: false,
    source: fixtureAt(`${name}.yaml`, 5),
    refSources: [fixtureAt(`${name}.yaml`, 5, 12)],
  });

  function scenario(groups: DesiredPinGroup[]): { desired: Desired; live: Live } {
    const live = emptyLive();
    live.views = { recordings: [...RECORDING_DEFAULTS], companies: [defaultView('cv_all', 'All companies')] };
    live.users = [
      user('u_a', 'a@x.test'),
      user('u_b', 'b@x.test'),
      user('u_c', 'c@x.test', 'Deactivated'),
      user('u_mia', 'mia@y.test'),
    ];
    live.pins = {
      'recordings:mia@y.test': RECORDING_DEFAULTS.slice(0, 1),
      'companies:a@x.test': [defaultView('cv_all', 'All companies')],
      'companies:b@x.test': [],
    };
    const desired: Desired = {
      ...emptyDesired(),
      pins: [pinsOf('mia@y.test', 'recordings', [{ name: 'All recordings' }])],
      pinGroups: groups,
    };
    return { desired, live };
  }

  it('reads the users before any list a group adds, then one list per active member it reaches, and counts the others', async () => {
    const { desired, live } = scenario([groupOf('everyone', '*@x.test')]);
    const { client, routes, pinReads } = liveClient(live);
    const { plan } = await planWorkspace(desired, client);
    expect(routes[0]).toBe('/v1/workspaces/mine');
    expect(routes.indexOf('/v1/users')).toBeLessThan(routes.indexOf('/v1/companies/views/pinned'));
    expect(routes.filter((route) => route === '/v1/users')).toHaveLength(1);
    expect([...pinReads].sort()).toEqual(['companies:a@x.test', 'companies:b@x.test', 'recordings:mia@y.test']);
    expect(plan.skippedMembers).toBe(1);
    expect(plan.changes.map((change) => change.target)).toEqual(['pins:companies:b@x.test']);
  });

  it('counts the users it reads in its progress, whose last line is the requests the plan says it read', async () => {
    const { desired, live } = scenario([groupOf('everyone', '*@x.test')]);
    const ticks: [number, number][] = [];
    const { plan } = await planWorkspace(desired, liveClient(live).client, {
      onProgress: (done, total) => ticks.push([done, total]),
    });
    expect(ticks.at(-1)).toEqual([plan.requests.used, plan.requests.used]);
  });

  it('reads no pinned list at all when expanding the groups refuses', async () => {
    const { desired, live } = scenario([groupOf('everyone', '*@x.test'), groupOf('sales', 'a@x.test')]);
    const { client, pinReads } = liveClient(live);
    await expect(planWorkspace(desired, client)).rejects.toMatchObject({
      reasons: [expect.objectContaining({ code: 'pins.group-overlap' })],
    });
    expect(pinReads).toEqual([]);
  });
});
