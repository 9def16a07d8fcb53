import type { ApiUser } from '../domain/api-types.js';
import type { Domain } from '../domain/domains.js';
import { pinsKey } from '../domain/targets.js';
import { formatCount, plural } from '../text/plural.js';
import type { Change } from './types.js';

/**
 * The decision behind `plan --pinned-by` (README, "Scoped and budgeted plans"): which
 * members' pinned lists a plan reads beyond those the manifests declare, so that a
 * deletion says how many members pin the view, not only how many declared lists do.
 * Pure: the users, the lists already read and the room are passed in.
 */

/** MemberList is one active member's pinned list of one domain, to read. */
export interface MemberList {
  key: string;
  domain: Domain;
  userEmail: string;
}

/** MemberPinReads are the lists to read and, per domain whose views the plan deletes, every active member's list and how many stay unread. */
export interface MemberPinReads {
  read: MemberList[];
  /** Per domain: the active members' lists (one each) and how many of them the plan will not have read. */
  byDomain: Partial<Record<Domain, { lists: number; unread: number }>>;
}

/** deletedDomains are the domains, sorted, whose views `changes` delete. */
export function deletedDomains(changes: readonly Change[]): Domain[] {
  const domains = new Set<Domain>();
  for (const change of changes) if (change.action === 'delete') domains.add(change.domain);
  return [...domains].sort();
}

/**
 * chooseMemberPinReads picks, in each domain of `domains`, the lists of the active
 * members not in `alreadyRead` (keys of the lists the plan reads anyway), as many as
 * `room` pays for (one request each), in domain then email order; the rest are counted
 * as unread, so a deletion never says more than is known.
 */
export function chooseMemberPinReads(
  domains: readonly Domain[],
  users: readonly Pick<ApiUser, 'email' | 'state'>[],
  alreadyRead: ReadonlySet<string>,
  room: number,
): MemberPinReads {
  const active = users
    .filter((user) => user.state === 'Active')
    .map((user) => user.email)
    .sort();
  const read: MemberList[] = [];
  const byDomain: MemberPinReads['byDomain'] = {};
  let left = Math.max(0, room);
  for (const domain of domains) {
    let unread = 0;
    for (const userEmail of active) {
      const key = pinsKey(domain, userEmail);
      if (alreadyRead.has(key)) continue;
      if (left > 0) {
        read.push({ key, domain, userEmail });
        left -= 1;
      } else unread += 1;
    }
    byDomain[domain] = { lists: active.length, unread };
  }
  return { read, byDomain };
}

/**
 * memberReadsNotice says, before the reads start, what `--pinned-by` costs: `--pinned-by:
 * reading 25 more pinned lists (25 requests) to count who pins the views this plan
 * deletes in deals`, and how many do not fit.
 */
export function memberReadsNotice(reads: MemberPinReads, domains: readonly Domain[], limit: string): string {
  const unread = Object.values(reads.byDomain).reduce((sum, count) => sum + (count?.unread ?? 0), 0);
  const cost =
    reads.read.length === 0
      ? 'reads no more pinned lists'
      : `reading ${plural(reads.read.length, 'more pinned list')} (${plural(reads.read.length, 'request')})`;
  const rest = unread === 0 ? '' : `; ${formatCount(unread)} not read (${limit} has no room for them)`;
  return `--pinned-by: ${cost} to count who pins the views this plan deletes in ${domains.join(', ')}${rest}`;
}
