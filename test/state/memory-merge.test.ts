import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mergeMemories } from '../../src/state/memory-merge.js';
import type { SweepMemory } from '../../src/state/sweep-memory.js';

const DAY = 24 * 60 * 60 * 1000;
const START = Date.parse('2026-01-01T00:00:00.000Z');
/** A few times only, so equal times (the tie-break) come up often. */
const time = fc.integer({ min: 0, max: 4 }).map((day) => new Date(START + day * DAY).toISOString());
const id = fc.constantFrom('v1', 'v2', 'v3', 'v4');
const email = fc.constantFrom('ann@example.com', 'bob@example.com', 'cy@example.com');
const domain = fc.constantFrom('deals' as const, 'recordings' as const);

const memoryArb: fc.Arbitrary<SweepMemory> = fc
  .record({
    workspace: fc.option(fc.constantFrom('ws_1', 'ws_2'), { nil: undefined }),
    lists: fc.array(fc.record({ domain, email, lastRead: time, viewIds: fc.array(id, { maxLength: 3 }) }), {
      maxLength: 4,
    }),
    views: fc.array(fc.record({ domain, id, name: fc.constantFrom('A', 'B'), lastSeen: time }), { maxLength: 4 }),
    members: fc.array(
      fc.record({
        email,
        role: fc.constantFrom('Member' as const, 'Admin' as const),
        state: fc.constantFrom('Active' as const, 'Deactivated' as const),
        lastSeen: time,
      }),
      { maxLength: 3 },
    ),
    lastApplied: fc.option(fc.record({ commit: fc.constantFrom('a'.repeat(40), 'b'.repeat(40)), at: time }), {
      nil: undefined,
    }),
  })
  .map(({ workspace, lists, views, members, lastApplied }) => ({
    formatVersion: 1 as const,
    ...(workspace === undefined ? {} : { workspaceId: workspace }),
    lists: Object.fromEntries(
      lists.map((entry) => [`${entry.domain}:${entry.email}`, { lastRead: entry.lastRead, viewIds: entry.viewIds }]),
    ),
    views: Object.fromEntries(views.map((entry) => [`view:${entry.domain}:id:${entry.id}`, entry])),
    members: Object.fromEntries(members.map(({ email: address, ...entry }) => [address, entry])),
    ...(lastApplied === undefined ? {} : { lastApplied }),
  }));

describe('mergeMemories', () => {
  it('is commutative, associative and idempotent on random memories', () => {
    fc.assert(
      fc.property(memoryArb, memoryArb, memoryArb, (a, b, c) => {
        expect(mergeMemories(a, b)).toEqual(mergeMemories(b, a));
        expect(JSON.stringify(mergeMemories(a, b))).toBe(JSON.stringify(mergeMemories(b, a)));
        expect(mergeMemories(a, a)).toEqual(a);
        expect(mergeMemories(mergeMemories(a, b), b)).toEqual(mergeMemories(a, b));
        expect(mergeMemories(mergeMemories(a, b), c)).toEqual(mergeMemories(a, mergeMemories(b, c)));
      }),
      { numRuns: 300 },
    );
  });

  it('keeps every entry of either side', () => {
    fc.assert(
      fc.property(memoryArb, memoryArb, (a, b) => {
        const merged = mergeMemories(a, b);
        for (const key of [...Object.keys(a.lists), ...Object.keys(b.lists)])
          expect(merged.lists).toHaveProperty([key]);
        for (const key of [...Object.keys(a.views), ...Object.keys(b.views)])
          expect(merged.views).toHaveProperty([key]);
        for (const key of [...Object.keys(a.members), ...Object.keys(b.members)])
          expect(merged.members).toHaveProperty([key]);
      }),
    );
  });

  it('keeps the later read of a list with its ids, the later sighting, the later apply', () => {
    const early = '2026-01-01T00:00:00.000Z';
    const late = '2026-01-03T00:00:00.000Z';
    const a: SweepMemory = {
      formatVersion: 1,
      workspaceId: 'ws_1',
      lists: {
        'deals:ann@example.com': { lastRead: late, viewIds: ['v2'] },
        'deals:bob@example.com': { lastRead: early, viewIds: ['v1'] },
      },
      views: { 'view:deals:id:v1': { domain: 'deals', id: 'v1', name: 'Old', lastSeen: early } },
      members: { 'ann@example.com': { role: 'Member', state: 'Deactivated', lastSeen: late } },
      lastApplied: { commit: 'a'.repeat(40), at: early },
    };
    const b: SweepMemory = {
      formatVersion: 1,
      lists: {
        'deals:ann@example.com': { lastRead: early, viewIds: ['v1', 'v2'] },
        'deals:bob@example.com': { lastRead: late, viewIds: [] },
      },
      views: { 'view:deals:id:v1': { domain: 'deals', id: 'v1', name: 'New', lastSeen: late } },
      members: { 'ann@example.com': { role: 'Admin', state: 'Active', lastSeen: early } },
      lastApplied: { commit: 'b'.repeat(40), at: late },
    };
    expect(mergeMemories(a, b)).toEqual({
      formatVersion: 1,
      workspaceId: 'ws_1',
      lists: {
        'deals:ann@example.com': { lastRead: late, viewIds: ['v2'] },
        'deals:bob@example.com': { lastRead: late, viewIds: [] },
      },
      views: { 'view:deals:id:v1': { domain: 'deals', id: 'v1', name: 'New', lastSeen: late } },
      members: { 'ann@example.com': { role: 'Member', state: 'Deactivated', lastSeen: late } },
      lastApplied: { commit: 'b'.repeat(40), at: late },
    });
  });

  it('compares times as instants, not as text', () => {
    const a: SweepMemory = {
      formatVersion: 1,
      lists: { 'deals:a@x.io': { lastRead: '2026-01-01T10:00:00.500Z', viewIds: ['new'] } },
      views: {},
      members: {},
    };
    const b: SweepMemory = {
      formatVersion: 1,
      lists: { 'deals:a@x.io': { lastRead: '2026-01-01T10:00:00Z', viewIds: ['old'] } },
      views: {},
      members: {},
    };
    // As text, "10:00:00Z" sorts after "10:00:00.500Z"; as instants it is half a second earlier.
    expect(mergeMemories(b, a).lists['deals:a@x.io']?.viewIds).toEqual(['new']);
    expect(mergeMemories(a, b).lists['deals:a@x.io']?.viewIds).toEqual(['new']);
  });
});
