import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { ApiView } from '../../src/domain/api-types.js';
import type { LiveSeen } from '../../src/state/memory-observe.js';
import { openMemoryFileRun } from '../../src/state/memory-run.js';
import { inMemoryStore } from '../../src/state/memory-store.js';
import type { SweepMemory } from '../../src/state/sweep-memory.js';

/**
 * A run's use of the memory over the in-memory store (state/memory-store.ts): what a
 * flow sees when a test hands it a store by type, and the same rules as the file.
 */

const T1 = Date.parse('2026-05-01T02:00:00.000Z');
const DAY = 24 * 60 * 60 * 1000;
const iso = (ms: number): string => new Date(ms).toISOString();
const workspace = { id: 'ws_1', name: 'Acme', createdAt: '', membersCount: 2, recordingsCount: 0 };
const view = (viewId: string): ApiView => ({
  viewId,
  name: viewId,
  visibility: 'Public',
  isDefault: false,
  ownerId: 'u',
  columns: [],
  filters: {},
  sort: [],
});
const live = (pins: LiveSeen['pins']): LiveSeen => ({ workspace, views: {}, pins });

function stderr(): { stderr: PassThrough; text: () => string } {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return { stderr: stream, text: () => text };
}

function text(memory: Partial<SweepMemory>): string {
  return JSON.stringify({ formatVersion: 1, workspaceId: 'ws_1', lists: {}, views: {}, members: {}, ...memory });
}

describe('openMemoryFileRun and MemoryFileRun.save over the in-memory store', () => {
  it('starts a new memory, and writes it as the file would be written', async () => {
    const store = inMemoryStore();
    const run = await openMemoryFileRun(store, () => T1);
    expect(run.memory.lists).toEqual({});
    run.observe(live({ 'deals:ann@x.io': [view('v1')] }));
    const err = stderr();
    await run.save(err);
    expect(err.text()).toBe('');
    expect(store.text).toBe(
      `${JSON.stringify({ formatVersion: 1, workspaceId: 'ws_1', lists: { 'deals:ann@x.io': { lastRead: iso(T1), viewIds: ['v1'] } }, views: {}, members: {} }, null, 2)}\n`,
    );
  });

  it('refuses what is not a memory, as the file store does', async () => {
    await expect(openMemoryFileRun(inMemoryStore('[]', 'l.json'), () => T1)).rejects.toMatchObject({
      code: 'ledger.invalid',
    });
  });

  it('says a date after the run clock on stderr, plans without it, and lets the fresh read replace it', async () => {
    const store = inMemoryStore(
      text({
        lists: {
          'deals:ann@x.io': { lastRead: '9999-12-31T23:59:59Z', viewIds: ['forged'] },
          'deals:bob@x.io': { lastRead: iso(T1 - DAY), viewIds: ['v2'] },
        },
      }),
    );
    const err = stderr();
    const run = await openMemoryFileRun(store, () => T1, err);
    expect(err.text()).toBe(
      "warning: --ledger ledger.json holds a date after this run's clock (2026-05-01T02:00:00.000Z), such as /lists/deals:ann@x.io/lastRead 9999-12-31T23:59:59Z (a runner whose clock is ahead, or an edit): not trusted, those entries are unknown; its list is due, as if never read (ledger.future-date)\n",
    );
    expect(Object.keys(run.memory.lists)).toEqual(['deals:bob@x.io']);
    run.observe(live({ 'deals:ann@x.io': [view('v1')] }));
    await run.save(stderr());
    const saved = JSON.parse(store.text ?? '') as SweepMemory;
    expect(saved.lists).toEqual({
      'deals:ann@x.io': { lastRead: iso(T1), viewIds: ['v1'] },
      'deals:bob@x.io': { lastRead: iso(T1 - DAY), viewIds: ['v2'] },
    });
  });

  it('never lets a date after its clock, written by another run meanwhile, win over what it read', async () => {
    const store = inMemoryStore();
    const run = await openMemoryFileRun(store, () => T1);
    run.observe(live({ 'deals:ann@x.io': [view('v1')] }));
    // A runner whose clock is a month ahead saved meanwhile.
    store.text = text({
      lists: {
        'deals:ann@x.io': { lastRead: iso(T1 + 30 * DAY), viewIds: ['old'] },
        'deals:cy@x.io': { lastRead: iso(T1 + 30 * DAY), viewIds: ['v3'] },
      },
    });
    await run.save(stderr());
    const saved = JSON.parse(store.text ?? '') as SweepMemory;
    expect(saved.lists['deals:ann@x.io']).toEqual({ lastRead: iso(T1), viewIds: ['v1'] });
    // What only the other run saw is kept; every run that loads it distrusts its date.
    expect(saved.lists['deals:cy@x.io']?.viewIds).toEqual(['v3']);
  });

  it("prunes the holds whose cause ended from the last applied record it loaded, never from a newer apply's", async () => {
    const applied = { commit: 'c'.repeat(40), at: iso(T1 - DAY), held: ['pins:deals:ann@x.io', 'view:deals:id:v9'] };
    const store = inMemoryStore(text({ lastApplied: applied }));
    const run = await openMemoryFileRun(store, () => T1);
    run.endHolds(['view:deals:id:v9']);
    await run.save(stderr());
    expect((JSON.parse(store.text ?? '') as SweepMemory).lastApplied).toEqual({
      ...applied,
      held: ['pins:deals:ann@x.io'],
    });
    // The last hold ends: the record holds no list.
    const again = await openMemoryFileRun(store, () => T1);
    again.endHolds(['pins:deals:ann@x.io']);
    await again.save(stderr());
    expect((JSON.parse(store.text ?? '') as SweepMemory).lastApplied).toEqual({
      commit: applied.commit,
      at: applied.at,
    });
    // An apply recorded meanwhile held it from its own reads: kept.
    const meanwhile = inMemoryStore(text({ lastApplied: applied }));
    const late = await openMemoryFileRun(meanwhile, () => T1);
    const newer = { commit: 'd'.repeat(40), at: iso(T1), held: ['view:deals:id:v9'] };
    meanwhile.text = text({ lastApplied: newer });
    late.endHolds(['view:deals:id:v9']);
    await late.save(stderr());
    expect((JSON.parse(meanwhile.text ?? '') as SweepMemory).lastApplied).toEqual(newer);
  });

  it('queues writers: each merges what the one before wrote', async () => {
    const store = inMemoryStore();
    const members = ['ann', 'bob', 'cy'];
    const runs = await Promise.all(
      members.map(async (member) => ({ member, run: await openMemoryFileRun(store, () => T1) })),
    );
    for (const { member, run } of runs) run.observe(live({ [`deals:${member}@x.io`]: [view('v1')] }));
    await Promise.all(runs.map(({ run }) => run.save(stderr())));
    expect(Object.keys((await store.read()).lists)).toHaveLength(3);
  });
});
