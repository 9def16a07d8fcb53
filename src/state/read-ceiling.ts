import { formatCount, plural } from '../text/plural.js';

/**
 * The ceiling of a run's requests (README, "Scoped and budgeted plans"): a run spends
 * at most `--budget N`, and never more than what the service says is left today less
 * `--reserve`, the requests kept for the other integrations that share the workspace's
 * daily quota. One computation gives the least a run needs and the most it may spend,
 * so the minimum a refusal prints is the one that then works. Pure: the figures are
 * passed in.
 */

// The default is a fact of the quota's sharing (src/domain/domains.ts): the CLI's flags and renderers name it too.
export { DEFAULT_RESERVE } from '../domain/domains.js';

/** CeilingFigures are what a run knows when it sets its ceiling (after its first request, or before any). */
export interface CeilingFigures {
  /** `--budget N`, when given. */
  budget?: number;
  /** `--reserve R`: requests left to the other integrations that share the quota. */
  reserve: number;
  /** Requests this run has sent so far. */
  spent: number;
  /** What the service said is left today after them; null when no answer said (or none came yet). */
  remaining: number | null;
  /** The least the run needs in all, its requests so far included: the reads every such run makes, and one pinned read when it has any to make. */
  least: number;
}

/** LoweredBudget says that what is left today, less the reserve, set the ceiling below `--budget`. */
export interface LoweredBudget {
  /** The most the run could spend in all. */
  most: number;
  /** What the service said was left today when the run began. */
  left: number;
  reserve: number;
}

/** ReadCeiling is the least a run needs, the most it may spend, and why it cannot go on, if it cannot. */
export interface ReadCeiling {
  least: number;
  /** min(budget, left − reserve): the most the run may spend in all; null when neither bounds it. */
  most: number | null;
  /** What was left today when the run began (what the service says plus what the run spent); null when not said. */
  left: number | null;
  reserve: number;
  budget?: number;
  /**
   * Why the run stops: `quota` when what is left less the reserve cannot pay for `least`
   * (a larger budget would not help), else `budget` when the budget cannot; absent when it fits.
   */
  short?: 'quota' | 'budget';
}

/** readCeiling is the one computation of a run's least and most. */
export function readCeiling(figures: CeilingFigures): ReadCeiling {
  const { budget, reserve, least } = figures;
  const left = figures.remaining === null ? null : figures.remaining + figures.spent;
  const available = left === null ? null : Math.max(0, left - reserve);
  const most = available === null ? (budget ?? null) : budget === undefined ? available : Math.min(budget, available);
  const short =
    available !== null && available < least ? 'quota' : budget !== undefined && budget < least ? 'budget' : undefined;
  return {
    least,
    most,
    left,
    reserve,
    ...(budget === undefined ? {} : { budget }),
    ...(short === undefined ? {} : { short }),
  };
}

/** loweredBudget is the account of a budget that what is left today lowered; undefined when the budget stood (or there was none). */
export function loweredBudget(ceiling: ReadCeiling): LoweredBudget | undefined {
  if (ceiling.budget === undefined || ceiling.most === null || ceiling.left === null || ceiling.most >= ceiling.budget)
    return undefined;
  return { most: ceiling.most, left: ceiling.left, reserve: ceiling.reserve };
}

/**
 * roomLeft is how many more requests a run may send once it has sent `spent`: what its
 * ceiling leaves, and never more than the service now says is left less the reserve
 * (the other integrations may have spent some meanwhile). Infinity when nothing bounds it.
 */
export function roomLeft(ceiling: ReadCeiling, spent: number, remaining: number | null): number {
  const byCeiling = ceiling.most === null ? Number.POSITIVE_INFINITY : ceiling.most - spent;
  const byQuota = remaining === null ? Number.POSITIVE_INFINITY : remaining - ceiling.reserve;
  return Math.max(0, Math.min(byCeiling, byQuota));
}

/**
 * leftText says what is left today and what the reserve keeps of it: `only 120 are left
 * today`, or `1,214 are left today and --reserve keeps 300 of them for the other
 * integrations that share the quota`.
 */
export function leftText(left: number, reserve: number): string {
  if (reserve === 0) return `only ${formatCount(left)} ${left === 1 ? 'is' : 'are'} left today`;
  return `${formatCount(left)} ${left === 1 ? 'is' : 'are'} left today and --reserve keeps ${formatCount(reserve)} of them for the other integrations that share the quota`;
}

/** quotaWaysOut is what a run refused for want of quota can do, besides reading less. */
export function quotaWaysOut(reserve: number): string {
  const wait = 'wait until requests free up (each frees 24 h after it was made)';
  return reserve === 0
    ? wait
    : `${wait}, or lower --reserve (${plural(reserve, 'request')} now kept for the other integrations; --reserve 0 lets this run spend them)`;
}
