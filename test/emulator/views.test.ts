import { describe, expect, it } from 'vitest';
import { DOMAINS, VIEW_CAP, type Domain } from '../../src/domain/domains.js';
import type { ApiView } from '../../src/domain/api-types.js';
import { fixture, ids, USERS } from './fixture.js';
import { call, useEmulator } from './helpers.js';

const start = useEmulator();

// The endpoints of every domain are built in one loop (src/emulator/routes.ts) and
// crud.ts / body.ts take the domain only to pick its data (its views, its shapes, its
// response-only filters), so each rule is tested once, on companies, a domain with no
// rule of its own; the first test checks that every domain's endpoints are wired to
// its own data, and what a domain adds is tested under its name further down.
describe('the view endpoints of every domain', () => {
  it('serve each domain its own views: the listing (public saved views in creation order, then the defaults), GET, POST, PATCH and DELETE', async () => {
    const emulator = await start();
    for (const domain of DOMAINS) {
      const base = `/v1/${domain}/views`;
      const { defaults, publics } = ids(domain);
      const listed = async (): Promise<string[]> =>
        (await call(emulator, 'GET', base)).body.result.map((view: ApiView) => view.viewId);
      expect(await listed()).toEqual([...publics, ...defaults]);
      expect((await call(emulator, 'GET', `${base}/${publics[0]}`)).body.result).toMatchObject({
        viewId: publics[0],
        name: 'Pipeline',
      });
      const created = await call(emulator, 'POST', base, {
        body: { creatorEmail: USERS.owner.email, name: `New ${domain}` },
      });
      expect(created.status).toBe(200);
      expect(
        (await call(emulator, 'PATCH', `${base}/${publics[0]}`, { body: { name: 'Renamed' } })).body.result.name,
      ).toBe('Renamed');
      expect((await call(emulator, 'DELETE', `${base}/${publics[1]}`)).status).toBe(200);
      expect(await listed()).toEqual([publics[0], publics[2], created.body.result.viewId, ...defaults]);
    }
    expect(emulator.stats().writes).toBe(3 * DOMAINS.length);
  });
});

describe('views (rules of every domain, shown on companies)', () => {
  const domain: Domain = 'companies';
  const base = `/v1/${domain}/views`;
  const { defaults, publics, private: privateId } = ids(domain);

  it('Visibility: GET, PATCH and DELETE of a private view are 404 not_found and change nothing', async () => {
    const emulator = await start();
    for (const [method, options] of [
      ['GET', {}],
      ['PATCH', { body: { name: 'x' } }],
      ['DELETE', {}],
    ] as const) {
      const reply = await call(emulator, method, `${base}/${privateId}`, options);
      expect(reply.status).toBe(404);
      expect(reply.body.error.type).toBe('not_found');
    }
    expect(emulator.stats().writes).toBe(0);
    expect(emulator.snapshot()).toEqual(fixture());
  });

  it('Default views: GET by id returns a default view with isDefault and #global owner', async () => {
    const emulator = await start();
    const reply = await call(emulator, 'GET', `${base}/${defaults[0]}`);
    expect(reply.status).toBe(200);
    expect(reply.body.result).toMatchObject({ viewId: defaults[0], isDefault: true, ownerId: '#global' });
  });

  it('Default views: PATCH and DELETE of a default view are 403 forbidden and change nothing', async () => {
    const emulator = await start();
    const patched = await call(emulator, 'PATCH', `${base}/${defaults[0]}`, { body: { name: 'Mine now' } });
    const deleted = await call(emulator, 'DELETE', `${base}/${defaults[1]}`);
    for (const reply of [patched, deleted]) {
      expect(reply.status).toBe(403);
      expect(reply.body.error.type).toBe('forbidden');
    }
    expect(emulator.snapshot()).toEqual(fixture());
  });

  it('Ownership: POST creates a public, non-default view owned by creatorEmail, with empty defaults', async () => {
    const emulator = await start();
    const reply = await call(emulator, 'POST', base, { body: { creatorEmail: USERS.other.email, name: 'New one' } });
    expect(reply.status).toBe(200);
    const view = reply.body.result as ApiView;
    expect(view).toEqual({
      viewId: view.viewId,
      name: 'New one',
      visibility: 'Public',
      isDefault: false,
      ownerId: USERS.other.id,
      columns: [],
      filters: {},
      sort: [],
    });
    expect((await call(emulator, 'GET', `${base}/${view.viewId}`)).body.result).toEqual(view);
    const listed = (await call(emulator, 'GET', base)).body.result.map((entry: ApiView) => entry.viewId);
    expect(listed).toEqual([...publics, view.viewId, ...defaults]);
    expect(emulator.stats().writes).toBe(1);
  });

  it('Ownership: POST keeps sent columns, filters, sort and icon', async () => {
    const emulator = await start();
    const source = fixture().views[domain].find((entry) => entry.viewId === publics[1]) as ApiView;
    const body = {
      creatorEmail: USERS.admin.email,
      name: 'Full',
      icon: 'star',
      columns: source.columns,
      filters: source.filters,
      sort: source.sort,
    };
    const reply = await call(emulator, 'POST', base, { body });
    expect(reply.status).toBe(200);
    expect(reply.body.result).toMatchObject({
      icon: 'star',
      columns: source.columns,
      filters: source.filters,
      sort: source.sort,
      ownerId: USERS.admin.id,
    });
  });

  it('Ownership: POST with a creatorEmail that is no active member (unknown, deactivated, invited) is 400 with path creatorEmail', async () => {
    const emulator = await start();
    for (const email of ['nobody@acme.test', USERS.gone.email, USERS.invited.email]) {
      const reply = await call(emulator, 'POST', base, { body: { creatorEmail: email, name: 'x' } });
      expect(reply.status).toBe(400);
      expect(reply.body.error).toMatchObject({ type: 'validation_error', path: 'creatorEmail' });
    }
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

  it('ids of created views stay unique after deletes', async () => {
    const emulator = await start();
    const create = async (): Promise<string> =>
      (await call(emulator, 'POST', base, { body: { creatorEmail: USERS.owner.email, name: 'n' } })).body.result.viewId;
    const first = await create();
    await call(emulator, 'DELETE', `${base}/${first}`);
    const second = await create();
    expect(second).not.toBe(first);
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
    [[{ name: 42 }, { name: '' }], 'name'],
    [[{ icon: 7 }], 'icon'],
    [[{ columns: {} }], 'columns'],
    [[{ filters: [] }], 'filters'],
    [[{ sort: 'CreatedAt' }], 'sort'],
    [[{ sort: [{ field: 'CreatedAt', order: 'Sideways' }] }], 'sort'],
    [[{ columns: [{ type: 'Default', columnId: 'x', colour: 'red' }] }], 'columns'],
    [[{ filters: { noSuchFilter: true } }], 'filters.noSuchFilter'],
  ])('a wrong value in a PATCH body is 400 with its dotted path (%j)', async (bodies, path) => {
    const emulator = await start();
    for (const body of bodies) {
      const reply = await call(emulator, 'PATCH', `${base}/${publics[0]}`, { body });
      expect(reply.status).toBe(400);
      expect(reply.body.error).toMatchObject({ type: 'validation_error', path });
    }
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
    const reply = await call(emulator, 'POST', base, {
      body: { creatorEmail: USERS.owner.email, name: 'one too many' },
    });
    expect(reply.status).toBe(400);
    expect(reply.body.error.type).toBe('validation_error');
    expect(emulator.snapshot().views[domain]).toHaveLength(VIEW_CAP + 2);
  });
});

describe('deal views', () => {
  it('a deal view POST or PATCH whose filters carry the response-only dealAgeRange is 400 with path filters.dealAgeRange', async () => {
    const emulator = await start();
    const posted = await call(emulator, 'POST', '/v1/deals/views', {
      body: { creatorEmail: USERS.owner.email, name: 'x', filters: { dealAgeRange: 'OneDay' } },
    });
    const patched = await call(emulator, 'PATCH', '/v1/deals/views/d_pub1', {
      body: { filters: { dealAgeRange: 'OneDay' } },
    });
    for (const reply of [posted, patched]) {
      expect(reply.status).toBe(400);
      expect(reply.body.error).toMatchObject({ type: 'validation_error', path: 'filters.dealAgeRange' });
    }
    expect(emulator.snapshot()).toEqual(fixture());
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
    const reply = await call(emulator, 'PATCH', '/v1/recordings/views/r_pub1', {
      body: { filters: { sourceIn: ['Fax'] } },
    });
    expect(reply.status).toBe(400);
    expect(reply.body.error).toMatchObject({ type: 'validation_error', path: 'filters.sourceIn' });
    expect(reply.body.error.message).toContain('filters.sourceIn[0]');
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
    const created = await call(emulator, 'POST', '/v1/recordings/views', {
      body: { creatorEmail: USERS.owner.email, name: 'Sorted', sort },
    });
    expect(created.body.result.sort).toEqual(kept);
    const updated = await call(emulator, 'PATCH', `/v1/recordings/views/${ids('recordings').publics[0]}`, {
      body: { sort },
    });
    expect(updated.body.result.sort).toEqual(kept);
    const read = await call(emulator, 'GET', `/v1/recordings/views/${ids('recordings').publics[0]}`);
    expect(read.body.result.sort).toEqual(kept);
  });
});
