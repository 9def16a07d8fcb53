import { kinds } from '../kinds/kinds.js';
import { uniqueReads, type LiveRead } from '../state/live-read.js';
import type { Desired, Live } from '../state/types.js';
import type { SweepMemory } from '../state/sweep-memory.js';

/**
 * What a plan reads before its first diff, as the kinds say (`Kind.planReads`,
 * `Kind.wantsUsers`): data the reader sends, never a list of what is read here.
 */

/** planReads are every kind's reads for planning `desired`, each read once, in the order of the kinds. */
export function planReads(desired: Desired): LiveRead[] {
  return uniqueReads(kinds().flatMap((kind) => kind.planReads(desired)));
}

/**
 * kindsWantUsers tells whether any kind's diff of `desired` needs the workspace's
 * members, given the first reads (`read`) and the sweep memory the diff takes advice
 * from; before any read (undefined), whether one may.
 */
export function kindsWantUsers(desired: Desired, read: Partial<Live> | undefined, memory?: SweepMemory): boolean {
  return kinds().some((kind) => kind.wantsUsers?.(desired, read, memory) === true);
}

/** firstReads counts the requests before any pinned list: the workspace and `reads`. */
export function firstReads(reads: readonly LiveRead[]): number {
  return 1 + reads.length;
}
