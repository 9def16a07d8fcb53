import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkEmulatorData, loadEmulatorData } from '../../src/emulator/data-file.js';
import { ViewctlError } from '../../src/errors.js';
import { fixture, USERS } from './fixture.js';
import { call, useEmulator } from './helpers.js';

const start = useEmulator();
const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});
const tempFolder = (): string => {
  const folder = mkdtempSync(join(tmpdir(), 'viewctl-emulator-'));
  folders.push(folder);
  return folder;
};

describe('faults', () => {
  it('fail-rate answers 503 internal_error without acting', async () => {
    const emulator = await start({ failRate: 1 });
    const reply = await call(emulator, 'PATCH', '/v1/deals/views/d_pub1', { body: { name: 'changed' } });
    expect(reply.status).toBe(503);
    expect(reply.body.error.type).toBe('internal_error');
    expect(emulator.snapshot()).toEqual(fixture());
    expect(emulator.stats()).toMatchObject({ writes: 0, faultsInjected: 1 });
  });

  it('drop-after-commit applies the write, then drops the connection without an answer', async () => {
    const emulator = await start({ dropAfterCommitRate: 1 });
    await expect(call(emulator, 'PATCH', '/v1/deals/views/d_pub1', { body: { name: 'changed' } })).rejects.toThrow();
    expect(emulator.snapshot().views.deals.find((view) => view.viewId === 'd_pub1')?.name).toBe('changed');
    expect(emulator.stats()).toMatchObject({ writes: 1, faultsInjected: 1 });
  });

  it('drop-after-commit never drops a refused write: 400, 403 and 404 reach the client', async () => {
    const emulator = await start({ dropAfterCommitRate: 1 });
    expect((await call(emulator, 'PATCH', '/v1/deals/views/d_default1', { body: { name: 'x' } })).status).toBe(403);
    expect((await call(emulator, 'PATCH', '/v1/deals/views/d_absent', { body: { name: 'x' } })).status).toBe(404);
    expect((await call(emulator, 'POST', '/v1/deals/views', { body: { name: 'no creator' } })).status).toBe(400);
    expect((await call(emulator, 'POST', '/v1/deals/views', { rawBody: '{' })).status).toBe(400);
    expect(emulator.stats()).toMatchObject({ writes: 0, faultsInjected: 0 });
  });

  it('drop-after-commit drops a write that was carried out even when it changed nothing', async () => {
    const emulator = await start({ dropAfterCommitRate: 1 });
    await expect(call(emulator, 'PATCH', '/v1/deals/views/d_pub1', { body: { name: 'Pipeline' } })).rejects.toThrow();
    expect(emulator.stats()).toMatchObject({ writes: 0, faultsInjected: 1 });
  });

  it('drop-after-commit draws only for writes carried out, so refusals do not shift the seeded drops', async () => {
    const dropped = async (refusalsBetween: boolean): Promise<boolean[]> => {
      const emulator = await start({ dropAfterCommitRate: 0.5, seed: 11 });
      const outcomes: boolean[] = [];
      for (let index = 0; index < 12; index += 1) {
        if (refusalsBetween) await call(emulator, 'PATCH', '/v1/deals/views/d_default1', { body: { name: 'x' } });
        const reply = await call(emulator, 'PATCH', '/v1/deals/views/d_pub1', { body: { name: `n${index}` } }).catch(
          () => undefined,
        );
        outcomes.push(reply === undefined);
      }
      return outcomes;
    };
    const alone = await dropped(false);
    expect(alone).toContain(true);
    expect(alone).toContain(false);
    expect(await dropped(true)).toEqual(alone);
  });

  it('drop-after-commit leaves reads alone', async () => {
    const emulator = await start({ dropAfterCommitRate: 1 });
    expect((await call(emulator, 'GET', '/v1/deals/views')).status).toBe(200);
  });

  it('faults follow the seed: the same seed fails the same requests', async () => {
    const pattern = async (seed: number): Promise<number[]> => {
      const emulator = await start({ failRate: 0.5, seed });
      const statuses: number[] = [];
      for (let index = 0; index < 16; index += 1) statuses.push((await call(emulator, 'GET', '/v1/users')).status);
      return statuses;
    };
    const first = await pattern(42);
    expect(first).toContain(503);
    expect(first).toContain(200);
    expect(await pattern(42)).toEqual(first);
  });

  it('latency waits the configured time before each request is handled', async () => {
    const waits: number[] = [];
    const emulator = await start({ latencyMs: 250, sleep: async (ms) => void waits.push(ms) });
    await call(emulator, 'GET', '/v1/users');
    await call(emulator, 'GET', '/v1/workspaces/mine');
    expect(waits).toEqual([250, 250]);
  });

  it('a fault inside the emulator is 500 internal_error as JSON, and nothing is changed', async () => {
    const emulator = await start({
      attributeChecker: () => {
        throw new Error('checker broke');
      },
    });
    const reply = await call(emulator, 'PATCH', '/v1/deals/views/d_pub1', { body: { sort: [] } });
    expect(reply.status).toBe(500);
    expect(reply.body.error.type).toBe('internal_error');
    expect(emulator.snapshot()).toEqual(fixture());
  });

  it('stats count requests per endpoint and reset', async () => {
    const emulator = await start();
    await call(emulator, 'GET', '/v1/users');
    await call(emulator, 'GET', '/v1/nothing');
    expect(emulator.stats()).toMatchObject({ requests: 2, byEndpoint: { 'GET /v1/users': 1, 'GET (no route)': 1 } });
    emulator.resetStats();
    expect(emulator.stats()).toEqual({ requests: 0, writes: 0, byEndpoint: {}, rateLimited: 0, faultsInjected: 0 });
  });
});

describe('state file', () => {
  it('state file survives restart', async () => {
    const statePath = join(tempFolder(), 'state.json');
    const first = await start({ statePath });
    const created = await call(first, 'POST', '/v1/contacts/views', {
      body: { creatorEmail: USERS.owner.email, name: 'Kept' },
    });
    await call(first, 'PUT', `/v1/contacts/views/pinned?userEmail=${USERS.other.email}`, {
      body: { viewIds: [created.body.result.viewId] },
    });
    await first.close();
    // The data given on restart is ignored: the state file wins.
    const emptier = fixture();
    emptier.views.contacts = [];
    const second = await start({ statePath, data: emptier });
    expect((await call(second, 'GET', `/v1/contacts/views/${created.body.result.viewId}`)).body.result.name).toBe(
      'Kept',
    );
    const pinned = await call(second, 'GET', `/v1/contacts/views/pinned?userEmail=${USERS.other.email}`);
    expect(pinned.body.result.map((view: { viewId: string }) => view.viewId)).toEqual([created.body.result.viewId]);
    const again = await call(second, 'POST', '/v1/contacts/views', {
      body: { creatorEmail: USERS.owner.email, name: 'Next' },
    });
    expect(again.body.result.viewId).not.toBe(created.body.result.viewId);
  });

  it('the state file is written before the answer, whole, with no temporary file left', async () => {
    const folder = tempFolder();
    const statePath = join(folder, 'state.json');
    const emulator = await start({ statePath });
    await call(emulator, 'PATCH', '/v1/companies/views/c_pub1', { body: { name: 'On disk' } });
    const saved = JSON.parse(readFileSync(statePath, 'utf8'));
    expect(saved.views.companies.find((view: { viewId: string }) => view.viewId === 'c_pub1').name).toBe('On disk');
    expect(readdirSync(folder)).toEqual(['state.json']);
  });

  it('a state file that cannot be written refuses the change: memory and file keep agreeing', async () => {
    const folder = tempFolder();
    const statePath = join(folder, 'state.json');
    const emulator = await start({ statePath });
    rmSync(folder, { recursive: true, force: true });
    const refused = await call(emulator, 'PATCH', '/v1/companies/views/c_pub1', { body: { name: 'Lost' } });
    expect(refused.status).toBe(500);
    expect(refused.body.error.type).toBe('internal_error');
    expect(emulator.snapshot()).toEqual(fixture());
    expect(emulator.stats().writes).toBe(0);
    mkdirSync(folder);
    expect((await call(emulator, 'PATCH', '/v1/companies/views/c_pub2', { body: { name: 'Kept' } })).status).toBe(200);
    const saved = loadEmulatorData(statePath);
    expect(saved).toEqual(emulator.snapshot());
    expect(saved.views.companies.find((view) => view.viewId === 'c_pub1')?.name).toBe('Pipeline');
    expect(readdirSync(folder)).toEqual(['state.json']);
  });

  it('a new state file is seeded with the data', async () => {
    const statePath = join(tempFolder(), 'state.json');
    await start({ statePath });
    expect(loadEmulatorData(statePath)).toEqual(fixture());
  });

  it('a corrupt state file is refused with an error naming it', async () => {
    const statePath = join(tempFolder(), 'state.json');
    writeFileSync(statePath, '{"workspace": ');
    await expect(start({ statePath })).rejects.toThrow(/state\.json is not valid JSON/);
  });
});

describe('loadEmulatorData', () => {
  const write = (value: unknown): string => {
    const path = join(tempFolder(), 'data.json');
    writeFileSync(path, typeof value === 'string' ? value : JSON.stringify(value));
    return path;
  };
  const codeOf = (thunk: () => unknown): string | undefined => {
    try {
      thunk();
    } catch (error) {
      return error instanceof ViewctlError ? error.code : 'not a ViewctlError';
    }
    return undefined;
  };

  it('reads a valid file', () => {
    expect(loadEmulatorData(write(fixture()))).toEqual(fixture());
  });

  it('fills in the collections a hand-written file leaves out', () => {
    const { workspace, users, views } = fixture();
    const data = loadEmulatorData(write({ workspace, users, views }));
    expect(data).toMatchObject({ teams: [], recordings: [], webhooks: [], automations: [], nextIds: {} });
    expect(data.pinned).toEqual({ recordings: {}, deals: {}, companies: {}, contacts: {} });
  });

  it('a missing file is emulator.data-unreadable', () => {
    expect(codeOf(() => loadEmulatorData(join(tempFolder(), 'absent.json')))).toBe('emulator.data-unreadable');
  });

  it.each([
    ['not JSON', 'nope', /not valid JSON/],
    ['no users', { ...fixture(), users: undefined }, /\$\.users must be an array/],
    [
      'a bad role',
      { ...fixture(), users: [{ ...USERS.owner, role: 'King' }] },
      /\$\.users\[0\]\.role must be one of Owner, Admin, Member/,
    ],
    [
      'a missing domain',
      { ...fixture(), views: { recordings: [], deals: [], companies: [] } },
      /\$\.views\.contacts must be an array/,
    ],
    [
      'a repeated view id',
      (() => {
        const data = fixture();
        data.views.deals.push({ ...data.views.deals[0]! });
        return data;
      })(),
      /repeats the view id "d_pub1"/,
    ],
  ])('a file with %s is refused with the path of the problem', (_, value, message) => {
    const path = write(value);
    expect(() => loadEmulatorData(path)).toThrow(message);
    expect(codeOf(() => loadEmulatorData(path))).toBe('emulator.data-invalid');
  });

  it('checkEmulatorData refuses a view without filters', () => {
    const data = fixture() as unknown as { views: { deals: Record<string, unknown>[] } };
    delete data.views.deals[0]!.filters;
    expect(() => checkEmulatorData(data, 'test')).toThrow(/\$\.views\.deals\[0\]\.filters must be an object/);
  });
});
