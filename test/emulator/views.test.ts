import { describe, expect, it } from 'vitest';
import { DOMAINS, VIEW_CAP } from '../../src/domain/domains.js';
import type { ApiView } from '../../src/domain/api-types.js';
import { fixture, ids, USERS } from './fixture.js';
import { call, useEmulator } from './helpers.js';

const start = useEmulator();

describe.each(DOMAINS)('views of %s', (domain) => {
  const base = `/v1/${domain}/views`;
  const { defaults, publics, private: privateId } = ids(domain);

  it('Visibility: the listing holds public saved views in creation order, then the defaults', async () => {
    const emulator = await start();
    const reply = await call(emulator, 'GET', base);
    expect(reply.status).toBe(200);
    expect(reply.body.result.map((view: ApiView) => view.viewId)).toEqual([...publics, ...defaults]);
  });

  it('Visibility: a private view is not found through GET by id', async () => {
    const emulator = await start();
    const reply = await call(emulator, 'GET', `${base}/${privateId}`);
    expect(reply.status).toBe(404);
    expect(reply.body.error.type).toBe('not_found');
  });

  it('Visibility: PATCH and DELETE of a private view are not found and change nothing', async () => {
    const emulator = await start();
    expect((await call(emulator, 'PATCH', `${base}/${privateId}`, { body: { name: 'x' } })).status).toBe(404);
    expect((await call(emulator, 'DELETE', `${base}/${privateId}`)).status).toBe(404);
    expect(emulator.stats().writes).toBe(0);
    expect(emulator.snapshot()).toEqual(fixture());
  });

  it('Default views: GET by id returns a default view with isDefault and #global owner', async () => {
    const emulator = await start();
    const reply = await call(emulator, 'GET', `${base}/${defaults[0]}`);
    expect(reply.status).toBe(200);
    expect(reply.body.result).toMatchObject({ viewId: defaults[0], isDefault: true, ownerId: '#global' });
  });

  it('Default views: PATCH of a default view is 403 forbidden', async () => {
    const emulator = await start();
    const reply = await call(emulator, 'PATCH', `${base}/${defaults[0]}`, { body: { name: 'Mine now' } });
    expect(reply.status).toBe(403);
    expect(reply.body.error.type).toBe('forbidden');
    expect(emulator.snapshot()).toEqual(fixture());
  });

  it('Default views: DELETE of a default view is 403 forbidden', async () => {
    const emulator = await start();
    const reply = await call(emulator, 'DELETE', `${base}/${defaults[1]}`);
    expect(reply.status).toBe(403);
    expect(reply.body.error.type).toBe('forbidden');
    expect(emulator.snapshot()).toEqual(fixture());
  });

  it('Ownership: POST creates a public, non-default view owned by creatorEmail, with empty defaults', async () => {
    const emulator = await start();
    const reply = await call(emulator, 'POST', base, { body: { creatorEmail: USERS.other.email, name: 'New one' } });
    expect(reply.status).toBe(200);
    const view = reply.body.result as ApiView;
    expect(view).toEqual({
      viewId: view.viewId, name: 'New one', visibility: 'Public', isDefault: false, ownerId: USERS.other.id,
      columns: [], filters: {}, sort: [],
    });
    expect((await call(emulator, 'GET', `${base}/${view.viewId}`)).body.result).toEqual(view);
    const listed = (await call(emulator, 'GET', base)).body.result.map((entry: ApiView) => entry.viewId);
    expect(listed).toEqual([...publics, view.viewId, ...defaults]);
    expect(emulator.stats().writes).toBe(1);
  });

  it('Ownership: POST keeps sent columns, filters, sort and icon', async () => {
    const emulator = await start();
    const source = fixture().views[domain].find((entry) => entry.viewId === publics[1]) as ApiView;
    const filters = { ...source.filters };
    delete filters['dealAgeRange'];
    const body = { creatorEmail: USERS.admin.email, name: 'Full', icon: 'star', columns: source.columns, filters, sort: source.sort };
    const reply = await call(emulator, 'POST', base, { body });
    expect(reply.status).toBe(200);
    expect(reply.body.result).toMatchObject({ icon: 'star', columns: source.columns, filters, sort: source.sort, ownerId: USERS.admin.id });
  });

  it.each([
    ['an unknown email', 'nobody@acme.test'],
    ['a deactivated user', USERS.gone.email],
    ['an invited user', USERS.invited.email],
  ])('Ownership: POST with creatorEmail of %s is 400 with path creatorEmail', async (_, email) => {
    const emulator = await start();
    const reply = await call(emulator, 'POST', base, { body: { creatorEmail: email, name: 'x' } });
    expect(reply.status).toBe(400);
    expect(reply.body.error).toMatchObject({ type: 'validation_error', path: 'creatorEmail' });
    expect(emulator.stats().writes).toBe(0);
  });

  it('Ownership: POST without creatorEmail is 400 with path creatorEmail', async () => {
    const emulator = await start();
    const reply = await call(emulator, 'POST', base, { body: { name: 'x' } });
    expect(reply.body.error).toMatchObject({ type: 'validation_error', path: 'creatorEmail' });
  });

  it('Partial updates: omitted attributes keep their values and a sent one replaces its value whole', async () => {
    const emulator = await start();
    const before = (await call(emulator, 'GET', `${base}/${publics[0]}`)).body.result as ApiView;
    const reply = await call(emulator, 'PATCH', `${base}/${publics[0]}`, { body: { name: 'Renamed', sort: [] } });
    expect(reply.status).toBe(200);
    expect(reply.body.result).toEqual({ ...before, name: 'Renamed', sort: [] });
    expect((await call(emulator, 'GET', `${base}/${publics[0]}`)).body.result).toEqual(reply.body.result);
    expect(emulator.stats().writes).toBe(1);
  });

  it('Partial updates: icon null removes the icon', async () => {
    const emulator = await start();
    const reply = await call(emulator, 'PATCH', `${base}/${publics[0]}`, { body: { icon: null } });
    expect(reply.status).toBe(200);
    expect(reply.body.result).not.toHaveProperty('icon');
  });

  it('Partial updates: a PATCH that sends the current values is not counted as a write', async () => {
    const emulator = await start();
    const reply = await call(emulator, 'PATCH', `${base}/${publics[0]}`, { body: { name: 'Pipeline' } });
    expect(reply.status).toBe(200);
    expect(emulator.stats().writes).toBe(0);
  });

  it('DELETE answers {ok: true}, the view is gone and it leaves the pinned lists', async () => {
    const emulator = await start();
    const reply = await call(emulator, 'DELETE', `${base}/${publics[0]}`);
    expect(reply).toMatchObject({ status: 200, body: { result: { ok: true } } });
    expect((await call(emulator, 'GET', `${base}/${publics[0]}`)).status).toBe(404);
    const pinned = await call(emulator, 'GET', `${base}/pinned?userEmail=${USERS.member.email}`);
    expect(pinned.body.result.map((view: ApiView) => view.viewId)).toEqual([privateId, defaults[0]]);
    expect(emulator.snapshot().pinned[domain][USERS.member.id]).toEqual([privateId, defaults[0]]);
  });

  it('unknown viewId is 404 on GET, PATCH and DELETE', async () => {
    const emulator = await start();
    for (const method of ['GET', 'PATCH', 'DELETE']) {
      const reply = await call(emulator, method, `${base}/nope`, method === 'PATCH' ? { body: {} } : {});
      expect(reply.status).toBe(404);
      expect(reply.body.error.type).toBe('not_found');
    }
  });

  it.each([
    ['POST', { creatorEmail: USERS.owner.email, name: 'x', color: 'red' }],
    ['PATCH', { color: 'red' }],
  ])('an unknown attribute in a %s body is 400 with its path', async (method, body) => {
    const emulator = await start();
    const path = method === 'POST' ? base : `${base}/${publics[0]}`;
    const reply = await call(emulator, method, path, { body });
    expect(reply.status).toBe(400);
    expect(reply.body.error).toMatchObject({ type: 'validation_error', path: 'color' });
    expect(emulator.snapshot()).toEqual(fixture());
  });

  it.each([
    [{ name: 42 }, 'name'],
    [{ name: '' }, 'name'],
    [{ icon: 7 }, 'icon'],
    [{ columns: {} }, 'columns'],
    [{ filters: [] }, 'filters'],
    [{ sort: 'CreatedAt' }, 'sort'],
    [{ sort: [{ field: 'CreatedAt', order: 'Sideways' }] }, 'sort'],
    [{ columns: [{ type: 'Default', columnId: 'x', colour: 'red' }] }, 'columns'],
    [{ filters: { noSuchFilter: true } }, 'filters.noSuchFilter'],
  ])('a wrong value in a PATCH body is 400 with its dotted path (%j)', async (body, path) => {
    const emulator = await start();
    const reply = await call(emulator, 'PATCH', `${base}/${publics[0]}`, { body });
    expect(reply.status).toBe(400);
    expect(reply.body.error).toMatchObject({ type: 'validation_error', path });
    expect(emulator.snapshot()).toEqual(fixture());
  });

  it('a body that is not JSON is 400 validation_error', async () => {
    const emulator = await start();
    const reply = await call(emulator, 'PATCH', `${base}/${publics[0]}`, { rawBody: '{"name": ' });
    expect(reply.status).toBe(400);
    expect(reply.body.error.type).toBe('validation_error');
  });

  it('a body that is JSON but not an object is 400 validation_error', async () => {
    const emulator = await start();
    const reply = await call(emulator, 'POST', base, { body: ['x'] });
    expect(reply.status).toBe(400);
    expect(reply.body.error.type).toBe('validation_error');
  });

  it(`the ${VIEW_CAP} saved views cap refuses one more POST with 400`, async () => {
    const data = fixture();
    const saved = data.views[domain].filter((view) => !view.isDefault).length;
    for (let index = saved; index < VIEW_CAP; index += 1) {
      data.views[domain].push({ ...(data.views[domain][0] as ApiView), viewId: `filler_${index}` });
    }
    const emulator = await start({ data });
    const reply = await call(emulator, 'POST', base, { body: { creatorEmail: USERS.owner.email, name: 'one too many' } });
    expect(reply.status).toBe(400);
    expect(reply.body.error.type).toBe('validation_error');
    expect(emulator.snapshot().views[domain]).toHaveLength(VIEW_CAP + 2);
  });
});

describe('deal views', () => {
  it('a deal view PATCH whose filters carry dealAgeRange is 400 with path filters.dealAgeRange', async () => {
    const emulator = await start();
    const reply = await call(emulator, 'PATCH', '/v1/deals/views/d_pub1', { body: { filters: { dealAgeRange: 'OneDay' } } });
    expect(reply.status).toBe(400);
    expect(reply.body.error).toMatchObject({ type: 'validation_error', path: 'filters.dealAgeRange' });
  });

  it('a deal view POST whose filters carry dealAgeRange is 400', async () => {
    const emulator = await start();
    const body = { creatorEmail: USERS.owner.email, name: 'x', filters: { dealAgeRange: 'OneDay' } };
    const reply = await call(emulator, 'POST', '/v1/deals/views', { body });
    expect(reply.body.error).toMatchObject({ type: 'validation_error', path: 'filters.dealAgeRange' });
  });

  it('Partial updates: the response-only dealAgeRange keeps its stored value when filters are replaced', async () => {
    const emulator = await start();
    const reply = await call(emulator, 'PATCH', '/v1/deals/views/d_pub1', { body: { filters: { statusIn: ['Won'] } } });
    expect(reply.status).toBe(200);
    expect(reply.body.result.filters).toEqual({ statusIn: ['Won'], dealAgeRange: 'LessThan30Days' });
  });
});

describe('recording views', () => {
  it('a value outside an enum is 400 with the attribute path (filters.sourceIn)', async () => {
    const emulator = await start();
    const reply = await call(emulator, 'PATCH', '/v1/recordings/views/r_pub1', { body: { filters: { sourceIn: ['Fax'] } } });
    expect(reply.status).toBe(400);
    expect(reply.body.error).toMatchObject({ type: 'validation_error', path: 'filters.sourceIn' });
    expect(reply.body.error.message).toContain('filters.sourceIn[0]');
  });

  it('ids of created views stay unique after deletes', async () => {
    const emulator = await start();
    const create = async (): Promise<string> =>
      (await call(emulator, 'POST', '/v1/recordings/views', { body: { creatorEmail: USERS.owner.email, name: 'n' } })).body.result.viewId;
    const first = await create();
    await call(emulator, 'DELETE', `/v1/recordings/views/${first}`);
    const second = await create();
    expect(second).not.toBe(first);
  });
});

describe('one visibility rule for view ids', () => {
  it('Visibility: a built-in default stored as Private is found alike by GET /views/{id} and ?viewId=', async () => {
    const data = fixture();
    const stored = data.views.deals.find((view) => view.viewId === 'd_default1');
    if (stored === undefined) throw new Error('fixture has no d_default1');
    stored.visibility = 'Private';
    const emulator = await start({ data });
    expect((await call(emulator, 'GET', '/v1/deals/views/d_default1')).status).toBe(200);
    expect((await call(emulator, 'GET', '/v1/deals?viewId=d_default1')).status).toBe(200);
    expect((await call(emulator, 'GET', '/v1/deals/views/d_private')).status).toBe(404);
    expect((await call(emulator, 'GET', '/v1/deals?viewId=d_private')).status).toBe(404);
  });
});

describe('sort attributes the service ignores', () => {
  it('insight is dropped from a sort entry whose field is not Insight, on POST and PATCH', async () => {
    const emulator = await start();
    const sort = [
      { field: 'CreatedAt', order: 'Desc', insight: { fieldId: 'f1' } },
      { field: 'Insight', order: 'Asc', insight: { fieldId: 'f1' } },
    ];
    const kept = [{ field: 'CreatedAt', order: 'Desc' }, sort[1]];
    const created = await call(emulator, 'POST', '/v1/recordings/views', { body: { creatorEmail: USERS.owner.email, name: 'Sorted', sort } });
    expect(created.body.result.sort).toEqual(kept);
    const updated = await call(emulator, 'PATCH', `/v1/recordings/views/${ids('recordings').publics[0]}`, { body: { sort } });
    expect(updated.body.result.sort).toEqual(kept);
    const read = await call(emulator, 'GET', `/v1/recordings/views/${ids('recordings').publics[0]}`);
    expect(read.body.result.sort).toEqual(kept);
  });
});
