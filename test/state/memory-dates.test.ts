import { describe, expect, it } from 'vitest';
import {
  distrustFuture,
  FUTURE_TOLERANCE_MS,
  futureGivesWay,
  futureWarning,
  isRealTime,
} from '../../src/state/memory-dates.js';
import { mergeMemories } from '../../src/state/memory-merge.js';
import { parseMemoryFile } from '../../src/state/memory-parse.js';
import type { SweepMemory } from '../../src/state/sweep-memory.js';
import { thrownViewctlError } from '../support/errors.js';

const NOW = Date.parse('2026-05-01T02:00:00.000Z');
const iso = (ms: number): string => new Date(ms).toISOString();
const DAY = 24 * 60 * 60 * 1000;

function memory(parts: Partial<SweepMemory> = {}): SweepMemory {
  return { formatVersion: 1, workspaceId: 'ws_1', lists: {}, views: {}, members: {}, ...parts };
}

describe('isRealTime', () => {
  it.each([
    ['2026-05-01T02:00:00Z', true],
    ['2026-05-01T02:00:00.123Z', true],
    ['2024-02-29T23:59:59Z', true],
    ['9999-12-31T23:59:59Z', true],
    ['2026-13-45T99:99:99Z', false],
    ['2026-02-30T00:00:00Z', false],
    ['2025-02-29T00:00:00Z', false],
    ['2026-04-31T00:00:00Z', false],
    ['2026-05-01T24:00:00Z', false],
    ['2026-05-01T23:60:00Z', false],
    ['2026-05-01T23:59:60Z', false],
    ['2026-00-10T00:00:00Z', false],
  ])('%s is real: %s', (value, real) => {
    expect(isRealTime(value)).toBe(real);
  });
});

describe('parseMemoryFile: dates that name no instant', () => {
  it('refuses each with its JSON path and FILE:LINE:COLUMN (a date past every real one would shadow each fresh read)', () => {
    const text = JSON.stringify(
      memory({
        lists: { 'deals:ann@x.io': { lastRead: '2026-13-45T99:99:99Z', viewIds: ['v1'] } },
        views: { 'view:deals:id:v1': { domain: 'deals', id: 'v1', name: 'A', lastSeen: '2026-02-30T00:00:00Z' } },
        members: {
          'ann@x.io': { role: 'Member', state: 'Active', lastSeen: iso(NOW), since: '2026-05-01T24:00:00Z' },
        },
        lastApplied: { commit: 'a'.repeat(40), at: '2026-04-31T00:00:00Z' },
      }),
      null,
      2,
    );
    const error = thrownViewctlError(() => parseMemoryFile(text, '.viewctl/ledger.json'));
    expect(error.code).toBe('ledger.invalid');
    expect(error.message).toBe(
      '--ledger .viewctl/ledger.json is not a viewctl sweep memory, so it is neither used nor written over: ' +
        '/lists/deals:ann@x.io/lastRead: "2026-13-45T99:99:99Z" is not a real date and time, at .viewctl/ledger.json:6:19; ' +
        '/views/view:deals:id:v1/lastSeen: "2026-02-30T00:00:00Z" is not a real date and time, at .viewctl/ledger.json:17:19; ' +
        '/members/ann@x.io/since: "2026-05-01T24:00:00Z" is not a real date and time, at .viewctl/ledger.json:25:16; ' +
        '/lastApplied/at: "2026-04-31T00:00:00Z" is not a real date and time, at .viewctl/ledger.json:30:11',
    );
    expect(error.hint).toContain('delete this one');
  });

  it('reads real dates, the far future included (that is judged against the run clock, not here)', () => {
    const far = memory({ lists: { 'deals:ann@x.io': { lastRead: '9999-12-31T23:59:59Z', viewIds: [] } } });
    expect(parseMemoryFile(JSON.stringify(far), 'l.json')).toEqual(far);
  });
});

describe('distrustFuture', () => {
  const ahead = iso(NOW + FUTURE_TOLERANCE_MS + 1000);
  const skewed = iso(NOW + FUTURE_TOLERANCE_MS - 1000);

  it('makes entries dated past the tolerance unknown, clamps those within it, and keeps the rest', () => {
    const loaded = memory({
      lists: {
        'deals:far@x.io': { lastRead: '9999-12-31T23:59:59Z', viewIds: ['v1'] },
        'deals:ahead@x.io': { lastRead: ahead, viewIds: ['v1'] },
        'deals:skewed@x.io': { lastRead: skewed, viewIds: ['v2'] },
        'deals:past@x.io': { lastRead: iso(NOW - DAY), viewIds: ['v3'] },
      },
      views: {
        'view:deals:id:v1': { domain: 'deals', id: 'v1', name: 'A', lastSeen: ahead },
        'view:deals:id:v2': { domain: 'deals', id: 'v2', name: 'B', lastSeen: iso(NOW) },
      },
      members: {
        'far@x.io': { role: 'Member', state: 'Active', lastSeen: ahead },
        'new@x.io': { role: 'Member', state: 'Active', lastSeen: iso(NOW), since: ahead },
      },
      lastApplied: { commit: 'a'.repeat(40), at: ahead },
    });
    const { memory: trusted, future } = distrustFuture(loaded, NOW);
    expect(trusted).toEqual(
      memory({
        lists: {
          'deals:skewed@x.io': { lastRead: iso(NOW), viewIds: ['v2'] },
          'deals:past@x.io': { lastRead: iso(NOW - DAY), viewIds: ['v3'] },
        },
        views: { 'view:deals:id:v2': { domain: 'deals', id: 'v2', name: 'B', lastSeen: iso(NOW) } },
        members: { 'new@x.io': { role: 'Member', state: 'Active', lastSeen: iso(NOW) } },
        // The commit is a fact the repository checks; only its time is not trusted.
        lastApplied: { commit: 'a'.repeat(40), at: iso(NOW) },
      }),
    );
    expect(future.map((date) => date.path.join('/'))).toEqual([
      'lists/deals:far@x.io/lastRead',
      'lists/deals:ahead@x.io/lastRead',
      'views/view:deals:id:v1/lastSeen',
      'members/far@x.io/lastSeen',
      'members/new@x.io/since',
      'lastApplied/at',
    ]);
    expect(futureWarning(future, 'l.json', NOW)).toEqual({
      code: 'ledger.future-date',
      message:
        "--ledger l.json holds 6 dates after this run's clock (2026-05-01T02:00:00.000Z), such as /lists/deals:far@x.io/lastRead 9999-12-31T23:59:59Z (a runner whose clock is ahead, or an edit): not trusted, those entries are unknown; 2 lists are due, as if never read",
    });
  });

  it('leaves a memory without future dates as it is, and says nothing', () => {
    const past = memory({ lists: { 'deals:ann@x.io': { lastRead: iso(NOW - DAY), viewIds: [] } } });
    expect(distrustFuture(past, NOW)).toEqual({ memory: past, future: [] });
    expect(futureWarning([], 'l.json', NOW)).toBeUndefined();
  });
});

describe('futureGivesWay', () => {
  it("never lets a date after the run's clock win the merge over what the run knows, keeps what only the file has, and forgets what no clock could date", () => {
    const held = memory({
      lists: {
        'deals:ann@x.io': { lastRead: '9999-12-31T23:59:59Z', viewIds: ['stale'] },
        'deals:bob@x.io': { lastRead: iso(NOW + 2 * DAY), viewIds: ['other runner'] },
        'deals:left@x.io': { lastRead: iso(NOW + 91 * DAY), viewIds: ['forged'] },
      },
      lastApplied: { commit: 'f'.repeat(40), at: '9999-12-31T23:59:59Z' },
    });
    const known = memory({
      lists: { 'deals:ann@x.io': { lastRead: iso(NOW), viewIds: ['fresh'] } },
      lastApplied: { commit: 'a'.repeat(40), at: iso(NOW - DAY) },
    });
    const merged = mergeMemories(futureGivesWay(held, known, NOW), known);
    expect(merged.lists).toEqual({
      'deals:ann@x.io': { lastRead: iso(NOW), viewIds: ['fresh'] },
      'deals:bob@x.io': { lastRead: iso(NOW + 2 * DAY), viewIds: ['other runner'] },
    });
    expect(merged.lastApplied?.commit).toBe('a'.repeat(40));
    // Without it, the far date wins: the defect this guards.
    expect(mergeMemories(held, known).lists['deals:ann@x.io']?.viewIds).toEqual(['stale']);
  });
});
