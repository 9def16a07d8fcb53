import { DOMAINS, type Domain } from '../domain/domains.js';
import type { SourcePosition } from '../domain/source-position.js';
import { pinsKey, type Desired, type DesiredPins } from './types.js';

/**
 * ReadNeeds is exactly what a plan must read from the service (README,
 * "Requests"): the workspace once, one list per view domain in use, one pinned call
 * per declared user and domain, the automations once if declared.
 */
export interface ReadNeeds {
  domains: Domain[];
  /** `source` is where the user is named, for errors the service raises about them. */
  pins: { domain: Domain; userEmail: string; source?: SourcePosition }[];
  automations: boolean;
}

/**
 * readNeeds derives the reads from the manifests. A domain is in use when a view of
 * it is declared or a pinned list of it is declared (names resolve against the live
 * listing and defaults). `pins` are the lists of `userEmail` documents; the members
 * of group documents are known only from the users (planWorkspace expands them).
 */
export function readNeeds(desired: Desired): ReadNeeds {
  const used = new Set([...desired.views, ...desired.pins, ...(desired.pinGroups ?? [])].map((entry) => entry.domain));
  return {
    domains: DOMAINS.filter((domain) => used.has(domain)),
    pins: pinReads(desired.pins),
    automations: desired.automations !== undefined,
  };
}

/** fixedReads counts the reads besides pinned lists and users: the workspace, one listing per domain, the automations. */
export function fixedReads(needs: ReadNeeds): number {
  return 1 + needs.domains.length + (needs.automations ? 1 : 0);
}

/** USERS_PAGE is how many users one `GET /v1/users` request asks for: the largest page. */
export const USERS_PAGE = 100;

/**
 * userReads is what reading the users costs for a workspace of `members` members: one
 * request per page of USERS_PAGE, and one at least. The workspace counts its active
 * members only; the list also holds invited and deactivated accounts, so a workspace
 * with many of those can take a page more.
 */
export function userReads(members: number): number {
  return Math.max(1, Math.ceil(members / USERS_PAGE));
}

/** pinReads is one pinned read per member and domain of `lists` (emails compared without case). */
export function pinReads(lists: readonly DesiredPins[]): ReadNeeds['pins'] {
  const byKey = new Map<string, ReadNeeds['pins'][number]>();
  for (const entry of lists) {
    const key = pinsKey(entry.domain, entry.userEmail);
    if (!byKey.has(key)) byKey.set(key, { domain: entry.domain, userEmail: entry.userEmail, source: entry.source });
  }
  return [...byKey.values()];
}
