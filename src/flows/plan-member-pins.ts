import type { ApiUser } from '../domain/api-types.js';
import { ServiceError, ViewctlError } from '../errors.js';
import {
  chooseMemberPinReads,
  deletedDomains,
  memberReadsNotice,
  type MemberPinReads,
} from '../plan/member-pin-reads.js';
import type { Change } from '../plan/types.js';
import { isBudgetSpent, type ServiceClient } from '../service/types.js';
import { readAll } from '../state/live-read.js';
import { roomLeft, type ReadCeiling } from '../state/read-ceiling.js';
import { readUsers } from '../state/read-live.js';
import { pinnedRead } from '../state/reads.js';
import type { Live } from '../state/types.js';

/** MemberPinsRead is what `--pinned-by` read: the lists, and per deleted domain how many of every active member's were not read. */
export interface MemberPinsRead {
  pins: Live['pins'];
  byDomain: MemberPinReads['byDomain'];
}

/**
 * readMemberLists reads, for `plan --pinned-by`, every active member's pinned list of
 * the domains whose views `viewChanges` delete that the plan has not read (`alreadyRead`),
 * as many as the ceiling still leaves room for, after saying their cost (`notice`).
 * A read refused for want of room (retries took it, or the quota moved) counts as
 * unread. Undefined when the plan deletes no view.
 */
export async function readMemberLists(
  client: ServiceClient,
  figures: {
    viewChanges: readonly Change[];
    users: readonly ApiUser[] | undefined;
    alreadyRead: ReadonlySet<string>;
    ceiling: ReadCeiling;
    spentBefore: number;
    limit: string;
    notice?: (text: string) => void;
  },
): Promise<MemberPinsRead | undefined> {
  const domains = deletedDomains(figures.viewChanges);
  if (domains.length === 0) return undefined;
  const users = figures.users ?? (await readUsers(client));
  const room = (): number => {
    const stats = client.stats();
    return roomLeft(figures.ceiling, stats.requests - figures.spentBefore, stats.dailyRemaining);
  };
  const chosen = chooseMemberPinReads(domains, users, figures.alreadyRead, room());
  figures.notice?.(memberReadsNotice(chosen, domains, figures.limit));
  const byDomain = structuredClone(chosen.byDomain);
  const answers = await Promise.all(
    chosen.read.map(async ({ domain, userEmail }) => {
      try {
        return (await readAll(client, [pinnedRead(domain, userEmail)])).pins ?? {};
      } catch (error) {
        // A member who left since the users were read has no list to count: unread, as one with no room.
        const left = error instanceof ViewctlError && error.code === 'pins.user-not-active';
        const noRoom =
          isBudgetSpent(error) || (error instanceof ServiceError && error.code === 'service.quota-exhausted');
        if (!left && !noRoom) throw error;
        const count = byDomain[domain];
        if (count !== undefined) count.unread += 1;
        return {};
      }
    }),
  );
  return { pins: Object.assign({}, ...answers) as Live['pins'], byDomain };
}
