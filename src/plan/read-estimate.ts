import type { ApiUser } from '../domain/api-types.js';
import type { Desired } from '../domain/desired.js';
import { hasPinGroups, memberPinLists } from '../kinds/pin-members.js';
import { uniqueReads } from '../state/live-read.js';
import { pinnedRead } from '../state/reads.js';
import { userReads } from '../state/user-pages.js';
import { firstReads, planReads } from './plan-reads.js';

/**
 * fullPlanReads is how many requests a plan of `desired` that reads every pinned list
 * spends (README, "How requests are spent"): the workspace and the kinds' first reads
 * (one listing per domain in use, the automations when declared), one per member and
 * domain of the pinned lists, and, when a group document needs them, the users.
 * `users` are the members when known: groups are expanded through them; without them,
 * only `userEmail` lists count. Reads a plan adds for creates and prune (the users) are
 * left out: a freshly exported folder creates and prunes nothing. Pure.
 */
export function fullPlanReads(desired: Desired, users: readonly ApiUser[] | undefined): number {
  const first = firstReads(planReads(desired));
  if (!hasPinGroups(desired) || users === undefined)
    return first + uniqueReads(desired.pins.map((pins) => pinnedRead(pins.domain, pins.userEmail))).length;
  const lists = memberPinLists(desired, users).lists.length;
  return first + lists + userReads(users.length);
}
