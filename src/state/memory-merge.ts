import type { SweepMemory } from './sweep-memory.js';

/**
 * Merging two sweep memories: what the file holds at write time and what this run
 * knows, so two runs that overlap (a pull request's apply during the nightly sweep)
 * lose nothing either saw.
 */

/**
 * mergeMemories keeps, per list, the later read (its view ids with it); per view and
 * per member, the later sighting; the later `lastApplied`; and the workspace either
 * names. Equal times are settled by the entries' content, so the result never depends
 * on which memory comes first: merge is commutative and idempotent. Keys come out
 * sorted, so equal memories serialise to equal bytes.
 */
export function mergeMemories(a: SweepMemory, b: SweepMemory): SweepMemory {
  const workspaceId = later(a.workspaceId, b.workspaceId, (id) => id);
  const lastApplied = later(a.lastApplied, b.lastApplied, (entry) => entry.at);
  return {
    formatVersion: 1,
    ...(workspaceId === undefined ? {} : { workspaceId }),
    lists: mergeRecords(a.lists, b.lists, (entry) => entry.lastRead),
    views: mergeRecords(a.views, b.views, (entry) => entry.lastSeen),
    members: mergeRecords(a.members, b.members, (entry) => entry.lastSeen),
    ...(lastApplied === undefined ? {} : { lastApplied }),
  };
}

/** sortedMemory is `memory` with every record's keys sorted: the form the file is written in. */
export function sortedMemory(memory: SweepMemory): SweepMemory {
  return mergeMemories(memory, { formatVersion: 1, lists: {}, views: {}, members: {} });
}

function mergeRecords<T>(a: Record<string, T>, b: Record<string, T>, time: (entry: T) => string): Record<string, T> {
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
  const merged: Record<string, T> = {};
  for (const key of keys) {
    const entry = later(Object.hasOwn(a, key) ? a[key] : undefined, Object.hasOwn(b, key) ? b[key] : undefined, time);
    if (entry !== undefined) merged[key] = entry;
  }
  return merged;
}

/** later is the entry with the later time; at equal times, the one whose JSON sorts last. */
function later<T>(a: T | undefined, b: T | undefined, time: (entry: T) => string): T | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  const order = compareTimes(time(a), time(b));
  if (order !== 0) return order > 0 ? a : b;
  return JSON.stringify(a) >= JSON.stringify(b) ? a : b;
}

/** compareTimes orders ISO 8601 UTC times by the instant they name. */
export function compareTimes(a: string, b: string): number {
  const diff = Date.parse(a) - Date.parse(b);
  return diff !== 0 && !Number.isNaN(diff) ? Math.sign(diff) : a < b ? -1 : a > b ? 1 : 0;
}
