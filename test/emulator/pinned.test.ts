import { describe, expect, it } from 'vitest';
import type { ApiView } from '../../src/domain/api-types.js';
import { DOMAINS } from '../../src/domain/domains.js';
import { fixture, ids, USERS } from './fixture.js';
import { call, useEmulator, type Reply } from './helpers.js';

const start = useEmulator();
const viewIds = (reply: Reply): string[] => (reply.body.result as ApiView[]).map((view) => view.viewId);

describe.each(DOMAINS)('pinned views of %s', (domain) => {
  const base = `/v1/${domain}/views/pinned`;
  const { defaults, publics, private: privateId } = ids(domain);
  const pinnedOf = (email: string): string => `${base}?userEmail=${encodeURIComponent(email)}`;

  it('Pinned views: GET lists the tabs in order, private views of the owner included', async () => {
    const emulator = await start();
    const reply = await call(emulator, 'GET', pinnedOf(USERS.member.email));
    expect(reply.status).toBe(200);
    expect(viewIds(reply)).toEqual([privateId, publics[0], defaults[0]]);
    expect(reply.body.result[0].visibility).toBe('Private');
  });

  it('Pinned views: a user who never changed their tabs gets the built-in defaults', async () => {
    const emulator = await start();
    expect(viewIds(await call(emulator, 'GET', pinnedOf(USERS.other.email)))).toEqual(defaults);
  });

  it('Pinned views: the userEmail is matched case-insensitively', async () => {
    const emulator = await start();
    expect(viewIds(await call(emulator, 'GET', pinnedOf('MEMBER@acme.test')))).toEqual([privateId, publics[0], defaults[0]]);
  });

  it.each([
    ['missing', base],
    ['unknown', `${base}?userEmail=nobody%40acme.test`],
    ['deactivated', `${base}?userEmail=${encodeURIComponent(USERS.gone.email)}`],
    ['invited', `${base}?userEmail=${encodeURIComponent(USERS.invited.email)}`],
  ])('Pinned views: a %s userEmail is 400 with path userEmail on GET and PUT', async (_, path) => {
    const emulator = await start();
    for (const method of ['GET', 'PUT']) {
      const reply = await call(emulator, method, path, method === 'PUT' ? { body: { viewIds: [defaults[0]] } } : {});
      expect(reply.status).toBe(400);
      expect(reply.body.error).toMatchObject({ type: 'validation_error', path: 'userEmail' });
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

  it('Pinned views: an admin can pin another member\'s private view', async () => {
    const emulator = await start();
    const reply = await call(emulator, 'PUT', pinnedOf(USERS.admin.email), { body: { viewIds: [privateId] } });
    expect(reply.status).toBe(200);
    expect(viewIds(reply)).toEqual([privateId]);
  });

  it('Pinned views: the owner can pin a member\'s private view', async () => {
    const emulator = await start();
    expect((await call(emulator, 'PUT', pinnedOf(USERS.owner.email), { body: { viewIds: [privateId, publics[1]] } })).status).toBe(200);
  });

  it('Pinned views: a member cannot pin another member\'s private view', async () => {
    const emulator = await start();
    const reply = await call(emulator, 'PUT', pinnedOf(USERS.other.email), { body: { viewIds: [publics[0], privateId] } });
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
    ['a body without viewIds', {}, 'viewIds'],
    ['viewIds that are not strings', { viewIds: [1] }, 'viewIds'],
    ['an unknown attribute', { viewIds: ['x'], order: 1 }, 'order'],
  ])('PUT pinned with %s is 400', async (_, body, path) => {
    const emulator = await start();
    const reply = await call(emulator, 'PUT', pinnedOf(USERS.member.email), { body });
    expect(reply.body.error).toMatchObject({ type: 'validation_error', path });
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

  it('Pinned views: private views never appear in the public listing even when pinned', async () => {
    const emulator = await start();
    const listed = (await call(emulator, 'GET', `/v1/${domain}/views`)).body.result as ApiView[];
    expect(listed.some((view) => view.visibility === 'Private')).toBe(false);
  });
});
