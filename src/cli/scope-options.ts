import { Option } from 'commander';
import type { Command } from 'commander';
import { UsageError } from '../errors.js';
import { DEFAULT_RESERVE } from '../domain/domains.js';
import type { ScopeFlags } from '../flows/plan-scope.js';
import { parseCount } from './parse-options.js';

/** ScopeOptions are the flags of a scoped or budgeted plan (README, "Scoped and budgeted plans"): the flow's ScopeFlags. */
export type ScopeOptions = ScopeFlags;

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
 * addSinceAppliedOption adds `--since-applied` (plan): `--base` the sweep memory's last
 * applied commit (`--ledger`), or with `--base REF` that commit when it is an ancestor of REF.
 */
export function addSinceAppliedOption(command: Command): Command {
  return command.addOption(
    new Option(
      '--since-applied',
      "plan --base the sweep memory's last applied commit (needs --ledger), so what was merged since and never applied is in the plan; with --base REF, that commit when it is an ancestor of REF, else REF with a warning",
    ),
  );
}

/**
 * addBudgetOptions adds `--budget N` and `--budget-day DATE` (plan, apply, pull); `takesMemory`
 * says whether the command takes `--ledger` (pull keeps no sweep memory), which orders the reads.
 */
export function addBudgetOptions(command: Command, takesMemory = true): Command {
  const order = takesMemory
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
