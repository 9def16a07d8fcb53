import type { ApiUser, ApiWorkspace } from '../domain/api-types.js';
import { DOMAINS, type Domain } from '../domain/domains.js';
import type { ServiceClient } from '../service/types.js';
import { readAll } from './live-read.js';
import { readLive } from './read-live.js';
import { automationsRead, listingRead, pinnedRead } from './reads.js';
import type { Live } from './types.js';

/** PinReadPlan is what reading the pinned lists will cost, announced before it starts. */
export interface PinReadPlan {
  users: readonly ApiUser[];
  /** One call per user and domain. */
  requests: number;
  /** Daily budget left before the pins are read, when the service said. */
  dailyRemaining: number | null;
}

/** ReadExportOptions choose whose pins `viewctl export` reads, and observe the read. */
interface ReadExportOptions {
  /**
   * Picks, from every workspace member, the users whose pinned lists to read; may
   * throw (an email that is no active member). Absent: no pins, and no users read.
   */
  selectUsers?: (users: readonly ApiUser[]) => ApiUser[];
  /**
   * The domains whose pinned lists to read for a chosen user (default: all four);
   * `export --merge` skips lists a manifest already manages, which saves their requests.
   */
  pinDomains?: (user: ApiUser) => readonly Domain[];
  /**
   * Called with the workspace, the first answer, before anything else is read; may throw
   * to stop (the ceiling of `--budget` and `--reserve` cannot pay for the export).
   */
  checkWorkspace?: (workspace: ApiWorkspace) => void;
  /** Called before the first pinned list is read; may throw to stop (budget). */
  beforePins?: (plan: PinReadPlan) => void;
  /** Progress of the pinned-list reads, after each completed request. */
  onProgress?: (done: number, total: number) => void;
}

/** ExportLive is the live state an export describes: everything, and the users whose pins it holds. */
interface ExportLive {
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
  const live = await readLive(client, [...DOMAINS.map(listingRead), automationsRead()], {
    users: selectUsers !== undefined,
    ...(options.checkWorkspace === undefined ? {} : { checkWorkspace: options.checkWorkspace }),
  });
  const pinUsers = selectUsers === undefined ? [] : selectUsers(live.users ?? []);
  const pairs = pinUsers.flatMap((user) =>
    (options.pinDomains?.(user) ?? DOMAINS).map((domain) => ({ domain, userEmail: user.email })),
  );
  if (pairs.length > 0) {
    const readEmails = new Set(pairs.map((pair) => pair.userEmail));
    const readUsers = pinUsers.filter((user) => readEmails.has(user.email));
    options.beforePins?.({ users: readUsers, requests: pairs.length, dailyRemaining: client.stats().dailyRemaining });
    let done = 0;
    const read = await readAll(
      client,
      pairs.map((pair) => pinnedRead(pair.domain, pair.userEmail)),
      () => {
        done += 1;
        options.onProgress?.(done, pairs.length);
      },
    );
    live.pins = (read.pins ?? {}) as Live['pins'];
  }
  const stats = client.stats();
  live.requests = { used: stats.requests - before, dailyRemaining: stats.dailyRemaining };
  return { live, pinUsers };
}
