import type { ApiUser, ApiWorkspace } from '../domain/api-types.js';
import { DOMAINS } from '../domain/domains.js';
import { ROUTES } from '../service/routes.js';
import type { ServiceClient } from '../service/types.js';
import { readAll } from './live-read.js';
import { readUsers } from './read-live.js';
import { listingRead, pinnedRead } from './reads.js';
import { liveOf, pinsKey, type Live } from './types.js';

/** KnownLive is what a run has read already (a plan, the users read to tell who a group reaches): never read again. */
interface KnownLive {
  workspace?: ApiWorkspace | undefined;
  views?: Live['views'] | undefined;
  users?: ApiUser[] | undefined;
}

/** MemberPins is the live state a member's new document is written from, and the members `selectUsers` picked. */
interface MemberPins {
  live: Live;
  pinUsers: ApiUser[];
}

/**
 * readMemberPins reads, for `viewctl pull` writing the pinned lists of members no
 * document declares, only what `known` lacks: the workspace and the users when not
 * read yet, the lists of the members `selectUsers` picks in every domain, then the
 * listings (which name their tabs) of the domains where one of them has a tab. The
 * service's daily quota pays for nothing twice, and for no listing or automation the
 * new documents do not show. Never writes.
 */
export async function readMemberPins(
  client: ServiceClient,
  selectUsers: (users: readonly ApiUser[]) => ApiUser[],
  known: KnownLive = {},
): Promise<MemberPins> {
  const before = client.stats().requests;
  const workspace =
    known.workspace ?? (await client.request<{ workspace: ApiWorkspace }>(ROUTES.workspace())).workspace;
  const users = known.users ?? (await readUsers(client));
  const pinUsers = selectUsers(users);
  const pins = ((
    await readAll(
      client,
      pinUsers.flatMap((user) => DOMAINS.map((domain) => pinnedRead(domain, user.email))),
    )
  ).pins ?? {}) as Live['pins'];
  const tabbed = DOMAINS.filter(
    (domain) =>
      known.views?.[domain] === undefined &&
      pinUsers.some((user) => (pins[pinsKey(domain, user.email)] ?? []).length > 0),
  );
  const listings = ((await readAll(client, tabbed.map(listingRead))).views ?? {}) as Live['views'];
  const stats = client.stats();
  return {
    live: liveOf(workspace, { views: { ...known.views, ...listings }, pins }, users, {
      used: stats.requests - before,
      dailyRemaining: stats.dailyRemaining,
    }),
    pinUsers,
  };
}
