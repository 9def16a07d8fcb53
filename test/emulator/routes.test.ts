import { describe, expect, it } from 'vitest';
import { DOMAINS } from '../../src/domain/domains.js';
import { fixture, ids, USERS } from './fixture.js';
import { call, useEmulator } from './helpers.js';

const start = useEmulator();

describe('workspace, users and automations', () => {
  it('GET /v1/workspaces/mine answers the workspace with its counts', async () => {
    const emulator = await start();
    const reply = await call(emulator, 'GET', '/v1/workspaces/mine');
    expect(reply.body.result).toEqual({
      workspace: {
        id: 'ws_test',
        name: 'Acme Test',
        createdAt: '2025-01-01T00:00:00.000Z',
        membersCount: 4,
        recordingsCount: 3,
      },
    });
  });

  it('GET /v1/workspaces/mine does not count private recordings for a key without Full access', async () => {
    const emulator = await start({ fullAccess: false });
    expect((await call(emulator, 'GET', '/v1/workspaces/mine')).body.result.workspace.recordingsCount).toBe(2);
  });

  it('GET /v1/users pages with limit and cursor until nextCursor is absent', async () => {
    const emulator = await start();
    const first = await call(emulator, 'GET', '/v1/users?limit=4');
    expect(first.body.result.users.map((user: { id: string }) => user.id)).toEqual([
      'u_owner',
      'u_admin',
      'u_member',
      'u_other',
    ]);
    expect(first.body.result.pagination.totalCount).toBe(6);
    const cursor = first.body.result.pagination.nextCursor as string;
    const second = await call(emulator, 'GET', `/v1/users?limit=4&cursor=${encodeURIComponent(cursor)}`);
    expect(second.body.result.users.map((user: { id: string }) => user.id)).toEqual(['u_gone', 'u_invited']);
    expect(second.body.result.pagination).not.toHaveProperty('nextCursor');
  });

  it.each(['0', '101', 'ten'])('GET /v1/users with limit=%s is 400 with path limit', async (limit) => {
    const emulator = await start();
    const reply = await call(emulator, 'GET', `/v1/users?limit=${limit}`);
    expect(reply.status).toBe(400);
    expect(reply.body.error).toMatchObject({ type: 'validation_error', path: 'limit' });
  });

  it('GET /v1/users/{userId} answers {user}, and 404 for an unknown id', async () => {
    const emulator = await start();
    expect((await call(emulator, 'GET', '/v1/users/u_admin')).body.result).toEqual({ user: USERS.admin });
    const missing = await call(emulator, 'GET', '/v1/users/u_nobody');
    expect(missing.status).toBe(404);
    expect(missing.body.error.type).toBe('not_found');
  });

  it('GET /v1/admin-automations answers in priority order', async () => {
    const emulator = await start();
    const reply = await call(emulator, 'GET', '/v1/admin-automations');
    expect(reply.body.result).toEqual(fixture().automations);
  });
});

describe('records routes', () => {
  it.each(DOMAINS)('GET /v1/%s answers the paginated list', async (domain) => {
    const emulator = await start();
    const reply = await call(emulator, 'GET', `/v1/${domain}`);
    expect(reply.status).toBe(200);
    expect(Array.isArray(reply.body.result[domain])).toBe(true);
    expect(reply.body.result.pagination.totalCount).toBe(reply.body.result[domain].length);
  });

  it('Listing records within a view: GET /v1/<domain>?viewId= works with a public view and a default in every domain', async () => {
    // Each domain lists its records through the filters and sort of its own view.
    const emulator = await start();
    for (const domain of DOMAINS) {
      const { publics, defaults } = ids(domain);
      expect((await call(emulator, 'GET', `/v1/${domain}?viewId=${publics[0]}`)).status).toBe(200);
      expect((await call(emulator, 'GET', `/v1/${domain}?viewId=${defaults[0]}`)).status).toBe(200);
    }
  });

  it('Listing records within a view: a private or unknown viewId is 404', async () => {
    // The view lookup is one code path before the domains part (records/list.ts).
    const emulator = await start();
    for (const viewId of [ids('contacts').private, 'nope']) {
      const reply = await call(emulator, 'GET', `/v1/contacts?viewId=${viewId}`);
      expect(reply.status).toBe(404);
      expect(reply.body.error.type).toBe('not_found');
    }
  });

  it('a view filter applies to the records it lists', async () => {
    const emulator = await start();
    const reply = await call(emulator, 'GET', '/v1/recordings?viewId=r_pub1');
    const listed = reply.body.result.recordings.map((recording: { id: string }) => recording.id).sort();
    expect(listed).toEqual(['rec_1', 'rec_secret']);
  });

  it('GET /v1/recordings/{id} answers {recording}; a private one needs Full access', async () => {
    const full = await start();
    expect((await call(full, 'GET', '/v1/recordings/rec_1')).body.result.recording.id).toBe('rec_1');
    expect((await call(full, 'GET', '/v1/recordings/rec_secret')).status).toBe(200);
    const limited = await start({ fullAccess: false });
    expect((await call(limited, 'GET', '/v1/recordings/rec_secret')).status).toBe(404);
    expect((await call(limited, 'GET', '/v1/recordings/nope')).status).toBe(404);
  });

  it('GET /v1/recordings/{id}/transcript answers a URL valid 24 hours from the injected clock', async () => {
    const now = Date.UTC(2026, 10, 20, 12);
    const emulator = await start({ now: () => now });
    const reply = await call(emulator, 'GET', '/v1/recordings/rec_1/transcript');
    expect(reply.status).toBe(200);
    expect(reply.body.result.expiresAt).toBe('2026-11-21T12:00:00.000Z');
    expect(reply.body.result.url.startsWith(emulator.url)).toBe(true);
  });

  it('"views" is a route, not a recording id', async () => {
    const emulator = await start();
    expect(Array.isArray((await call(emulator, 'GET', '/v1/recordings/views')).body.result)).toBe(true);
  });
});

describe('routing', () => {
  it.each([
    ['GET', '/v1/nothing'],
    ['GET', '/v2/recordings/views'],
    ['POST', '/v1/users'],
    ['PUT', '/v1/deals/views/d_pub1'],
    ['GET', '/v1/deals/views/d_pub1/extra'],
    ['GET', '/'],
  ])('an unknown route (%s %s) is 404 not_found as JSON', async (method, path) => {
    const emulator = await start();
    const reply = await call(emulator, method, path);
    expect(reply.status).toBe(404);
    expect(reply.headers.get('content-type')).toContain('application/json');
    expect(reply.body.error.type).toBe('not_found');
  });

  it('a percent-encoded view id is decoded before lookup', async () => {
    const data = fixture();
    data.views.companies.push({ ...data.views.companies[0]!, viewId: 'c/odd id' });
    const emulator = await start({ data });
    expect((await call(emulator, 'GET', `/v1/companies/views/${encodeURIComponent('c/odd id')}`)).status).toBe(200);
  });

  it('every success is {result: ...} as JSON', async () => {
    const emulator = await start();
    for (const path of ['/v1/users', '/v1/workspaces/mine', '/v1/admin-automations', '/v1/contacts/views']) {
      const reply = await call(emulator, 'GET', path);
      expect(reply.headers.get('content-type')).toContain('application/json');
      expect(Object.keys(reply.body)).toEqual(['result']);
    }
  });
});
