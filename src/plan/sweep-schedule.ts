import { createHash } from 'node:crypto';
import type { ApiUser } from '../domain/api-types.js';
import { compareCodePoints } from '../kinds/canonical.js';
import type { SweepMemory } from '../state/sweep-memory.js';
import type { KeyedPins } from './desired-values.js';
import { utcDay } from './scope.js';
import type { PlanScope } from './types.js';

/**
 * Which pinned lists a `--budget` night reads, and what it promises (README, "The
 * nightly sweep's promise"). Pure: the lists, the room the ceiling leaves for them, the
 * UTC day number and the sweep memory are passed in. Every night reads exactly
 * min(room, lists) lists, and states `cycle`: the number of nights within which every
 * list is read at this room.
 *
 * With the memory, lists never read before come first (a joiner's; a member whose role
 * or state changed since the memory saw them, whom a group may newly reach), then the
 * least recently read. Without it, a rotation by a hash of
 * each list's key: a list's nights depend on its own key only, so a member who joins
 * or leaves moves no other list.
 */

/** SweepCoverage is what a budgeted night covered and promises (`scope.coverage` in the plan's JSON). */
export type SweepCoverage = NonNullable<PlanScope['coverage']>;

/** SweepNight is the lists a budgeted night reads and what it says about all of them. */
export interface SweepNight {
  read: KeyedPins[];
  coverage: SweepCoverage;
}

/** HASH_SPACE is how many places a key's hash has: 32 bits. */
const HASH_SPACE = 2 ** 32;

/**
 * NEW_LIST_SHARE is the part of a night's room the memory's promise keeps for lists
 * never read before (joiners, members a group newly reaches), which go first: one
 * tenth of the room, so a night of churn does not push the oldest list past the
 * stated cycle.
 */
const NEW_LIST_SHARE = 10;

/**
 * sweepNight picks the lists a budgeted night reads: `room` (at least 1) of `lists`, on
 * UTC day number `night`, least recently read first when `memory` is given, by the
 * hash rotation otherwise.
 */
export function sweepNight(
  lists: readonly KeyedPins[],
  room: number,
  night: number,
  memory?: SweepMemory,
  users?: readonly ApiUser[],
): SweepNight {
  return memory === undefined ? rotationNight(lists, room, night) : leastRecentNight(lists, room, night, memory, users);
}

/** listHash is a list key's place in the rotation: the first 32 bits of the SHA-256 of the key. */
export function listHash(key: string): number {
  return createHash('sha256').update(key).digest().readUInt32BE(0);
}

/**
 * rotationCycle is the rotation's promise for lists with these hashes at this room:
 * the least power of two C such that no night's share (the lists whose hash is the
 * night's number modulo C) holds more than `room` lists; 1 when every list fits.
 *
 * Why a power of two: a list's nights are those congruent to its hash modulo C, so
 * they are also its nights modulo any multiple of C. When the promise changes (the
 * room or the number of lists moved), C doubles or halves, and a list's nights under
 * the smaller figure include its nights under the larger: in any W consecutive nights,
 * W a power of two at least every figure stated on them, the night congruent to the
 * list's hash modulo W reads it. So no list waits longer than the largest figure stated
 * since its last read, however members come and go. A night count taken from the
 * number of lists (ceil(lists / room)) would instead reassign every list each time
 * that number crosses a multiple of the room, and a window by rank would shift every
 * list behind one that joins or leaves.
 *
 * The worst case is the hash's unevenness: C is taken over the fullest share, not the
 * mean, so a few lists per night (small workspaces) can state twice the figure an even
 * split would; at 3,468 lists and a room of 984 the shares of a 4-night rotation hold
 * 867 ± 30 lists, and C is 4.
 */
export function rotationCycle(hashes: readonly number[], room: number): number {
  if (hashes.length <= room) return 1;
  let cycle = 2;
  while (cycle < hashes.length / room) cycle *= 2;
  for (; cycle < HASH_SPACE; cycle *= 2) {
    const shares = new Map<number, number>();
    let fullest = 0;
    for (const hash of hashes) {
      const share = hash % cycle;
      const count = (shares.get(share) ?? 0) + 1;
      shares.set(share, count);
      if (count > fullest) fullest = count;
    }
    if (fullest <= room) return cycle;
  }
  return HASH_SPACE;
}

/**
 * rotationNight reads the night's share (hash ≡ night modulo the cycle) and fills the
 * rest of the room share by share in bit-reversed order of their distance from it:
 * the share half a cycle away, then a quarter and three quarters, and so on, so the
 * extra reads halve the longest waits instead of reading tomorrow's share a day early.
 * Within a share the order is fixed (the hash's bits above the cycle's), so the same
 * lists get the extra read every cycle: they wait half a cycle, the others a cycle.
 */
function rotationNight(lists: readonly KeyedPins[], room: number, night: number): SweepNight {
  const withHash = lists.map((entry) => ({ entry, hash: listHash(entry.key) }));
  const cycle = rotationCycle(
    withHash.map((item) => item.hash),
    room,
  );
  const bits = Math.round(Math.log2(cycle));
  const tonight = ((night % cycle) + cycle) % cycle;
  const ordered = withHash
    .map((item) => ({
      ...item,
      distance: reverseBits((item.hash - tonight + cycle) % cycle, bits),
      within: Math.floor(item.hash / cycle),
    }))
    .sort((a, b) => a.distance - b.distance || a.within - b.within || compareCodePoints(a.entry.key, b.entry.key));
  const read = ordered.slice(0, Math.min(room, ordered.length)).map((item) => item.entry);
  const due = lists.length - read.length;
  return { read, coverage: { order: 'rotation', cycle, due, dueWithin: due === 0 ? 0 : cycle - 1 } };
}

/** reverseBits reverses the low `bits` bits of `value` (0 ≤ value < 2^bits). */
function reverseBits(value: number, bits: number): number {
  let rest = value;
  let reversed = 0;
  for (let bit = 0; bit < bits; bit += 1) {
    reversed = reversed * 2 + (rest % 2);
    rest = Math.floor(rest / 2);
  }
  return reversed;
}

/**
 * leastRecentNight reads the lists the memory never saw read first, then the least
 * recently read, ties (and the never-read among themselves) by the hash of the key, not
 * by email, so one member's lists do not always wait behind another's.
 *
 * The promise: keeping `slack` (a tenth of the room) for lists never read before, every
 * list is read within ceil(lists / (room − slack)) nights. Why: after a list x is read,
 * the lists ahead of it in this order are at most the lists − 1 that existed then; each
 * night reads at least room − slack of those ahead of x (or x itself), since the others
 * it reads are lists new since; so x comes up again within that many nights, while no
 * more than `slack` lists a night are new and the room holds. When they do not hold (a
 * lower budget, a busy day's quota, a burst of joiners, nights without a sweep), the
 * lists left unread that will have waited longer than the figure even if nothing else
 * changes are counted as `overdue`, and the night says a new cycle starts. A list that
 * waits too long is always counted: on the night its wait reaches the largest figure
 * stated since its last read, it is unread and at least that old.
 */
function leastRecentNight(
  lists: readonly KeyedPins[],
  room: number,
  night: number,
  memory: SweepMemory,
  users?: readonly ApiUser[],
): SweepNight {
  const reached = newlyReached(memory, users);
  const known = lists.map((entry) => ({
    entry,
    hash: listHash(entry.key),
    last: reached.has(entry.pins.userEmail.toLowerCase()) ? undefined : lastNight(memory, entry.key, night),
  }));
  const ordered = known.sort(
    (a, b) => byLastRead(a.last, b.last) || a.hash - b.hash || compareCodePoints(a.entry.key, b.entry.key),
  );
  const count = Math.min(room, ordered.length);
  const slack = Math.floor(room / NEW_LIST_SHARE);
  const pace = room - slack;
  const cycle = lists.length <= room ? 1 : Math.ceil(lists.length / pace);
  const due = ordered.length - count;
  let overdue = 0;
  ordered.forEach((item, rank) => {
    // A list read tonight is not counted: had it waited too long, an earlier night left
    // it unread and counted it (a list that came back after leaving, its old date kept,
    // would be a false alarm).
    if (item.last === undefined || rank < count) return;
    // It is read after those ahead of it, at `room` a night: a wait past the cycle even
    // then is certain, not a guess about churn.
    if (night - item.last + Math.floor((rank - count) / room) + 1 > cycle) overdue += 1;
  });
  const read = ordered.slice(0, count);
  return {
    read: read.map((item) => item.entry),
    coverage: {
      order: 'memory',
      cycle,
      neverRead: read.filter((item) => item.last === undefined).length,
      due,
      dueWithin: due === 0 ? 0 : Math.ceil(due / pace),
      newPerNight: slack,
      overdue,
    },
  };
}

/** byLastRead orders never read (undefined) first, then the earliest night. */
function byLastRead(a: number | undefined, b: number | undefined): number {
  if (a === undefined || b === undefined) return (a === undefined ? 0 : 1) - (b === undefined ? 0 : 1);
  return a - b;
}

/**
 * newlyReached is the members whose role or state differs from what the memory last
 * saw: a group may reach them anew (a list that left with a role and came back with
 * it keeps its old date), so their lists go first, as never read. Empty without the
 * users or the memory's members.
 */
function newlyReached(memory: SweepMemory, users: readonly ApiUser[] | undefined): Set<string> {
  const changed = new Set<string>();
  for (const user of users ?? []) {
    const seen = memory.members[user.email.toLowerCase()];
    if (seen !== undefined && (seen.role !== user.role || seen.state !== user.state))
      changed.add(user.email.toLowerCase());
  }
  return changed;
}

/**
 * lastNight is the UTC day number the memory last saw `key` read; undefined when never,
 * unreadable, or after tonight (`night`): a read dated in the future is no read, and
 * trusted it would put the list behind every other for as long as the date is ahead.
 */
function lastNight(memory: SweepMemory, key: string, night: number): number | undefined {
  const at = memory.lists[key]?.lastRead;
  if (at === undefined) return undefined;
  const time = Date.parse(at);
  return Number.isNaN(time) || utcDay(time) > night ? undefined : utcDay(time);
}
