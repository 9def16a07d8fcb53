import { formatPosition } from '../domain/source-position.js';
import { UsageError } from '../errors.js';
import { ManifestInvalidError } from '../manifest/format-problems.js';
import { gitManifestSource, resolveBase } from '../manifest/git-source.js';
import { loadDesired } from '../manifest/load-desired.js';
import type { ScopeRequest } from '../plan/scope-reads.js';
import type { PlanWarning } from '../plan/types.js';
import { systemClock, type Clock } from '../service/clock.js';
import { plural } from '../text/plural.js';
import { type AppliedCommit, sinceAppliedBase } from './plan-since-applied.js';

/** ScopeFlags are what a scoped or budgeted plan is asked for (README, "Scoped and budgeted plans"). */
export interface ScopeFlags {
  base?: string;
  budget?: number;
  /** The UTC day (YYYY-MM-DD) of the `--budget` night; default the run's day. */
  budgetDay?: string;
  /** `--reserve` (plan, export); absent for apply, which keeps no reserve until it takes `--budget`. */
  reserve?: number;
  /** `--pinned-by` (plan): count every active member who pins a view the plan deletes. */
  pinnedBy?: boolean;
  /** `--since-applied` (plan): `--base` the sweep memory's last applied commit (flows/plan-since-applied.ts). */
  sinceApplied?: boolean;
}

/** ResolvedScope is what a plan needs from the scope flags: the request, a clock for the UTC day, and warnings. */
export interface ResolvedScope {
  scope: ScopeRequest;
  clock: Pick<Clock, 'now'>;
  warnings: PlanWarning[];
}

/**
 * resolveScope turns the scope flags into a ScopeRequest before any request is sent:
 * REF is resolved and its manifests loaded through git, relative to `cwd`. REF's
 * manifests that fail to load make a full plan, with a warning that says so. `clock`
 * is the run's (the sweep memory dates its reads by it); default the system clock.
 * `applied` is the sweep memory's last applied commit, which `--since-applied` plans from.
 */
export async function resolveScope(
  flags: ScopeFlags,
  paths: readonly string[],
  where: { cwd: string; clock?: Pick<Clock, 'now'>; applied?: AppliedCommit },
): Promise<ResolvedScope> {
  if (flags.budgetDay !== undefined && flags.budget === undefined) {
    throw new UsageError(
      'usage.budget-day-without-budget',
      '--budget-day picks the night of a --budget plan, but no --budget was given',
      'add --budget N, or drop --budget-day',
    );
  }
  const day = flags.budgetDay;
  // The night is the run's day (the clock the sweep memory dates its reads by), unless --budget-day names another.
  const clock = day === undefined ? (where.clock ?? systemClock) : { now: () => Date.parse(`${day}T00:00:00Z`) };
  const scope: ScopeRequest = {
    ...(flags.budget === undefined ? {} : { budget: flags.budget }),
    ...(flags.reserve === undefined ? {} : { reserve: flags.reserve }),
    ...(flags.pinnedBy === true ? { pinnedBy: true } : {}),
  };
  const since = await sinceAppliedBase(flags, where.applied ?? {}, paths, where.cwd);
  const warnings: PlanWarning[] = [...since.warnings];
  if (since.base !== undefined) {
    const manifestPaths = paths.length === 0 ? ['.'] : paths;
    const base = await resolveBase(since.base, manifestPaths, where.cwd);
    const short = base.commit.slice(0, 7);
    try {
      const { desired } = await loadDesired(manifestPaths, await gitManifestSource(base, manifestPaths, where.cwd));
      scope.base = { ref: base.ref, commit: base.commit, desired };
    } catch (error) {
      if (!(error instanceof ManifestInvalidError)) throw error;
      const errors = error.problems.filter((problem) => problem.severity === 'error');
      const first = errors[0];
      const example = first === undefined ? '' : ` (first: ${formatPosition(first)} ${first.code})`;
      warnings.push({
        code: 'plan.base-unloadable',
        message: `the manifests at --base ${base.ref} (${short}) fail to load, with ${plural(errors.length, 'error')}${example}: this is a full plan, every pinned list read`,
      });
    }
  }
  return { scope, clock, warnings };
}
