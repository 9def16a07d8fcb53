import type { ApiUser } from '../domain/api-types.js';
import { DOMAINS } from '../domain/domains.js';
import { UsageError, ViewctlError } from '../errors.js';
import { compareCodePoints } from '../kinds/canonical.js';
import { formatCount, formatRate, plural } from '../text/plural.js';
import { closestNames } from '../text/suggest.js';
import { userReads, USERS_PAGE } from '../state/user-pages.js';
import { leftText, quotaWaysOut, roomLeft, type ReadCeiling } from '../state/read-ceiling.js';
import type { PinReadPlan } from '../state/read-export.js';

/** PinUserChoice is whose pinned views an export writes: nobody, every active member, or the listed emails. */
export type PinUserChoice = { kind: 'none' } | { kind: 'all' } | { kind: 'listed'; emails: readonly string[] };

/**
 * parseEmailList splits `--users` values (comma separated, the flag may repeat) into
 * distinct emails, first spelling kept; emails compare case-insensitively.
 */
export function parseEmailList(values: readonly string[]): string[] {
  const seen = new Set<string>();
  const emails: string[] = [];
  for (const email of values.flatMap((value) => value.split(',')).map((part) => part.trim())) {
    if (email === '' || seen.has(email.toLowerCase())) continue;
    seen.add(email.toLowerCase());
    emails.push(email);
  }
  return emails;
}

/**
 * selectPinUsers resolves the choice against the workspace members, sorted by email.
 * A listed email that is no active member stops the export before any pin is read:
 * the service would refuse it anyway (400 on `userEmail`), and a partial export would
 * hide the mistake.
 */
export function selectPinUsers(users: readonly ApiUser[], choice: PinUserChoice): ApiUser[] {
  const active = users.filter((user) => user.state === 'Active');
  if (choice.kind === 'none') return [];
  if (choice.kind === 'all') return sortByEmail(active);
  const chosen: ApiUser[] = [];
  const missing: string[] = [];
  for (const email of choice.emails) {
    const user = active.find((candidate) => candidate.email.toLowerCase() === email.toLowerCase());
    if (user === undefined) missing.push(describeMissing(email, users));
    else chosen.push(user);
  }
  if (missing.length > 0) {
    throw new UsageError(
      'export.unknown-user',
      `--users names ${missing.length === 1 ? 'an email that is' : 'emails that are'} not an active workspace member: ${missing.join(', ')}`,
      'pinned views exist only for active members; correct the list, or pass --all-users to export every active member',
    );
  }
  return sortByEmail(chosen);
}

/** describeMissing names a listed email that is no active member: its state, or the members it most likely meant. */
function describeMissing(email: string, users: readonly ApiUser[]): string {
  const known = users.find((user) => user.email.toLowerCase() === email.toLowerCase());
  if (known !== undefined) return `${email} (${known.state.toLowerCase()})`;
  const close = closestNames(
    email,
    users.filter((user) => user.state === 'Active').map((user) => user.email),
  );
  return close.length === 0 ? email : `${email} (no member has this address; did you mean ${close.join(' or ')}?)`;
}

function sortByEmail(users: readonly ApiUser[]): ApiUser[] {
  return [...users].sort((a, b) => compareCodePoints(a.email.toLowerCase(), b.email.toLowerCase()));
}

/**
 * describePinRead is the line printed before the pinned lists are read: how many
 * requests, and about how long at `rate`. Each domain has its own endpoint and
 * limiter, so the four domains proceed side by side: the time is one domain's share.
 */
export function describePinRead(plan: PinReadPlan, rate: number): string {
  const users = plan.users.length;
  const seconds = Math.ceil(users / rate);
  const budget = plan.dailyRemaining === null ? '' : `; ${formatCount(plan.dailyRemaining)} requests left today`;
  return (
    `reading the pinned views of ${plural(users, 'member')}: ${plural(plan.requests, 'request')} ` +
    `(one per member and domain), about ${formatDuration(seconds)} at ${formatRate(rate)} requests/s per endpoint${budget}\n`
  );
}

/**
 * checkPinBudget refuses to start reading pins that what the service says is left
 * today, less `reserve` (kept for the other integrations that share the quota), cannot
 * cover: the export would fail part-way, having spent what is left of the day. The hint
 * names `--budget`, which spreads the members over several runs (`budget`: the one given).
 */
export function checkPinBudget(plan: PinReadPlan, reserve = 0, budget?: number): void {
  if (plan.dailyRemaining === null || plan.requests <= plan.dailyRemaining - reserve) return;
  const room = formatCount(Math.max(0, plan.dailyRemaining - reserve));
  const spread =
    budget === undefined
      ? `export a share of the members a day with --all-users --budget N (N at most the ${room} this run may spend; each run adds the members that fit and prints the command that continues)`
      : `lower --budget to at most the ${room} this run may spend`;
  throw new ViewctlError(
    'export.over-budget',
    `reading the pinned views of ${plural(plan.users.length, 'member')} takes ${plural(plan.requests, 'request')}, but the service says ${leftText(plan.dailyRemaining, reserve)}; no pinned view was read`,
    {
      hint: `${spread}, name fewer users with --users (each costs up to ${DOMAINS.length} requests), or ${quotaWaysOut(reserve)}`,
    },
  );
}

function formatDuration(seconds: number): string {
  if (seconds < 90) return `${Math.max(1, seconds)} s`;
  return `${Math.round(seconds / 60)} min`;
}

/** MemberBatch is the members one budgeted `export --all-users` run reads, and those it leaves. */
export interface MemberBatch {
  read: ApiUser[];
  /** Members with nothing left to read: exported by an earlier run (their `pins/` file exists) or declared already (`--merge`). */
  skipped: number;
  /** Members left for later runs. */
  remaining: number;
}

/**
 * budgetMembers picks, from `members` in their (email) order, those with something
 * left to read (`cost`: the pinned lists to read, one request each; 0 when done), as
 * many as the room the ceiling leaves after `spent` pays for, stopping at the first that
 * does not fit, so later runs continue where this one stops. A room too small for the
 * first is refused: by the quota when what is left today less the reserve is what ran
 * out, else by the budget, with the least that works, counted from what was read.
 */
export function budgetMembers(
  members: readonly ApiUser[],
  cost: (user: ApiUser) => number,
  figures: { spent: number; remaining: number | null; ceiling: ReadCeiling },
): MemberBatch {
  const { spent, remaining, ceiling } = figures;
  const pending = members.map((user) => ({ user, cost: cost(user) })).filter((entry) => entry.cost > 0);
  const room = roomLeft(ceiling, spent, remaining);
  const first = pending[0];
  if (first !== undefined && first.cost > room) {
    if (remaining !== null && remaining - ceiling.reserve < first.cost) {
      throw new ViewctlError(
        'export.over-budget',
        `a member's pinned views take ${plural(first.cost, 'request')}, but the service says ${leftText(remaining, ceiling.reserve)}; no pinned view was read`,
        { hint: quotaWaysOut(ceiling.reserve) },
      );
    }
    throw new UsageError(
      'usage.budget-too-small',
      `--budget ${formatCount(ceiling.budget ?? 0)} is too small: reading the workspace, views, automations and members took ${plural(spent, 'request')}, and a member's pinned views take ${first.cost} more; no pinned view was read`,
      `pass a --budget of at least ${formatCount(spent + first.cost)}`,
    );
  }
  const read: ApiUser[] = [];
  let left = room;
  for (const entry of pending) {
    if (entry.cost > left) break;
    read.push(entry.user);
    left -= entry.cost;
  }
  return { read, skipped: members.length - pending.length, remaining: pending.length - read.length };
}

/** ExportFloor is the least an export reads, and whether the users' pages in it are counted from the member count. */
interface ExportFloor {
  least: number;
  exact: boolean;
}

/**
 * exportFloor counts the least an export reads: the workspace, the four listings, the
 * automations and, when it reads pinned views, the users (a request per 100 of
 * `members`, one while the count is not known) and one member's pinned views.
 */
export function exportFloor(pins: boolean, members?: number): ExportFloor {
  const fixed = 2 + DOMAINS.length;
  if (!pins) return { least: fixed, exact: true };
  return { least: fixed + userReads(members ?? 0) + DOMAINS.length, exact: members !== undefined };
}

/**
 * checkExportCeiling refuses an export its ceiling (`--budget`, what is left today less
 * `--reserve`) cannot pay for: `export.over-budget` when the quota cannot (a larger
 * budget would not help), `usage.budget-too-small` when the budget cannot. `outcome`
 * says what was read so far.
 */
export function checkExportCeiling(ceiling: ReadCeiling, floor: ExportFloor, outcome: string): void {
  if (ceiling.short === 'quota' && ceiling.left !== null) {
    throw new ViewctlError(
      'export.over-budget',
      `the export reads at least ${plural(floor.least, 'request')}, but the service says ${leftText(ceiling.left, ceiling.reserve)}; ${outcome}`,
      { hint: quotaWaysOut(ceiling.reserve) },
    );
  }
  if (ceiling.short === 'budget' && ceiling.budget !== undefined) {
    const more = floor.exact ? '' : `, and a request more per ${USERS_PAGE} members past the first ${USERS_PAGE}`;
    throw new UsageError(
      'usage.budget-too-small',
      `--budget ${formatCount(ceiling.budget)} is too small: an export with pinned views reads the workspace, the views, the automations and the members, and ${DOMAINS.length} requests per member's pinned views: at least ${plural(floor.least, 'request')}; ${outcome}`,
      `pass a --budget of at least ${formatCount(floor.least)}${more}`,
    );
  }
}
