import type { ApiUser } from '../domain/api-types.js';
import type { Desired } from '../domain/desired.js';
import { hasPinGroups, memberPinLists } from '../kinds/pin-members.js';
import { fixedReads, readNeeds } from '../state/needs.js';

/** USERS_PAGE is how many members one read of the users returns (README, "How requests are spent"). */
const USERS_PAGE = 100;

/**
 * fullPlanReads is how many requests a plan of `desired` that reads every pinned list
 * spends (README, "How requests are spent"): the workspace, one listing per domain in
 * use, the automations when declared, one per member and domain of the pinned lists,
 * and, when a group document needs them, the users. `users` are the members when
 * known: groups are expanded through them; without them, only `userEmail` lists
 * count. Reads a plan adds for creates and prune (the users) are left out: a freshly
 * exported folder creates and prunes nothing. Pure.
 */
export function fullPlanReads(desired: Desired, users: readonly ApiUser[] | undefined): number {
  const needs = readNeeds(desired);
  if (!hasPinGroups(desired) || users === undefined) return fixedReads(needs) + needs.pins.length;
  const lists = memberPinLists(desired, users).lists.length;
  return fixedReads(needs) + lists + Math.max(1, Math.ceil(users.length / USERS_PAGE));
}
