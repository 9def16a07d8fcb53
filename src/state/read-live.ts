import type { ApiAdminAutomation, ApiUser, ApiView, ApiWorkspace, Pagination } from '../domain/api-types.js';
import type { Domain } from '../domain/domains.js';
import { ServiceError, ViewctlError } from '../errors.js';
import { formatPosition, type SourcePosition } from '../domain/source-position.js';
import type { ServiceClient } from '../service/types.js';
import { fixedReads, USERS_PAGE, type ReadNeeds } from './needs.js';
import { pinsKey, type Live } from './types.js';
import { ROUTES } from '../service/routes.js';

/** ReadLiveOptions tune the read; `wantUsers` decides, once the views are known, whether users are needed. */
interface ReadLiveOptions {
  /**
   * Called with the domain listings once read; returns true when `creatorEmail` must
   * be checked (the plan will create views), which costs the users read.
   */
  wantUsers?: (views: Partial<Record<Domain, ApiView[]>>) => boolean;
  /**
   * Called with the workspace before anything else is read; throws to stop (a
   * manifest's `workspaceId` naming another workspace).
   */
  checkWorkspace?: (workspace: ApiWorkspace) => void;
  /** Progress for long reads (stderr), called after each completed request. */
  onProgress?: (done: number, total: number) => void;
}

/**
 * readLive reads what `needs` names, at the request floor. The workspace comes first,
 * so a key for the wrong workspace stops before anything else is read; then every
 * call is issued at once and the client's per-endpoint limiter spaces calls to one
 * endpoint, so calls to different endpoints overlap. (A plan reads its pinned lists in a
 * second phase, once the users have named the members of group documents: planWorkspace.)
 */
export async function readLive(client: ServiceClient, needs: ReadNeeds, options: ReadLiveOptions = {}): Promise<Live> {
  const before = client.stats().requests;
  const total = fixedReads(needs) + needs.pins.length;
  let done = 0;
  const tick = (): void => {
    done += 1;
    options.onProgress?.(done, total);
  };
  const track = <T>(promise: Promise<T>): Promise<T> =>
    promise.then((value) => {
      tick();
      return value;
    });

  const { workspace } = await track(
    client.request<{ workspace: ApiWorkspace }>(ROUTES.workspace()),
  );
  options.checkWorkspace?.(workspace);
  const listings = Promise.all(
    needs.domains.map((domain) =>
      track(client.request<ApiView[]>(ROUTES.listViews(domain))).then(
        (views) => [domain, views] as const,
      ),
    ),
  );
  const automations = needs.automations
    ? track(client.request<ApiAdminAutomation[]>(ROUTES.automations()))
    : Promise.resolve(undefined);
  const pinned = readPinnedLists(client, needs.pins, tick);
  const users = listings.then((entries) => (options.wantUsers?.(Object.fromEntries(entries)) === true ? readUsers(client) : undefined));

  // allSettled, so every rejection is observed; the caller's connection cancels the
  // siblings of a failed read still queued when it closes.
  const settled = await Promise.allSettled([listings, pinned, automations, users]);
  const failure = settled.find((entry): entry is PromiseRejectedResult => entry.status === 'rejected');
  if (failure !== undefined) throw failure.reason;

  const [entries, pins, automationList, userList] = await Promise.all([listings, pinned, automations, users]);
  const stats = client.stats();
  return {
    workspace,
    views: Object.fromEntries(entries),
    pins,
    requests: { used: stats.requests - before, dailyRemaining: stats.dailyRemaining },
    ...(automationList === undefined ? {} : { automations: automationList }),
    ...(userList === undefined ? {} : { users: userList }),
  };
}

/**
 * readPinnedLists reads each user's tabs, one call per user and domain, all issued at
 * once: the client's limiter paces each domain's endpoint and the four endpoints
 * proceed side by side. Keyed by `pinsKey`. A user the service refuses is reported at
 * the manifest that names them.
 */
export async function readPinnedLists(
  client: ServiceClient,
  pins: ReadNeeds['pins'],
  onEach?: () => void,
): Promise<Record<string, ApiView[]>> {
  const entries = await Promise.all(
    pins.map(async ({ domain, userEmail, source }) => {
      try {
        const views = await client.request<ApiView[]>(ROUTES.getPinned(domain, userEmail));
        onEach?.();
        return [pinsKey(domain, userEmail), views] as const;
      } catch (error) {
        throw inactiveUser(error, userEmail, source) ?? error;
      }
    }),
  );
  return Object.fromEntries(entries);
}

/** readUsers pages through `GET /v1/users` at the maximum page size. */
async function readUsers(client: ServiceClient): Promise<ApiUser[]> {
  const users: ApiUser[] = [];
  let cursor: string | undefined;
  do {
    const page: { users: ApiUser[]; pagination: Pagination } = await client.request(ROUTES.users(cursor, USERS_PAGE));
    users.push(...page.users);
    cursor = page.pagination.nextCursor;
  } while (cursor !== undefined);
  return users;
}

/**
 * inactiveUser turns the service's refusal of a pinned read (`userEmail` is not an
 * active member) into an error at the manifest that names the user.
 */
function inactiveUser(error: unknown, userEmail: string, source: SourcePosition | undefined): ViewctlError | undefined {
  if (!(error instanceof ServiceError) || error.errorType !== 'validation_error' || error.path !== 'userEmail') return undefined;
  const where = source === undefined ? '' : `${formatPosition(source)}: `;
  return new ViewctlError(
    'pins.user-not-active',
    `${where}${userEmail} is not an active member of the workspace, so the service refuses to read or set their tabs`,
    { hint: 'fix userEmail, or remove the PinnedViews document of a user who left or has not accepted the invitation yet', cause: error },
  );
}
