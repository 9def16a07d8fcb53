import type { ApiUser } from '../domain/api-types.js';
import type { Desired } from '../domain/desired.js';
import { UsageError, ViewctlError } from '../errors.js';
import type { LiveRead } from '../state/live-read.js';
import { userReads, USERS_PAGE } from '../state/user-pages.js';
import { firstReads } from './plan-reads.js';
import { leftText, quotaWaysOut, roomLeft, type ReadCeiling } from '../state/read-ceiling.js';
import { formatCount, plural } from '../text/plural.js';
import { keyedPins, type KeyedPins } from './desired-values.js';
import { heldListKeys, pendingKeys, selectByBase } from './scope.js';
import { sweepNight, type SweepNight } from './sweep-schedule.js';
import type { SweepMemory } from '../state/sweep-memory.js';
import { touchedViews } from '../kinds/views-after-plan.js';
import type { Change, PlanScope } from './types.js';

/**
 * The decisions around a plan's two read phases (README, "Scoped and budgeted
 * plans"): the least a plan reads and the refusals when its ceiling (`--budget`, what
 * is left today less `--reserve`) cannot pay for it, made after the first request;
 * which pinned lists to read once the views are known, and the refusals that come
 * before the first pinned-list read. Pure: the figures are passed in.
 */

/** ScopeRequest is what `--base REF`, `--budget N` and `--reserve R` ask of a plan. */
export interface ScopeRequest {
  /** The manifests at REF, loaded through git, with the ref as given and its commit. */
  base?: { ref: string; commit: string; desired: Desired };
  /** The most requests the whole plan may spend. */
  budget?: number;
  /**
   * Requests of what the service says is left today that the plan leaves to the other
   * integrations sharing the quota (`--reserve`, 300 from the command line); default 0.
   */
  reserve?: number;
  /** `--pinned-by`: also read every active member's list of the domains whose views the plan deletes, within the ceiling. */
  pinnedBy?: boolean;
}

/** ChosenLists are the lists to read and, for a scoped plan, what the plan says about the rest. */
interface ChosenLists {
  read: KeyedPins[];
  scope?: PlanScope;
}

/**
 * ReadFloor is the least a plan reads: its reads before the pinned lists (`fixed`, the
 * users counted when the plan may read them), one pinned list more when it has any
 * (`least`), and those reads in words. `exact` is false while the users are counted
 * without the workspace's member count (before its first request).
 */
export interface ReadFloor {
  fixed: number;
  least: number;
  /** The fixed reads in words: `the workspace, the 2 view listings and the automations`. */
  what: string;
  /** All of `least` in words: the fixed reads and, when counted, `a pinned list`. */
  leastWhat: string;
  exact: boolean;
}

/**
 * planFloor counts the least a plan reads: the workspace, the kinds' first reads
 * (`planReads`: one listing per view domain, the automations), the users when
 * `users.read` (one request per USERS_PAGE of `users.members`, one when the count is not
 * known yet), and one pinned list when `lists`.
 */
export function planFloor(
  reads: readonly LiveRead[],
  users: { read: boolean; members?: number },
  lists: boolean,
): ReadFloor {
  const pages = users.read ? userReads(users.members ?? 0) : 0;
  const fixed = firstReads(reads) + pages;
  // The reads in words: the view listings and the automations by name, any other kind's counted.
  const listings = reads.filter((read) => read.into === 'views').length;
  const automations = reads.some((read) => read.into === 'automations');
  const others = reads.length - listings - (automations ? 1 : 0);
  const parts = [
    'the workspace',
    ...(listings === 0 ? [] : [`the ${plural(listings, 'view listing')}`]),
    ...(others === 0 ? [] : [plural(others, 'other read')]),
    ...(automations ? ['the automations'] : []),
    ...(!users.read
      ? []
      : [
          users.members === undefined
            ? `the users (a request per ${USERS_PAGE} members)`
            : `the users (${plural(pages, 'request')} for ${plural(users.members, 'member')})`,
        ]),
  ];
  return {
    fixed,
    least: fixed + (lists ? 1 : 0),
    what: words(parts),
    leastWhat: words(lists ? [...parts, 'a pinned list'] : parts),
    exact: !users.read || users.members !== undefined,
  };
}

/** words joins `a`, `b` and `c`. */
function words(parts: readonly string[]): string {
  return parts.length < 2 ? parts.join('') : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1] ?? ''}`;
}

/**
 * checkCeiling refuses a plan its ceiling cannot pay for: `plan.exceeds-daily-quota`
 * when what is left today less the reserve cannot pay for the floor (a larger budget
 * would not help), `usage.budget-too-small` when the budget cannot. `outcome` says what
 * was read so far.
 */
export function checkCeiling(ceiling: ReadCeiling, floor: ReadFloor, outcome: string): void {
  if (ceiling.short === 'quota' && ceiling.left !== null) {
    throw new ViewctlError(
      'plan.exceeds-daily-quota',
      `the plan reads at least ${plural(floor.least, 'request')} (${floor.leastWhat}), but the service says ${leftText(ceiling.left, ceiling.reserve)}; ${outcome}`,
      {
        hint: `${quotaWaysOut(ceiling.reserve)}, or plan with --base REF (e.g. --base origin/main) to read only the pinned lists a change touches`,
      },
    );
  }
  if (ceiling.short === 'budget' && ceiling.budget !== undefined) {
    const lists = floor.least > floor.fixed ? ', and a pinned list at least one more' : '';
    const more = floor.exact ? '' : `, and a request more per ${USERS_PAGE} members past the first ${USERS_PAGE}`;
    throw budgetTooSmall(
      ceiling.budget,
      `reading ${floor.what} takes ${plural(floor.fixed, 'request')}${lists}; ${outcome}`,
      `${formatCount(floor.least)}${more}`,
    );
  }
}

/**
 * choosePinnedLists picks the lists to read: every list; with a base, those that
 * changed since REF, name a view `viewChanges` creates, renames or deletes, or the
 * memory marks pending (a group's new member's) or records as held at the last apply;
 * with a budget, as many of those as fit in what the ceiling leaves after `spent`, the
 * held ones first (`heldFirst`), the rest chosen by the sweep's schedule for UTC day
 * number `day` (`sweepNight`: never-read and least
 * recently read first from `memory`, else a rotation by a hash of each list's key); a
 * sweep (no base) says what it covered and promises. Without a budget, lists that do not fit
 * in what the service says is left (`remaining`) less the reserve are refused before
 * the first is read.
 */
export function choosePinnedLists(
  lists: readonly KeyedPins[],
  request: ScopeRequest,
  figures: {
    viewChanges: readonly Change[];
    day: number;
    users?: readonly ApiUser[];
    spent: number;
    remaining: number | null;
    ceiling: ReadCeiling;
    memory?: SweepMemory;
  },
): ChosenLists {
  const room = roomLeft(figures.ceiling, figures.spent, figures.remaining);
  if (request.base === undefined && request.budget === undefined) {
    checkReadsFit(lists.length, lists.length, room, figures);
    return { read: [...lists] };
  }
  const held = heldListKeys(figures.memory);
  let candidates =
    request.base === undefined
      ? [...lists]
      : selectByBase(
          lists,
          keyedPins(request.base.desired, figures.users),
          touchedViews(figures.viewChanges),
          new Set([...pendingKeys(figures.memory), ...held]),
        );
  let coverage: PlanScope['coverage'];
  if (request.budget !== undefined) {
    if (room < 1 && candidates.length > 0) throw noListFits(figures, request.budget);
    const night = heldFirst(candidates, held, Math.max(room, 1), (rest, left) =>
      sweepNight(rest, left, figures.day, figures.memory, figures.users),
    );
    candidates = night.read;
    // The promise is the sweep's: a pull request's lists are read once, not in rotation.
    if (request.base === undefined) coverage = night.coverage;
  } else {
    checkReadsFit(candidates.length, lists.length, room, figures);
  }
  const scope: PlanScope = {
    ...(request.base === undefined ? {} : { base: { ref: request.base.ref, commit: request.base.commit } }),
    ...(request.budget === undefined ? {} : { budget: request.budget }),
    lists: lists.length,
    unread: lists.length - candidates.length,
    ...(coverage === undefined ? {} : { coverage }),
  };
  const byDomain = unreadByDomain(lists, candidates);
  if (Object.keys(byDomain).length > 0) scope.unreadByDomain = byDomain;
  return { read: candidates, scope };
}

/**
 * heldFirst is a budgeted night that reads the lists held at the last apply (`held`,
 * their keys) before the sweep's choice: they are due, and a hold ends only once a run
 * reads its list. The sweep (`night`) picks the rest in the room they leave, and its
 * promise is stated for that room; when they fill the room, the rest waits, counted due.
 */
function heldFirst(
  candidates: readonly KeyedPins[],
  held: ReadonlySet<string>,
  room: number,
  night: (rest: readonly KeyedPins[], room: number) => SweepNight,
): SweepNight {
  const first = candidates.filter((entry) => held.has(entry.key)).slice(0, room);
  if (first.length === 0) return night(candidates, room);
  const taken = new Set(first.map((entry) => entry.key));
  const rest = candidates.filter((entry) => !taken.has(entry.key));
  const left = room - first.length;
  const swept = night(rest, Math.max(left, 1));
  const read = [...first, ...(left > 0 ? swept.read : [])];
  const due = candidates.length - read.length;
  const coverage = { ...swept.coverage, due, ...(due === 0 ? { dueWithin: 0 } : {}) };
  // A night the holds filled read none of the sweep's own choice.
  if (left < 1 && coverage.neverRead !== undefined) coverage.neverRead = 0;
  return { read, coverage };
}

/**
 * crowdedScope is the scope of a budgeted plan some of whose chosen lists were not read
 * because retries of failed requests took their room under the ceiling (`crowded`,
 * their keys): they count as unread (per domain too, and as due in the sweep's account),
 * and `crowdedOut` says how many and how many retries the plan sent, so the plan says
 * why it read fewer lists than the budget seemed to allow.
 */
export function crowdedScope(
  scope: PlanScope,
  lists: readonly KeyedPins[],
  chosen: readonly KeyedPins[],
  crowded: ReadonlySet<string>,
  retries: number,
): PlanScope {
  if (crowded.size === 0) return scope;
  const read = chosen.filter((entry) => !crowded.has(entry.key));
  const { unreadByDomain: _before, ...rest } = scope;
  const byDomain = unreadByDomain(lists, read);
  return {
    ...rest,
    unread: lists.length - read.length,
    crowdedOut: { lists: crowded.size, retries },
    ...(scope.coverage === undefined
      ? {}
      : { coverage: { ...scope.coverage, due: scope.coverage.due + crowded.size } }),
    ...(Object.keys(byDomain).length > 0 ? { unreadByDomain: byDomain } : {}),
  };
}

/**
 * unreadByDomain counts, per domain some of whose lists are left unread, the lists the
 * manifests declare and those unread: a deleted view can be pinned only in its own
 * domain, so its deletion says how many of that domain's lists were not read.
 */
function unreadByDomain(
  lists: readonly KeyedPins[],
  read: readonly KeyedPins[],
): NonNullable<PlanScope['unreadByDomain']> {
  const readKeys = new Set(read.map((entry) => entry.key));
  const counts = new Map<string, { lists: number; unread: number }>();
  for (const { key, pins } of lists) {
    const count = counts.get(pins.domain) ?? { lists: 0, unread: 0 };
    count.lists += 1;
    if (!readKeys.has(key)) count.unread += 1;
    counts.set(pins.domain, count);
  }
  // Sorted by domain, so equal inputs give byte-equal plans.
  return Object.fromEntries(
    [...counts].filter(([, count]) => count.unread > 0).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  );
}

/**
 * checkReadsFit refuses, before the first pinned-list read, a plan without a budget whose
 * pinned reads need more requests than the service says are left today less the
 * reserve: it would run out of quota half-way and block every other key of the
 * workspace until the quota recovers.
 */
function checkReadsFit(
  reads: number,
  lists: number,
  room: number,
  figures: { remaining: number | null; ceiling: ReadCeiling },
): void {
  if (reads <= room || figures.remaining === null) return;
  const { reserve } = figures.ceiling;
  throw new ViewctlError(
    'plan.exceeds-daily-quota',
    `the plan needs ${plural(reads, 'request')} to read ${reads === lists ? 'every pinned list' : `${formatCount(reads)} of the ${plural(lists, 'pinned list')}`}, but the service says ${leftText(figures.remaining, reserve)}; no pinned list was read`,
    {
      hint: `plan with --base REF (e.g. --base origin/main) to read only the lists a change touches, or with --budget N to read as many of them as fit each night, every list within a stated number of nights${reserve === 0 ? '' : `, or ${quotaWaysOut(reserve)}`}`,
    },
  );
}

/**
 * noListFits is the refusal of a budgeted plan whose reads so far (`spent`) leave no
 * room for one pinned list: the quota's, when what is left today less the reserve is
 * what ran out, else the budget's, with the least that works, counted from what was read.
 */
function noListFits(
  figures: { spent: number; remaining: number | null; ceiling: ReadCeiling },
  budget: number,
): ViewctlError {
  const { spent, remaining, ceiling } = figures;
  const outcome = 'no pinned list was read';
  if (remaining !== null && remaining - ceiling.reserve < 1) {
    return new ViewctlError(
      'plan.exceeds-daily-quota',
      `no pinned list fits: the service says ${leftText(remaining, ceiling.reserve)}; ${outcome}`,
      {
        hint: `${quotaWaysOut(ceiling.reserve)}, or plan with --base REF (e.g. --base origin/main) to read only the pinned lists a change touches`,
      },
    );
  }
  return budgetTooSmall(
    budget,
    `the reads before the pinned lists (the workspace, the listings and whatever else this plan needs) took ${plural(spent, 'request')}, and a pinned list at least one more; ${outcome}`,
    formatCount(spent + 1),
  );
}

function budgetTooSmall(budget: number, why: string, least: string): UsageError {
  return new UsageError(
    'usage.budget-too-small',
    `--budget ${formatCount(budget)} is too small: ${why}`,
    `pass a --budget of at least ${least}; every plan reads the views in full and spends the rest on pinned lists`,
  );
}
