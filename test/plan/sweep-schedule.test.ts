import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DOMAINS, type Domain } from '../../src/domain/domains.js';
import type { KeyedPins } from '../../src/plan/desired-values.js';
import { listHash, rotationCycle, sweepNight, type SweepCoverage } from '../../src/plan/sweep-schedule.js';
import { emptyMemory, type SweepMemory } from '../../src/state/sweep-memory.js';
import { pinsKey } from '../../src/state/types.js';
import { pinsOf } from './fixtures.js';

/**
 * The nightly sweep's promise (README, "The nightly sweep's promise"), on random churn:
 * members leave and join every night, a role change gives or takes a domain's list,
 * some nights have a smaller room (a busy day's quota), and each night reads exactly
 * min(room, lists) lists and keeps the cycle it states, with the memory and without.
 */

const NIGHT0 = 20_500;
const dayMs = (night: number): string => new Date(night * 86_400_000).toISOString();

function keyed(email: string, domain: Domain): KeyedPins {
  return { key: pinsKey(domain, email), pins: pinsOf(email, domain, [{ name: 'All' }]) };
}

/** Workspace is a random organisation's lists: per member, the domains they have a list in. */
type Workspace = Map<string, Set<Domain>>;

function listsOf(workspace: Workspace): KeyedPins[] {
  return [...workspace].flatMap(([email, domains]) => [...domains].map((domain) => keyed(email, domain)));
}

/** Churn is one night's events: who leaves (index into the members), joins, and changes role. */
interface Churn {
  leave: number[];
  join: number;
  role: number[];
  busy: boolean;
}

const churnOf = fc.record({
  leave: fc.array(fc.nat(), { maxLength: 3 }),
  join: fc.nat({ max: 3 }),
  role: fc.array(fc.nat(), { maxLength: 4 }),
  busy: fc.boolean().chain((busy) => (busy ? fc.boolean() : fc.constant(false))),
});

/** A night reads exactly min(room, lists), and every night's record for the checks below. */
interface Night {
  lists: Set<string>;
  read: Set<string>;
  coverage: SweepCoverage;
  room: number;
}

/** simulate runs `nights` nights of `churn` over `members` members at `room` (half on busy nights). */
function simulate(
  members: number,
  room: number,
  churn: readonly Churn[],
  withMemory: boolean,
  perNight?: (night: Night, lists: KeyedPins[], memory: SweepMemory) => void,
): Night[] {
  const workspace: Workspace = new Map();
  let joined = 0;
  const join = (): void => {
    const email = `m${joined}@acme.test`;
    joined += 1;
    workspace.set(email, new Set(DOMAINS.filter((_, index) => (listHash(email) >> index) & 1 || index === 0)));
  };
  for (let index = 0; index < members; index += 1) join();
  const memory = emptyMemory();
  const nights: Night[] = [];
  churn.forEach((events, offset) => {
    const night = NIGHT0 + offset;
    if (offset > 0) {
      const emails = [...workspace.keys()];
      for (const pick of events.leave) workspace.delete(emails[pick % emails.length] ?? '');
      for (let count = 0; count < events.join; count += 1) join();
      const now = [...workspace.keys()];
      for (const pick of events.role) {
        const domains = workspace.get(now[pick % now.length] ?? '');
        const domain = DOMAINS[pick % DOMAINS.length] ?? 'recordings';
        if (domains === undefined) continue;
        if (domains.has(domain) && domains.size > 1) domains.delete(domain);
        else domains.add(domain);
      }
    }
    const lists = listsOf(workspace);
    const tonight = events.busy ? Math.max(1, Math.floor(room / 2)) : room;
    const { read, coverage } = sweepNight(lists, tonight, night, withMemory ? memory : undefined);
    const record: Night = {
      lists: new Set(lists.map((entry) => entry.key)),
      read: new Set(read.map((entry) => entry.key)),
      coverage,
      room: tonight,
    };
    perNight?.(record, lists, memory);
    nights.push(record);
    for (const entry of read) memory.lists[entry.key] = { lastRead: dayMs(night), viewIds: [] };
  });
  return nights;
}

/**
 * brokenWindows lists every window of nights in which a list that existed throughout
 * was never read, though the window is at least as long as every cycle stated in it.
 */
function brokenWindows(nights: readonly Night[]): string[] {
  const broken: string[] = [];
  for (let start = 0; start < nights.length; start += 1) {
    let width = nights[start]?.coverage.cycle ?? 1;
    // The window grows until it holds every figure stated in it.
    for (let most = width; ; width = most) {
      most = Math.max(...nights.slice(start, start + width).map((night) => night.coverage.cycle));
      if (most <= width) break;
    }
    if (start + width > nights.length) continue;
    const window = nights.slice(start, start + width);
    for (const key of window[0]?.lists ?? []) {
      if (window.every((night) => night.lists.has(key)) && !window.some((night) => night.read.has(key)))
        broken.push(`${key} unread in nights ${start}..${start + width - 1}`);
    }
  }
  return broken;
}

describe('the rotation, without the memory', () => {
  it('under churn and busy nights: reads exactly min(room, lists) each night, and every list that exists through the stated cycle is read in it', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 20, max: 120 }),
        fc.integer({ min: 8, max: 60 }),
        fc.array(churnOf, { minLength: 60, maxLength: 60 }),
        (members, room, churn) => {
          const nights = simulate(members, room, churn, false);
          for (const night of nights) expect(night.read.size).toBe(Math.min(night.room, night.lists.size));
          expect(brokenWindows(nights)).toEqual([]);
        },
      ),
      { numRuns: 25, seed: 20_261_124 },
    );
  });

  it('reads each night its whole share, the lists whose hash is the night modulo the cycle, so a join or a leave moves no other list', () => {
    const lists = Array.from({ length: 200 }, (_, index) => keyed(`m${index}@acme.test`, 'recordings'));
    const fewer = lists.filter((_, index) => index % 7 !== 0);
    for (const night of [NIGHT0, NIGHT0 + 1, NIGHT0 + 2, NIGHT0 + 3]) {
      for (const set of [lists, fewer]) {
        const { read, coverage } = sweepNight(set, 60, night);
        expect(coverage.cycle).toBe(4);
        const share = set.filter((entry) => listHash(entry.key) % 4 === night % 4).map((entry) => entry.key);
        expect(read.map((entry) => entry.key)).toEqual(expect.arrayContaining(share));
        expect(read).toHaveLength(60);
      }
    }
  });

  it('fills the room from the share half a cycle away, the same lists every cycle, so they wait half a cycle', () => {
    const lists = Array.from({ length: 200 }, (_, index) => keyed(`m${index}@acme.test`, 'deals'));
    const keys = (night: number) =>
      sweepNight(lists, 70, night)
        .read.map((entry) => entry.key)
        .sort();
    const { coverage } = sweepNight(lists, 70, NIGHT0);
    expect(coverage.cycle).toBe(4);
    for (const night of [NIGHT0, NIGHT0 + 1, NIGHT0 + 2, NIGHT0 + 3]) {
      expect(keys(night + 4)).toEqual(keys(night));
      const extra = sweepNight(lists, 70, night).read.filter((entry) => listHash(entry.key) % 4 !== night % 4);
      expect(extra.length).toBeGreaterThan(0);
      expect(extra.every((entry) => listHash(entry.key) % 4 === (night + 2) % 4)).toBe(true);
    }
  });

  it('states the least power of two whose fullest share fits the room, 1 when every list fits', () => {
    expect(rotationCycle([1, 2, 3], 3)).toBe(1);
    // Shares modulo 2: {0, 2, 4} and {1}; modulo 4: {0, 4}, {1}, {2}.
    expect(rotationCycle([0, 1, 2, 4], 3)).toBe(2);
    expect(rotationCycle([0, 1, 2, 4], 2)).toBe(4);
    expect(rotationCycle([0, 8, 16, 1], 1)).toBe(32);
  });

  it('says what is due, and within how many nights', () => {
    const lists = Array.from({ length: 10 }, (_, index) => keyed(`m${index}@acme.test`, 'deals'));
    const { coverage } = sweepNight(lists, 4, NIGHT0);
    expect(coverage).toMatchObject({ order: 'rotation', due: 6, dueWithin: coverage.cycle - 1 });
    expect(sweepNight(lists, 10, NIGHT0).coverage).toEqual({ order: 'rotation', cycle: 1, due: 0, dueWithin: 0 });
  });
});

describe('least recently read first, with the memory', () => {
  it('reads lists never read before first, then the least recently read, ties by the hash of the key, not by email', () => {
    const lists = ['ann', 'bob', 'cy', 'dee', 'eve'].map((name) => keyed(`${name}@acme.test`, 'recordings'));
    const memory = emptyMemory();
    memory.lists[pinsKey('recordings', 'ann@acme.test')] = { lastRead: dayMs(NIGHT0 - 1), viewIds: [] };
    memory.lists[pinsKey('recordings', 'bob@acme.test')] = { lastRead: dayMs(NIGHT0 - 3), viewIds: [] };
    memory.lists[pinsKey('recordings', 'cy@acme.test')] = { lastRead: dayMs(NIGHT0 - 3), viewIds: [] };
    const keys = (room: number) => sweepNight(lists, room, NIGHT0, memory).read.map((entry) => entry.key);
    const never = ['dee', 'eve']
      .map((name) => pinsKey('recordings', `${name}@acme.test`))
      .sort((a, b) => listHash(a) - listHash(b));
    const tied = ['bob', 'cy']
      .map((name) => pinsKey('recordings', `${name}@acme.test`))
      .sort((a, b) => listHash(a) - listHash(b));
    expect(keys(2)).toEqual(never);
    expect(keys(4)).toEqual([...never, ...tied]);
    const { coverage } = sweepNight(lists, 3, NIGHT0, memory);
    expect(coverage).toMatchObject({ order: 'memory', neverRead: 2, due: 2, cycle: 2, newPerNight: 0 });
  });

  it('under churn within the room kept for new lists, at a steady room: reads exactly min(room, lists), joiners the next night, and no list waits longer than the cycle stated', () => {
    // At most 4 + 2 new lists a night (a joiner's, two role changes), within the tenth of a room of 60 or more.
    const steady = fc.record({
      leave: fc.array(fc.nat(), { maxLength: 2 }),
      join: fc.nat({ max: 1 }),
      role: fc.array(fc.nat(), { maxLength: 2 }),
      busy: fc.constant(false),
    });
    fc.assert(
      fc.property(
        fc.integer({ min: 100, max: 300 }),
        fc.integer({ min: 60, max: 120 }),
        fc.array(steady, { minLength: 60, maxLength: 60 }),
        (members, room, churn) => {
          const late: string[] = [];
          const nights = simulate(members, room, churn, true, (night, lists, memory) => {
            const never = lists.filter((entry) => memory.lists[entry.key] === undefined).map((entry) => entry.key);
            // After the first nights' backlog, the lists never read are read the night they appear.
            if (never.length <= night.room) late.push(...never.filter((key) => !night.read.has(key)));
          });
          for (const night of nights) expect(night.read.size).toBe(Math.min(night.room, night.lists.size));
          expect(late).toEqual([]);
          expect(gapsOf(nights).filter((gap) => gap.nights > gap.promised)).toEqual([]);
          expect(nights.filter((night) => (night.coverage.overdue ?? 0) > 0)).toEqual([]);
        },
      ),
      { numRuns: 15, seed: 20_261_125 },
    );
  });

  it('under churn and busy nights: a list waits longer than the cycles stated only when a night in between said so (overdue, a new cycle starts)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 20, max: 120 }),
        fc.integer({ min: 20, max: 60 }),
        fc.array(churnOf, { minLength: 60, maxLength: 60 }),
        (members, room, churn) => {
          const nights = simulate(members, room, churn, true);
          for (const night of nights) expect(night.read.size).toBe(Math.min(night.room, night.lists.size));
          const silent = gapsOf(nights).filter(
            (gap) =>
              gap.nights > gap.promised &&
              !nights.slice(gap.from + 1, gap.from + gap.nights + 1).some((night) => (night.coverage.overdue ?? 0) > 0),
          );
          expect(silent).toEqual([]);
        },
      ),
      { numRuns: 25, seed: 20_261_126 },
    );
  });

  it('counts as overdue the lists that waited longer than the cycle: nights without a sweep', () => {
    const lists = Array.from({ length: 40 }, (_, index) => keyed(`m${index}@acme.test`, 'contacts'));
    const memory = emptyMemory();
    for (const entry of lists) memory.lists[entry.key] = { lastRead: dayMs(NIGHT0 - 9), viewIds: [] };
    const { coverage } = sweepNight(lists, 20, NIGHT0, memory);
    // 40 lists at 18 a night (2 kept for new ones): 3 nights; the 20 left unread waited 9 already.
    expect(coverage).toEqual({
      order: 'memory',
      cycle: 3,
      neverRead: 0,
      due: 20,
      dueWithin: 2,
      newPerNight: 2,
      overdue: 20,
    });
    for (const entry of lists) memory.lists[entry.key] = { lastRead: dayMs(NIGHT0 - 1), viewIds: [] };
    expect(sweepNight(lists, 20, NIGHT0, memory).coverage.overdue).toBe(0);
  });
});

describe('dates after tonight, with the memory', () => {
  it('reads a list dated after tonight as one never read, on every night until a real read replaces the date', () => {
    const lists = Array.from({ length: 9 }, (_, index) => keyed(`m${index}@acme.test`, 'deals'));
    const memory = emptyMemory();
    for (const entry of lists) memory.lists[entry.key] = { lastRead: dayMs(NIGHT0 - 1), viewIds: [] };
    const forged = lists[8]?.key ?? '';
    memory.lists[forged] = { lastRead: '9999-12-31T23:59:59Z', viewIds: [] };
    // 3 nights of 3: the forged list is read on each (a forgery cannot put a read off), the others in turn.
    for (let night = NIGHT0; night < NIGHT0 + 3; night += 1) {
      const { read, coverage } = sweepNight(lists, 3, night, memory);
      expect(read.map((entry) => entry.key)).toContain(forged);
      expect(coverage.neverRead).toBe(1);
    }
  });
});

/** Gap is one list's wait between two reads, and the most any night in it (the second read's included) promised. */
interface Gap {
  key: string;
  from: number;
  nights: number;
  promised: number;
}

function gapsOf(nights: readonly Night[]): Gap[] {
  const last = new Map<string, number>();
  const gaps: Gap[] = [];
  nights.forEach((night, index) => {
    for (const key of night.read) {
      const from = last.get(key);
      if (from !== undefined && night.lists.has(key)) {
        const promised = Math.max(...nights.slice(from + 1, index + 1).map((between) => between.coverage.cycle));
        gaps.push({ key, from, nights: index - from, promised });
      }
      last.set(key, index);
    }
    // A list that left and came back is a new list.
    for (const key of [...last.keys()]) if (!night.lists.has(key)) last.delete(key);
  });
  return gaps;
}
