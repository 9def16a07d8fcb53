import type { Desired } from '../domain/desired.js';
import { systemClock, type Clock } from '../service/clock.js';
import type { ServiceClient } from '../service/types.js';
import { hasSecondReads, type SecondRead, type SecondReads } from '../kinds/capabilities.js';
import type { Kind } from '../kinds/kind.js';
import { kinds } from '../kinds/kinds.js';
import { readAll } from '../state/live-read.js';
import { readMemberLists } from './plan-member-pins.js';
import { loweredBudget, readCeiling, type ReadCeiling } from '../state/read-ceiling.js';
import { readLive, readUsers } from '../state/read-live.js';
import { InternalError, ServiceError } from '../errors.js';
import { RequestAllowance, isBudgetSpent, withAllowance } from '../service/types.js';
import { formatCount } from '../text/plural.js';
import type { LiveSlots } from '../state/live-read.js';
import type { ApiUser, ApiWorkspace } from '../domain/api-types.js';
import { kindsWantUsers, planReads } from '../plan/plan-reads.js';
import type { Live } from '../state/types.js';
import type { SweepMemory } from '../state/sweep-memory.js';
import { checkWorkspace, computePlan } from '../plan/diff.js';
import { planOrigins, type AppliedManifests } from '../plan/drift-origins.js';
import { PlanRefusedError } from '../plan/refusal.js';
import { checkCeiling, choosePinnedLists, crowdedScope, planFloor, type ScopeRequest } from '../plan/scope-reads.js';
import { utcDay } from '../plan/scope.js';
import type { Plan, PlanWarning } from '../plan/types.js';
import { selectTargets, type TargetSelector } from '../plan/targets-selection.js';

export type { ScopeRequest } from '../plan/scope-reads.js';

/** PlanWorkspaceOptions are the edges `planWorkspace` reports to, passed in. */
export interface PlanWorkspaceOptions {
  /** Called after each read with how many of the total are done. */
  onProgress?: (done: number, total: number) => void;
  /** `--target`: read and plan only these targets (the Workspace guard still holds). */
  targets?: readonly TargetSelector[];
  /** Milliseconds clock for `elapsedMs`; default `performance.now`. */
  now?: () => number;
  /** `--base REF` and `--budget N`: read only some pinned lists (README, "Scoped and budgeted plans"). */
  scope?: ScopeRequest;
  /** The clock whose UTC day is a budgeted sweep's night; default the system clock. */
  clock?: Pick<Clock, 'now'>;
  /** Warnings from how the plan was asked for (e.g. REF's manifests failed to load), shown with it. */
  warnings?: readonly PlanWarning[];
  /** The sweep memory (`--ledger FILE`): advice from earlier runs; absent, the plan knows less, never decides differently for safety. */
  memory?: SweepMemory;
  /** Self-heal's plan: what only the memory's advice decides is held (`DiffContext.repair`). */
  repair?: true;
  /** Without `--base`: what the command line found of the memory's last applied commit (`appliedManifests`), against which origins are labelled. */
  applied?: AppliedManifests;
  /** Checks of the workspace's answer beside the manifests' (the memory's workspace): run before any other read. */
  onWorkspace?: (workspace: ApiWorkspace) => void;
  /** Said before reads the plan adds on request (`--pinned-by`'s cost), on stderr from the command line. */
  onNotice?: (text: string) => void;
}

/**
 * outOfRoom tells whether a budgeted plan leaves a list unread rather than failing: the
 * ceiling was spent (retries included), what is left today reached the reserve, or the
 * service failed the list's read past its retries (`LEFT_FOR_LATER`).
 */
function outOfRoom(error: unknown): boolean {
  return isBudgetSpent(error) || (error instanceof ServiceError && LEFT_FOR_LATER.has(error.code));
}

/**
 * LEFT_FOR_LATER are the service's answers that end one list's read in a budgeted plan
 * without ending the plan: the day's quota gone, or a failure its retries did not get
 * past (a sweep reads the list on a later night; a problem of the live service holds
 * only that list, never the plan of the others). A plan without a budget reads every
 * list or fails, since its reviewer must see them all.
 */
const LEFT_FOR_LATER: ReadonlySet<string> = new Set([
  'service.quota-exhausted',
  'service.unavailable',
  'service.timeout',
  'service.rate-limited',
]);

/** ceilingName says what set a budgeted plan's ceiling, for the refusal of an attempt past it. */
function ceilingName(ceiling: ReadCeiling): string {
  const budget = `--budget ${formatCount(ceiling.budget ?? 0)}`;
  const lowered = loweredBudget(ceiling);
  return lowered === undefined
    ? budget
    : `${budget} lowered to what is left today${lowered.reserve === 0 ? '' : ` less --reserve ${formatCount(lowered.reserve)}`}`;
}

/** WorkspacePlan is what `planWorkspace` returns: the plan, the live state it was computed from, and how long planning took. */
export interface WorkspacePlan {
  plan: Plan;
  live: Live;
  elapsedMs: number;
}

/**
 * planWorkspace is the one read-then-diff flow, in two phases. First it reads the
 * workspace (so a wrong `workspaceId` stops after one request), what the kinds read
 * first (`planReads`: the view listings, the automations) and, when a kind needs them
 * (`Kind.wantsUsers`), the users (the plan creates views, to check `creatorEmail`; it
 * prunes, to name each deleted view's owner and find `prune: owned`'s views; a group
 * pin document, now or at REF, must be expanded to its members), and diffs what they
 * read. Then it asks the kinds that read in a second phase (`SecondReads`: the pinned
 * lists, one per member and domain) for their reads, decides which of them to read
 * (all; with `--base`, those that changed or name a view the plan creates, renames or
 * deletes; with `--budget`, the night's lists that fit: `choosePinnedLists`), refuses
 * before the first of them when they cannot fit in what is left today, reads them and
 * diffs everything. Its ceiling (`--budget`, and what the workspace's answer says is left
 * today less `--reserve`) is set after the first request, which is the last one sent
 * when even the least the plan reads does not fit. The CLI, the tests and the benches
 * all plan through it.
 */
export async function planWorkspace(
  whole: Desired,
  service: ServiceClient,
  options: PlanWorkspaceOptions = {},
): Promise<WorkspacePlan> {
  const desired =
    options.targets === undefined || options.targets.length === 0 ? whole : selectTargets(whole, options.targets);
  const now = options.now ?? (() => performance.now());
  const started = now();
  const scope = options.scope ?? {};
  const reads = planReads(desired);
  // The kinds that read in a second phase, once the first diff is in (the pinned lists); by default none.
  const later = kinds().filter(hasSecondReads);
  // Documents at REF may name their reads only through the users list too.
  const olderApplied =
    scope.base === undefined && options.applied?.state === 'older' ? options.applied.desired : undefined;
  const baseGroups = [scope.base?.desired, olderApplied].some(
    (base) => base !== undefined && later.some((kind) => kind.secondReadsNeedUsers(base)),
  );
  // The least the plan reads counts the users whenever it may read them (a kind may want
  // them, before any read says): the minimum a refusal prints must be one that then works.
  const mayReadUsers = baseGroups || kindsWantUsers(desired, undefined);
  const floorOf = (members?: number) =>
    planFloor(
      reads,
      { read: mayReadUsers, ...(members === undefined ? {} : { members }) },
      later.some((kind) => kind.declaresSecondReads(desired)),
    );
  const limits = { ...(scope.budget === undefined ? {} : { budget: scope.budget }), reserve: scope.reserve ?? 0 };
  // --budget counts every request sent, retries included: the client refuses an attempt past the ceiling.
  const allowance = new RequestAllowance(scope.budget ?? null, `--budget ${formatCount(scope.budget ?? 0)}`);
  const client = scope.budget === undefined ? service : withAllowance(service, allowance);
  const offline = floorOf();
  let ceiling: ReadCeiling = readCeiling({ ...limits, spent: 0, remaining: null, least: offline.least });
  // Before any request only a budget whose shortfall is certain is refused: the users'
  // pages are known from the workspace's member count, and a budget of 1 pays for reading it.
  if (offline.exact || (scope.budget ?? 1) < 1) checkCeiling(ceiling, offline, 'nothing was read');
  const { requests: before, retries: retriesBefore } = client.stats();
  const views = await readLive(client, reads, {
    checkWorkspace: (workspace) => {
      checkWorkspace(desired, workspace);
      options.onWorkspace?.(workspace);
      // The first answer says what is left today: the ceiling is set, or the plan refused, before a second request.
      const floor = floorOf(typeof workspace.membersCount === 'number' ? workspace.membersCount : undefined);
      const stats = client.stats();
      ceiling = readCeiling({
        ...limits,
        spent: stats.requests - before,
        remaining: stats.dailyRemaining,
        least: floor.least,
      });
      checkCeiling(ceiling, floor, 'only the workspace was read');
      if (scope.budget !== undefined) allowance.limit(ceiling.most, ceilingName(ceiling));
    },
    users: (read) => baseGroups || kindsWantUsers(desired, read, options.memory),
    onProgress: options.onProgress,
  });
  // The first diff's own changes (the views') decide which second reads are due; a refusal about them stops here.
  // A view document renamed since --base renames its view: the lists naming either name are read.
  const base = scope.base === undefined ? {} : { base: scope.base.desired };
  const viewChanges = computePlan(
    narrowedTo(
      later.map((kind) => ({ kind, entries: [] })),
      desired,
      () => false,
    ),
    views,
    { ...(options.memory === undefined ? {} : { memory: options.memory }), ...base },
  ).plan.changes;
  // Each kind's second reads (one list per member and domain); what a document cannot have stops the plan before any of them.
  const expanded = later.map((kind) => ({ kind, ...kind.secondReads(desired, views.users) }));
  const reasons = expanded.flatMap((expansion) => expansion.reasons);
  if (reasons.length > 0) throw new PlanRefusedError(reasons);
  const kindOf = new Map(expanded.flatMap(({ kind, entries }) => entries.map((entry) => [entry.key, kind] as const)));
  const lists = expanded.flatMap((expansion) => expansion.entries);
  const read = client.stats();
  const chosen = choosePinnedLists(lists, scope, {
    viewChanges,
    spent: read.requests - before,
    remaining: read.dailyRemaining,
    ceiling,
    day: utcDay((options.clock ?? systemClock).now()),
    ...(views.users === undefined ? {} : { users: views.users }),
    ...(options.memory === undefined ? {} : { memory: options.memory }),
  });
  // The second reads continue the count of every request sent so far (the workspace, the
  // kinds' first reads, the users' pages), so the last progress line is the plan's "read N".
  let done = read.requests - before;
  const total = done + chosen.read.length;
  const tick = (): void => {
    done += 1;
    options.onProgress?.(done, total);
  };
  // A read the service refused that the users may explain (a member who left): the
  // users are read then, once, and the kind says what they tell.
  const refused = new Set<string>();
  // A budgeted plan whose retries took the room of lists it chose reads fewer, and says so (`crowdedScope`).
  const crowded = new Set<string>();
  let users: Promise<ApiUser[]> | undefined;
  const leavers: PlanWarning[] = [];
  const answers = await Promise.all(
    chosen.read.map(async (entry): Promise<LiveSlots> => {
      const kind = ownerOf(kindOf, entry);
      try {
        return await readAll(client, [kind.secondRead(entry)], tick);
      } catch (error) {
        if (chosen.scope !== undefined && scope.budget !== undefined && outOfRoom(error)) {
          crowded.add(entry.key);
          return {};
        }
        if (views.users !== undefined) throw error;
        const told = await kind.refusedRead(error, entry, () => (users ??= readUsers(client)));
        if (told === undefined) throw error;
        if (told.reasons.length > 0) throw new PlanRefusedError(told.reasons);
        refused.add(entry.key);
        leavers.push(...told.warnings);
        return {};
      }
    }),
  );
  const readKeys = new Set(
    chosen.read.map((entry) => entry.key).filter((key) => !refused.has(key) && !crowded.has(key)),
  );
  // --pinned-by: every active member's list of the domains whose views the plan deletes, within the ceiling.
  const members =
    scope.pinnedBy === true
      ? await readMemberLists(client, {
          viewChanges,
          users: views.users,
          alreadyRead: readKeys,
          ceiling,
          spentBefore: before,
          limit: scope.budget === undefined ? "today's quota less --reserve" : ceilingName(ceiling),
          ...(options.onNotice === undefined ? {} : { notice: options.onNotice }),
        })
      : undefined;
  const secondSlots = mergedSlots([...answers, ...(members === undefined ? [] : [{ pins: members.pins }])]);
  // The reads answer in any order: the warnings are sorted, so equal inputs give equal plans.
  leavers.sort((a, b) => (a.message < b.message ? -1 : a.message > b.message ? 1 : 0));
  const stats = client.stats();
  const lowered = loweredBudget(ceiling);
  const live: Live = {
    ...views,
    ...secondSlots,
    requests: {
      used: stats.requests - before,
      dailyRemaining: stats.dailyRemaining,
      ...(lowered === undefined ? {} : { ceiling: lowered }),
    },
  };
  const planScope =
    chosen.scope === undefined
      ? undefined
      : crowdedScope(chosen.scope, lists, chosen.read, crowded, stats.retries - retriesBefore);
  // The diff gets what was read, already expanded: what expanding found travels beside it.
  const scoped = narrowedTo(expanded, desired, (entry) => readKeys.has(entry.key));
  // Origins (README, "Drift: who, what, when"): against REF, or without it against the last applied manifests when a sweep or the memory asks.
  const origins = planOrigins(desired, live, {
    ...(scope.base === undefined ? {} : { baseCommit: scope.base.commit, base: scope.base.desired }),
    budget: scope.budget !== undefined,
    ...(options.memory === undefined ? {} : { memory: options.memory }),
    ...(options.applied === undefined ? {} : { applied: options.applied }),
  });
  const skipped = expanded.flatMap((expansion) => (expansion.skipped === undefined ? [] : [expansion.skipped]));
  const { plan } = computePlan(scoped, live, {
    ...(planScope === undefined ? {} : { scope: planScope }),
    ...(origins === undefined ? {} : { origin: origins.origin, drifted: origins.record }),
    warnings: [...(options.warnings ?? []), ...expanded.flatMap((expansion) => expansion.warnings), ...leavers],
    ...(skipped.length === 0 ? {} : { skippedMembers: skipped.reduce((sum, count) => sum + count, 0) }),
    ...(options.memory === undefined ? {} : { memory: options.memory }),
    ...(members === undefined ? {} : { memberLists: members.byDomain }),
    ...base,
    ...(options.repair === undefined ? {} : { repair: options.repair }),
  });
  return { plan, live, elapsedMs: now() - started };
}

/** SecondReader is a kind that reads in the plan's second phase. */
type SecondReader = Kind & SecondReads;

/** ownerOf is the kind whose second read `entry` is. */
function ownerOf(owners: ReadonlyMap<string, SecondReader>, entry: SecondRead): SecondReader {
  const kind = owners.get(entry.key);
  if (kind === undefined) throw new InternalError(`no kind reads the entry ${entry.key}`);
  return kind;
}

/**
 * narrowedTo is `desired` as the diff sees it: each second-reading kind's documents
 * replaced by those of its entries that `wasRead` keeps (none before the second phase).
 */
function narrowedTo(
  expanded: readonly { kind: SecondReader; entries: readonly SecondRead[] }[],
  desired: Desired,
  wasRead: (entry: SecondRead) => boolean,
): Desired {
  return expanded.reduce((narrowed, { kind, entries }) => kind.narrowed(narrowed, entries.filter(wasRead)), desired);
}

/**
 * mergedSlots are the answers of the second reads in one place: a keyed slot (`pins`,
 * one entry per list) gathers the entries of every answer, in the order answered.
 */
function mergedSlots(answers: readonly LiveSlots[]): LiveSlots {
  const merged: LiveSlots = {};
  for (const answer of answers) {
    for (const [slot, value] of Object.entries(answer)) {
      merged[slot] =
        typeof value === 'object' && value !== null && !Array.isArray(value)
          ? { ...((merged[slot] as object | undefined) ?? {}), ...value }
          : value;
    }
  }
  return merged;
}
