import type { ApiUser } from '../domain/api-types.js';
import type { Desired } from '../domain/desired.js';
import { UsageError, ViewctlError } from '../errors.js';
import type { LiveRead } from '../state/live-read.js';
import { firstReads } from './plan-reads.js';
import { formatCount, plural } from '../text/plural.js';
import { keyedPins, type KeyedPins } from './desired-values.js';
import { budgetSlice, selectByBase } from './scope.js';
import { touchedViews } from '../kinds/views-after-plan.js';
import type { Change, PlanScope } from './types.js';

/**
 * The decisions between a plan's two read phases (README, "Scoped and budgeted
 * plans"): which pinned lists to read once the views are known, and the refusals that
 * come before the first pinned-list read. Pure: the figures are passed in.
 */

/** ScopeRequest is what `--base REF` and `--budget N` ask of a plan. */
export interface ScopeRequest {
  /** The manifests at REF, loaded through git, with the ref as given and its commit. */
  base?: { ref: string; commit: string; desired: Desired };
  /** The most requests the whole plan may spend. */
  budget?: number;
}

/** ChosenLists are the lists to read and, for a scoped plan, what the plan says about the rest. */
interface ChosenLists {
  read: KeyedPins[];
  scope?: PlanScope;
}

/**
 * choosePinnedLists picks the lists to read: every list; with a base, those that
 * changed since REF or name a view `viewChanges` creates, renames or deletes; with a
 * budget, the part of those that fits in what the budget has left after `spent`, as
 * today's slice (`day` is the UTC day number).
 */
export function choosePinnedLists(
  lists: readonly KeyedPins[],
  request: ScopeRequest,
  figures: { viewChanges: readonly Change[]; spent: number; day: number; users?: readonly ApiUser[] },
): ChosenLists {
  if (request.base === undefined && request.budget === undefined) return { read: [...lists] };
  let candidates = request.base === undefined
    ? [...lists]
    : selectByBase(lists, keyedPins(request.base.desired, figures.users), touchedViews(figures.viewChanges));
  let slice: PlanScope['slice'];
  if (request.budget !== undefined) {
    const room = request.budget - figures.spent;
    if (room < 1 && candidates.length > 0) throw budgetTooSmall(request.budget, figures.spent, 'the workspace, view listings, automations and users', 'no pinned list was read');
    ({ read: candidates, slice } = budgetSlice(candidates, room, figures.day));
  }
  const scope: PlanScope = {
    ...(request.base === undefined ? {} : { base: { ref: request.base.ref, commit: request.base.commit } }),
    ...(request.budget === undefined ? {} : { budget: request.budget }),
    lists: lists.length,
    unread: lists.length - candidates.length,
    ...(slice === undefined ? {} : { slice }),
  };
  return { read: candidates, scope };
}

/**
 * checkBudgetCoversViews refuses, before any request, a `--budget` that cannot pay for
 * the reads every plan makes (the workspace and the kinds' first reads, `planReads`:
 * one list per view domain, the automations) plus at least one pinned list when there
 * are any.
 */
export function checkBudgetCoversViews(budget: number, reads: readonly LiveRead[], lists: number): void {
  const fixed = firstReads(reads);
  if (budget >= fixed + (lists > 0 ? 1 : 0)) return;
  throw budgetTooSmall(budget, fixed, describeFirstReads(reads), 'nothing was read');
}

/** describeFirstReads names the first reads for a message: the view listings, the automations, and any other kind's reads. */
function describeFirstReads(reads: readonly LiveRead[]): string {
  const listings = reads.filter((read) => read.into === 'views').length;
  const automations = reads.some((read) => read.into === 'automations');
  const others = reads.length - listings - (automations ? 1 : 0);
  const parts = [`the ${plural(listings, 'view listing')}`, ...(others > 0 ? [plural(others, 'other read')] : []), ...(automations ? ['the automations'] : [])];
  const last = parts.pop() ?? '';
  return `the workspace, ${parts.length === 0 ? last : `${parts.join(', ')} and ${last}`}`;
}

function budgetTooSmall(budget: number, needed: number, what: string, outcome: string): UsageError {
  return new UsageError(
    'usage.budget-too-small',
    `--budget ${formatCount(budget)} is too small: reading ${what} takes ${plural(needed, 'request')}, and a pinned list at least one more; ${outcome}`,
    `pass a --budget of at least ${formatCount(needed + 1)}; every plan reads the views in full and spends the rest on pinned lists`,
  );
}

/**
 * checkPinnedReadsFitToday refuses, before the first pinned-list read, a plan whose
 * pinned reads need more requests than the service says are left today: it would run
 * out of quota half-way and block every other key of the workspace until the budget
 * recovers.
 */
export function checkPinnedReadsFitToday(reads: number, dailyRemaining: number | null, lists: number): void {
  if (dailyRemaining === null || reads <= dailyRemaining) return;
  throw new ViewctlError(
    'plan.exceeds-daily-quota',
    `the plan needs ${plural(reads, 'request')} to read ${reads === lists ? 'every pinned list' : `${formatCount(reads)} of the ${plural(lists, 'pinned list')}`}, but the service says only ${formatCount(dailyRemaining)} are left today; no pinned list was read`,
    {
      hint: `plan with --base REF (e.g. --base origin/main) to read only the lists a change touches, or with --budget N (N at most the ${formatCount(dailyRemaining)} left) to read a slice of them that rotates by UTC day`,
    },
  );
}
