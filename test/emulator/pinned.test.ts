import { describe, expect, it } from 'vitest';
import type { ApiView } from '../../src/domain/api-types.js';
import { DOMAINS, type Domain } from '../../src/domain/domains.js';
import { fixture, ids, USERS } from './fixture.js';
import { call, useEmulator, type Reply } from './helpers.js';

const start = useEmulator();
const viewIds = (reply: Reply): string[] => (reply.body.result as ApiView[]).map((view) => view.viewId);
const pinnedPath = (domain: Domain, email: string): string =>
  `/v1/${domain}/views/pinned?userEmail=${encodeURIComponent(email)}`;

// The pinned endpoints of every domain are built in one loop (src/emulator/routes.ts)
// and pinned.ts takes the domain only to pick its views and lists, so each rule is
// tested once, on companies; the first test checks that every domain's pinned
// endpoints are wired to that domain's own lists. That private views never appear in
// the public listing, even pinned, is asserted by views.test.ts (the fixture's private
// view of every domain is pinned, and the listing is checked whole).
describe('the pinned endpoints of every domain', () => {
  it("Pinned views: GET lists each domain's own tabs in order, private views of the owner included, and PUT replaces that domain's list only", async () => {
    const emulator = await start();
    for (const domain of DOMAINS) {
      const { defaults, publics, private: privateId } = ids(domain);
      const reply = await call(emulator, 'GET', pinnedPath(domain, USERS.member.email));
      expect(reply.status).toBe(200);
      expect(viewIds(reply)).toEqual([privateId, publics[0], defaults[0]]);
      expect(reply.body.result[0].visibility).toBe('Private');
      expect(
        viewIds(
          await call(emulator, 'PUT', pinnedPath(domain, USERS.member.email), { body: { viewIds: [defaults[1]] } }),
        ),
      ).toEqual([defaults[1]]);
    }
    expect(emulator.snapshot().pinned).toEqual(
      Object.fromEntries(DOMAINS.map((domain) => [domain, { [USERS.member.id]: [ids(domain).defaults[1]] }])),
    );
  });
});

describe('pinned views (rules of every domain, shown on companies)', () => {
  const domain: Domain = 'companies';
  const base = `/v1/${domain}/views/pinned`;
  const { defaults, publics, private: privateId } = ids(domain);
  const pinnedOf = (email: string): string => pinnedPath(domain, email);

  it('Pinned views: a user who never changed their tabs gets the built-in defaults', async () => {
    const emulator = await start();
    expect(viewIds(await call(emulator, 'GET', pinnedOf(USERS.other.email)))).toEqual(defaults);
  });

  it('Pinned views: the userEmail is matched case-insensitively', async () => {
    const emulator = await start();
    expect(viewIds(await call(emulator, 'GET', pinnedOf('MEMBER@acme.test')))).toEqual([
      privateId,
      publics[0],
      defaults[0],
    ]);
  });

  it.each([
    ['missing', [base]],
    [
      "not an active member's (unknown, deactivated, invited)",
      ['nobody@acme.test', USERS.gone.email, USERS.invited.email].map((email) => pinnedPath(domain, email)),
    ],
  ])('Pinned views: a %s userEmail is 400 with path userEmail on GET and PUT', async (_, paths) => {
    const emulator = await start();
    for (const path of paths) {
      for (const method of ['GET', 'PUT']) {
        const reply = await call(emulator, method, path, method === 'PUT' ? { body: { viewIds: [defaults[0]] } } : {});
        expect(reply.status).toBe(400);
        expect(reply.body.error).toMatchObject({ type: 'validation_error', path: 'userEmail' });
      }
    }
    expect(emulator.snapshot()).toEqual(fixture());
  });

  it('Pinned views: PUT replaces the list (pin, unpin, reorder) and answers the new list in tab order', async () => {
    const emulator = await start();
    const wanted = [publics[2], defaults[1], privateId, publics[0]] as string[];
    const reply = await call(emulator, 'PUT', pinnedOf(USERS.member.email), { body: { viewIds: wanted } });
    expect(reply.status).toBe(200);
    expect(viewIds(reply)).toEqual(wanted);
    expect(viewIds(await call(emulator, 'GET', pinnedOf(USERS.member.email)))).toEqual(wanted);
    expect(emulator.stats().writes).toBe(1);
  });

  it("Pinned views: an owner or an admin can pin another member's private view", async () => {
    const emulator = await start();
    const byAdmin = await call(emulator, 'PUT', pinnedOf(USERS.admin.email), { body: { viewIds: [privateId] } });
    expect(byAdmin.status).toBe(200);
    expect(viewIds(byAdmin)).toEqual([privateId]);
    const byOwner = await call(emulator, 'PUT', pinnedOf(USERS.owner.email), {
      body: { viewIds: [privateId, publics[1]] },
    });
    expect(byOwner.status).toBe(200);
    expect(viewIds(byOwner)).toEqual([privateId, publics[1]]);
  });

  it("Pinned views: a member cannot pin another member's private view", async () => {
    const emulator = await start();
    const reply = await call(emulator, 'PUT', pinnedOf(USERS.other.email), {
      body: { viewIds: [publics[0], privateId] },
    });
    expect(reply.status).toBe(400);
    expect(reply.body.error).toMatchObject({ type: 'validation_error', path: 'viewIds' });
    expect(emulator.snapshot()).toEqual(fixture());
  });

  it.each([
    ['an empty list', []],
    ['a duplicated id', ['DUP', 'DUP']],
    ['an unknown id', ['nope']],
  ])('PUT pinned with %s changes nothing', async (_, list) => {
    const emulator = await start();
    const body = { viewIds: list.map((id) => (id === 'DUP' ? publics[0] : id)) };
    const reply = await call(emulator, 'PUT', pinnedOf(USERS.member.email), { body });
    expect(reply.status).toBe(400);
    expect(reply.body.error).toMatchObject({ type: 'validation_error', path: 'viewIds' });
    expect(emulator.snapshot()).toEqual(fixture());
    expect(emulator.stats().writes).toBe(0);
  });

  it.each([
    ['viewIds missing or not strings', [{}, { viewIds: [1] }], 'viewIds'],
    ['an unknown attribute', [{ viewIds: ['x'], order: 1 }], 'order'],
  ])('PUT pinned with %s is 400', async (_, bodies, path) => {
    const emulator = await start();
    for (const body of bodies) {
      const reply = await call(emulator, 'PUT', pinnedOf(USERS.member.email), { body });
      expect(reply.status).toBe(400);
      expect(reply.body.error).toMatchObject({ type: 'validation_error', path });
    }
    expect(emulator.snapshot()).toEqual(fixture());
  });

  it('Pinned views: a pinned view the user can no longer access is left out of GET', async () => {
    const data = fixture();
    // The member pinned a view that another member owns and made private afterwards.
    const team = data.views[domain].find((view) => view.viewId === publics[2]) as ApiView;
    team.visibility = 'Private';
    team.ownerId = USERS.other.id;
    data.pinned[domain][USERS.member.id] = [publics[2] as string, defaults[0] as string];
    const emulator = await start({ data });
    expect(viewIds(await call(emulator, 'GET', pinnedOf(USERS.member.email)))).toEqual([defaults[0]]);
    expect(viewIds(await call(emulator, 'GET', pinnedOf(USERS.admin.email)))).toEqual(defaults);
  });
});
