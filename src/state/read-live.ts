import type { ApiUser, ApiWorkspace, Pagination } from '../domain/api-types.js';
import type { ServiceClient } from '../service/types.js';
import { sendReads, uniqueReads, type LiveRead, type LiveSlots } from './live-read.js';
import { liveOf, type Live } from './types.js';
import { USERS_PAGE } from './user-pages.js';
import { ROUTES } from '../service/routes.js';

/** ReadLiveOptions tune the read; `users` decides whether the workspace's members are read too. */
interface ReadLiveOptions {
  /**
   * Whether to read the workspace's members (a page per USERS_PAGE of them): yes, no (the
   * default), or decided once the reads are in, from what they read (the plan will
   * create views, so `creatorEmail` must be checked).
   */
  users?: boolean | ((read: LiveSlots) => boolean);
  /**
   * Called with the workspace before anything else is read; throws to stop (a
   * manifest's `workspaceId` naming another workspace).
   */
  checkWorkspace?: (workspace: ApiWorkspace) => void;
  /** Progress for long reads (stderr), called after each completed request. */
  onProgress?: (done: number, total: number) => void;
}

/**
 * readLive reads the workspace, then `reads` (each kind's, as data: `LiveRead`), at the
 * request floor. The workspace comes first, so a key for the wrong workspace stops
 * before anything else is read; then every read is issued at once and the client's
 * per-endpoint limiter spaces calls to one endpoint, so calls to different endpoints
 * overlap. Each answer is stored under its read's key of `Live`. (A plan reads its
 * pinned lists in a second phase, once the users have named the members of group
 * documents: planWorkspace.)
 */
export async function readLive(
  client: ServiceClient,
  reads: readonly LiveRead[],
  options: ReadLiveOptions = {},
): Promise<Live> {
  const before = client.stats().requests;
  const unique = uniqueReads(reads);
  const total = 1 + unique.length;
  let done = 0;
  const tick = (): void => {
    done += 1;
    options.onProgress?.(done, total);
  };

  const { workspace } = await client.request<{ workspace: ApiWorkspace }>(ROUTES.workspace());
  tick();
  options.checkWorkspace?.(workspace);
  const slots: LiveSlots = {};
  const sent = sendReads(client, unique, slots, tick);
  const { users: wanted } = options;
  const users =
    typeof wanted === 'function'
      ? Promise.all(sent).then(() => (wanted(slots) ? readUsers(client) : undefined))
      : wanted === true
        ? readUsers(client)
        : Promise.resolve(undefined);

  // allSettled, so every rejection is observed; the caller's connection cancels the
  // siblings of a failed read still queued when it closes.
  const settled = await Promise.allSettled([...sent, users]);
  const failure = settled.find((entry): entry is PromiseRejectedResult => entry.status === 'rejected');
  if (failure !== undefined) throw failure.reason;

  const stats = client.stats();
  return liveOf(workspace, slots, await users, { used: stats.requests - before, dailyRemaining: stats.dailyRemaining });
}

/** readUsers pages through `GET /v1/users` at the maximum page size. */
export async function readUsers(client: ServiceClient): Promise<ApiUser[]> {
  const users: ApiUser[] = [];
  let cursor: string | undefined;
  do {
    const page: { users: ApiUser[]; pagination: Pagination } = await client.request(ROUTES.users(cursor, USERS_PAGE));
    users.push(...page.users);
    cursor = page.pagination.nextCursor;
  } while (cursor !== undefined);
  return users;
}
