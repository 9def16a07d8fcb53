import type { ApiUser } from '../domain/api-types.js';
import { DOMAINS } from '../domain/domains.js';
import { UsageError, ViewctlError } from '../errors.js';
import { compareCodePoints } from '../kinds/canonical.js';
import { formatCount } from '../text/plural.js';
import { closestNames } from '../text/suggest.js';
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
  const close = closestNames(email, users.filter((user) => user.state === 'Active').map((user) => user.email));
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
    `reading the pinned views of ${users} user${users === 1 ? '' : 's'}: ${plan.requests} requests ` +
    `(one per user and domain), about ${formatDuration(seconds)} at ${rate} requests/s per endpoint${budget}\n`
  );
}

/**
 * checkPinBudget refuses to start reading pins the daily budget cannot cover: the
 * export would fail part-way, having spent what is left of the day. The hint names
 * `--budget`, which spreads the members over several runs (`budget`: the one given).
 */
export function checkPinBudget(plan: PinReadPlan, budget?: number): void {
  if (plan.dailyRemaining === null || plan.requests <= plan.dailyRemaining) return;
  const left = formatCount(plan.dailyRemaining);
  const spread = budget === undefined
    ? `export a share of the members a day with --all-users --budget N (N at most the ${left} left; each run adds the members that fit and prints the command that continues)`
    : `lower --budget to at most the ${left} left`;
  throw new ViewctlError(
    'export.over-budget',
    `reading the pinned views of ${plan.users.length} users takes ${plan.requests} requests, but only ${plan.dailyRemaining} are left today; nothing was read`,
    { hint: `${spread}, name fewer users with --users (each costs up to ${DOMAINS.length} requests), or run again once the rolling 24-hour budget has recovered` },
  );
}

function formatDuration(seconds: number): string {
  if (seconds < 90) return `${Math.max(1, seconds)} s`;
  return `${Math.round(seconds / 60)} min`;
}

/** MemberBatch is the members one budgeted `export --all-users` run reads, and those it leaves. */
interface MemberBatch {
  read: ApiUser[];
  /** Members with nothing left to read: exported by an earlier run (their `pins/` file exists) or declared already (`--merge`). */
  skipped: number;
  /** Members left for later runs. */
  remaining: number;
}

/**
 * budgetMembers picks, from `members` in their (email) order, those with something
 * left to read (`cost`: the pinned lists to read, one request each; 0 when done),
 * as many as `room` requests pay for, stopping at the first that does not fit, so
 * later runs continue where this one stops. A room too small for the first is a
 * usage error.
 */
export function budgetMembers(members: readonly ApiUser[], cost: (user: ApiUser) => number, room: number, budget: number): MemberBatch {
  const pending = members.map((user) => ({ user, cost: cost(user) })).filter((entry) => entry.cost > 0);
  const first = pending[0];
  if (first !== undefined && first.cost > room) {
    throw new UsageError(
      'usage.budget-too-small',
      `--budget ${formatCount(budget)} is too small: reading the workspace, views, automations and members took ${formatCount(budget - room)} requests, and a member's pinned views take ${first.cost} more; no pinned view was read`,
      `pass a --budget of at least ${formatCount(budget - room + first.cost)}`,
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

/** EXPORT_FIXED_READS is the least an export with pins reads before them: the workspace, four listings, the automations, one page of members. */
const EXPORT_FIXED_READS = 3 + DOMAINS.length;

/** checkExportBudget refuses, before any request, a `--budget` that cannot pay for the fixed reads and one member. */
export function checkExportBudget(budget: number): void {
  const least = EXPORT_FIXED_READS + DOMAINS.length;
  if (budget >= least) return;
  throw new UsageError(
    'usage.budget-too-small',
    `--budget ${formatCount(budget)} is too small: an export reads at least ${EXPORT_FIXED_READS} requests of views, automations and members, and ${DOMAINS.length} per member's pinned views; nothing was read`,
    `pass a --budget of at least ${formatCount(least)}`,
  );
}
