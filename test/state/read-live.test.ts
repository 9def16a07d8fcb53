import { describe, expect, it } from 'vitest';
import type { ApiView } from '../../src/domain/api-types.js';
import { ServiceError, ViewctlError } from '../../src/errors.js';
import type { ServiceClient, ServiceRequest } from '../../src/service/types.js';
import { readAll, uniqueReads } from '../../src/state/live-read.js';
import { readLive } from '../../src/state/read-live.js';
import { automationsRead, listingRead, pinnedRead } from '../../src/state/reads.js';
import type { Desired } from '../../src/state/types.js';

const at = { file: 'm.yaml', line: 1, column: 1 };

function view(viewId: string, name: string): ApiView {
  return { viewId, name, visibility: 'Public', isDefault: false, ownerId: 'u_1', columns: [], filters: {}, sort: [] };
}

/** fakeClient answers from a table and records every request, in order. */
function fakeClient(): { client: ServiceClient; sent: ServiceRequest[] } {
  const sent: ServiceRequest[] = [];
  const client: ServiceClient = {
    async request<T>(request: ServiceRequest): Promise<T> {
      sent.push(request);
      const { route } = request;
      if (route === '/v1/workspaces/mine') {
        return { workspace: { id: 'ws_1', name: 'Acme', createdAt: '', membersCount: 1, recordingsCount: 0 } } as T;
      }
      if (route === '/v1/users') {
        const cursor = request.query?.cursor;
        return (
          cursor === undefined
            ? { users: [{ email: 'a@x.test' }], pagination: { nextCursor: 'c2', totalCount: 2 } }
            : { users: [{ email: 'b@x.test' }], pagination: { totalCount: 2 } }
        ) as T;
      }
      if (route === '/v1/admin-automations') return [] as T;
      if (route.endsWith('/views/pinned')) return [view('v_p', 'Pinned')] as T;
      if (route.endsWith('/views')) return [view('v_1', 'Existing')] as T;
      throw new Error(`unexpected ${route}`);
    },
    stats: () => ({ requests: sent.length, retries: 0, rateLimited: 0, dailyRemaining: 2990 }),
  };
  return { client, sent };
}

const desired: Desired = {
  workspace: { prune: false, ignore: [], creatorEmail: 'ops@x.test' },
  views: [
    { domain: 'recordings', name: 'Existing', managed: {}, source: at },
    { domain: 'deals', name: 'Existing', managed: {}, source: at },
  ],
  pins: [
    {
      userEmail: 'mia@x.test',
      domain: 'recordings',
      refs: [{ name: 'Existing' }],
      unpinPrivate: false,
      source: at,
      refSources: [at],
    },
    {
      userEmail: 'MIA@x.test',
      domain: 'recordings',
      refs: [{ name: 'Existing' }],
      unpinPrivate: false,
      source: at,
      refSources: [at],
    },
    {
      userEmail: 'mia@x.test',
      domain: 'contacts',
      refs: [{ name: 'All' }],
      unpinPrivate: false,
      source: at,
      refSources: [at],
    },
  ],
  automations: { automations: [], source: at },
};

/** The reads planning `desired` with its pinned lists makes, as data. */
const reads = [
  ...(['recordings', 'deals', 'contacts'] as const).map(listingRead),
  ...desired.pins.map((pins) => pinnedRead(pins.domain, pins.userEmail, pins.source)),
  automationsRead(),
];

describe('uniqueReads', () => {
  it('reads each user and domain once, emails compared without case, keeping the first position for errors', () => {
    const first = pinnedRead('deals', 'Mia@acme.com', at);
    const again = pinnedRead('deals', 'mia@ACME.com', { file: 'pins/other.yaml', line: 9, column: 1 });
    const otherDomain = pinnedRead('recordings', 'mia@acme.com');
    expect(uniqueReads([first, again, otherDomain])).toEqual([first, otherDomain]);
  });
});

describe('readLive', () => {
  it('reads at the floor: workspace first, then one call per domain, per pinned list, and automations', async () => {
    const { client, sent } = fakeClient();
    const live = await readLive(client, reads, { users: (read) => read.views === undefined });
    expect(sent[0]?.route).toBe('/v1/workspaces/mine');
    expect(sent.map((request) => `${request.method} ${request.route}`).sort()).toEqual([
      'GET /v1/admin-automations',
      'GET /v1/contacts/views',
      'GET /v1/contacts/views/pinned',
      'GET /v1/deals/views',
      'GET /v1/recordings/views',
      'GET /v1/recordings/views/pinned',
      'GET /v1/workspaces/mine',
    ]);
    expect(live.requests).toEqual({ used: 7, dailyRemaining: 2990 });
    expect(Object.keys(live.pins).sort()).toEqual(['contacts:mia@x.test', 'recordings:mia@x.test']);
    expect(live.users).toBeUndefined();
  });

  it('reads every page of users only when asked to check creatorEmail, once the reads it decides on are in', async () => {
    const { client, sent } = fakeClient();
    const live = await readLive(client, reads, { users: (read) => read.views !== undefined });
    expect(live.users?.map((user) => user.email)).toEqual(['a@x.test', 'b@x.test']);
    expect(sent.filter((request) => request.route === '/v1/users')).toHaveLength(2);
  });

  it('stops after the workspace when the workspace check throws', async () => {
    const { client, sent } = fakeClient();
    const refuse = (): void => {
      throw new ViewctlError('workspace.mismatch', 'other workspace');
    };
    await expect(readLive(client, reads, { checkWorkspace: refuse })).rejects.toMatchObject({
      code: 'workspace.mismatch',
    });
    expect(sent).toHaveLength(1);
  });
});

describe('a pinned read', () => {
  /** A client that refuses every pinned read with `error`. */
  const refusing = (error: Error): ServiceClient => ({
    request: () => Promise.reject(error),
    stats: () => ({ requests: 0, retries: 0, rateLimited: 0, dailyRemaining: null }),
  });
  const notActive = (path: string): ServiceError =>
    new ServiceError('service.validation', 'userEmail is not an active member', {
      endpoint: 'GET /v1/recordings/views/pinned',
      status: 400,
      errorType: 'validation_error',
      path,
    });

  it("turns the service's refusal of a user into pins.user-not-active at the manifest that names them", async () => {
    const source = { file: 'pins/gone.yaml', line: 4, column: 12 };
    const error = await readAll(refusing(notActive('userEmail')), [
      pinnedRead('recordings', 'gone@x.test', source),
    ]).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ViewctlError);
    expect(error).toMatchObject({
      code: 'pins.user-not-active',
      message: expect.stringMatching(/^pins\/gone\.yaml:4:12: gone@x\.test is not an active member/),
    });
  });

  it('passes any other failure of a pinned read through unchanged', async () => {
    for (const error of [
      notActive('viewId'),
      new ServiceError('service.unavailable', '503', { endpoint: 'GET', status: 503 }),
      new TypeError('bug'),
    ]) {
      await expect(readAll(refusing(error), [pinnedRead('recordings', 'mia@x.test')])).rejects.toBe(error);
    }
  });
});
