import { Option } from 'commander';
import type { Command } from 'commander';
import { formatPosition } from '../domain/source-position.js';
import { UsageError } from '../errors.js';
import { gitManifestSource, resolveBase } from '../manifest/git-source.js';
import { ManifestInvalidError } from '../manifest/format-problems.js';
import { loadDesired } from '../manifest/load-desired.js';
import type { ScopeRequest } from '../flows/plan-workspace.js';
import type { PlanWarning } from '../plan/types.js';
import { systemClock, type Clock } from '../service/clock.js';
import { DEFAULT_RESERVE } from '../state/read-ceiling.js';
import { plural } from '../text/plural.js';
import type { CliIo } from './io.js';
import { parseCount } from './parse-options.js';

/** ScopeOptions are the flags of a scoped or budgeted plan (README, "Scoped and budgeted plans"). */
export interface ScopeOptions {
  base?: string;
  budget?: number;
  budgetDay?: string;
  /** `--reserve` (plan, export); absent for apply, which keeps no reserve until it takes `--budget`. */
  reserve?: number;
}

/** addBaseOption adds `--base REF` (plan, and apply when it plans). */
export function addBaseOption(command: Command): Command {
  return command.addOption(
    new Option(
      '--base <ref>',
      'read only the pinned lists that changed since git REF or name a view this plan creates, renames or deletes',
    ),
  );
}

/**
 * addBudgetOptions adds `--budget N` and `--budget-day DATE` (plan, apply, pull); `ledger`
 * says whether the command takes `--ledger` (pull keeps no sweep memory), which orders the reads.
 */
export function addBudgetOptions(command: Command, ledger = true): Command {
  const order = ledger
    ? 'those new to the sweep and least recently read first with --ledger, else a rotation by UTC day'
    : 'a rotation by UTC day';
  return command
    .addOption(
      new Option(
        '--budget <n>',
        `spend at most N requests, and never more than what is left today less --reserve: read every view list and as many pinned lists as fit, ${order}; says within how many nights every list is read`,
      ).argParser((value) => parseCount(value, '--budget')),
    )
    .addOption(
      new Option(
        '--budget-day <date>',
        "the UTC day (YYYY-MM-DD) of the --budget night, which picks the rotation's share and dates the waits; default today",
      ).argParser(parseDay),
    );
}

/**
 * addReserveOption adds `--reserve N` (plan, export): the requests of what the service
 * says is left today that the run leaves to the other integrations sharing the quota.
 */
export function addReserveOption(command: Command): Command {
  return command.addOption(
    new Option(
      '--reserve <n>',
      'requests of what the service says is left today to leave to the other integrations that share the quota; 0 keeps none',
    )
      .default(DEFAULT_RESERVE)
      .argParser((value) => parseCount(value, '--reserve')),
  );
}

/** ResolvedScope is what a plan needs from the scope flags: the request, a clock for the UTC day, and warnings. */
export interface ResolvedScope {
  scope: ScopeRequest;
  clock: Pick<Clock, 'now'>;
  warnings: PlanWarning[];
}

/**
 * resolveScope turns the flags into a ScopeRequest before any request is sent: REF is
 * resolved and its manifests loaded through git. REF's manifests that fail to load make
 * a full plan, with a warning that says so.
 */
export async function resolveScope(options: ScopeOptions, paths: readonly string[], io: CliIo): Promise<ResolvedScope> {
  if (options.budgetDay !== undefined && options.budget === undefined) {
    throw new UsageError(
      'usage.budget-day-without-budget',
      '--budget-day picks the night of a --budget plan, but no --budget was given',
      'add --budget N, or drop --budget-day',
    );
  }
  const day = options.budgetDay;
  // The night is the run's day (the clock the sweep memory dates its reads by), unless --budget-day names another.
  const clock = day === undefined ? (io.clock ?? systemClock) : { now: () => Date.parse(`${day}T00:00:00Z`) };
  const scope: ScopeRequest = {
    ...(options.budget === undefined ? {} : { budget: options.budget }),
    ...(options.reserve === undefined ? {} : { reserve: options.reserve }),
  };
  const warnings: PlanWarning[] = [];
  if (options.base !== undefined) {
    const manifestPaths = paths.length === 0 ? ['.'] : paths;
    const base = await resolveBase(options.base, manifestPaths, io.cwd);
    const short = base.commit.slice(0, 7);
    try {
      const { desired } = await loadDesired(manifestPaths, await gitManifestSource(base, manifestPaths, io.cwd));
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

/** parseDay accepts a calendar date, YYYY-MM-DD, that exists. */
function parseDay(value: string): string {
  const day = value.trim();
  const time = Date.parse(`${day}T00:00:00Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || Number.isNaN(time) || new Date(time).toISOString().slice(0, 10) !== day) {
    throw new UsageError(
      'usage.bad-day',
      `--budget-day takes a date as YYYY-MM-DD, got "${value}"`,
      'for example --budget-day 2026-01-31',
    );
  }
  return day;
}
