import type { ApiUser, ApiView } from '../domain/api-types.js';
import { DOMAINS, type Domain } from '../domain/domains.js';
import type { ServiceClient } from '../service/types.js';
import { readLive } from './read-live.js';
import type { Live } from './types.js';
import { pinsKey } from './types.js';

/** PinReadPlan is what reading the pinned lists will cost, announced before it starts. */
export interface PinReadPlan {
  users: readonly ApiUser[];
  /** One call per user and domain. */
  requests: number;
  /** Daily budget left before the pins are read, when the service said. */
  dailyRemaining: number | null;
}

/** ReadExportOptions choose whose pins `viewctl export` reads, and observe the read. */
export interface ReadExportOptions {
  /**
   * Picks, from every workspace member, the users whose pinned lists to read; may
   * throw (an email that is no active member). Absent: no pins, and no users read.
   */
  selectUsers?: (users: readonly ApiUser[]) => ApiUser[];
  /** Called before the first pinned list is read; may throw to stop (budget). */
  beforePins?: (plan: PinReadPlan) => void;
  /** Progress of the pinned-list reads, after each completed request. */
  onProgress?: (done: number, total: number) => void;
}

/** ExportLive is the live state an export describes: everything, and the users whose pins it holds. */
export interface ExportLive {
  live: Live;
  pinUsers: ApiUser[];
}

/**
 * readExport reads the whole workspace for `viewctl export`, through `readLive`: the
 * workspace, every domain's listing, the automations and (when pins are wanted) the
 * users; then the pinned lists of the chosen users, all four domains each. The pins
 * come last because whose to read depends on the users, and the caller announces
 * their cost first. Never writes.
 */
export async function readExport(client: ServiceClient, options: ReadExportOptions = {}): Promise<ExportLive> {
  const before = client.stats().requests;
  const { selectUsers } = options;
  const live = await readLive(
    client,
    { domains: [...DOMAINS], pins: [], automations: true },
    { wantUsers: () => selectUsers !== undefined },
  );
  const pinUsers = selectUsers === undefined ? [] : selectUsers(live.users ?? []);
  if (pinUsers.length > 0) {
    const pairs = pinUsers.flatMap((user) => DOMAINS.map((domain) => ({ domain, userEmail: user.email })));
    options.beforePins?.({ users: pinUsers, requests: pairs.length, dailyRemaining: client.stats().dailyRemaining });
    live.pins = await readPinnedLists(client, pairs, options.onProgress);
  }
  const stats = client.stats();
  live.requests = { used: stats.requests - before, dailyRemaining: stats.dailyRemaining };
  return { live, pinUsers };
}

/**
 * readPinnedLists reads each user's tabs with the call `readLive` uses, all issued at
 * once: the client's per-endpoint limiter paces each domain's endpoint, and the four
 * endpoints proceed side by side. Keyed by `pinsKey`.
 */
export async function readPinnedLists(
  client: ServiceClient,
  pairs: readonly { domain: Domain; userEmail: string }[],
  onProgress?: (done: number, total: number) => void,
): Promise<Record<string, ApiView[]>> {
  let done = 0;
  const settled = await Promise.allSettled(
    pairs.map(async ({ domain, userEmail }) => {
      const views = await client.request<ApiView[]>({
        method: 'GET',
        route: `/v1/${domain}/views/pinned`,
        query: { userEmail },
      });
      done += 1;
      onProgress?.(done, pairs.length);
      return [pinsKey(domain, userEmail), views] as const;
    }),
  );
  // allSettled, so a failure does not leave sibling requests running unobserved.
  const failure = settled.find((entry): entry is PromiseRejectedResult => entry.status === 'rejected');
  if (failure !== undefined) throw failure.reason;
  return Object.fromEntries(
    settled.map((entry) => (entry as PromiseFulfilledResult<readonly [string, ApiView[]]>).value),
  );
}
