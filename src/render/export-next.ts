import { DAILY_QUOTA, DEFAULT_RESERVE } from '../domain/domains.js';
import { formatCount, plural } from '../text/plural.js';
import { fitText, keepWhole } from '../text/wrap.js';
import { shellWord } from './format.js';

/**
 * What an export prints last: where a budgeted `export --all-users` stands and the
 * command that continues it, and the plan to run next, sized to what is left of the
 * day (README, "export"). Pure: the export flow answers the figures.
 */

/** RunBatch is where a budgeted export stands after a run. */
export interface RunBatch {
  /** Members whose pinned views this run read. */
  read: number;
  /** Members with nothing left to read: exported by earlier runs, or declared already. */
  skipped: number;
  /** Members left for later runs. */
  remaining: number;
}

/** LoweredBudget is the account of a budget that what is left today lowered: the most spent, what was left, the reserve kept. */
export interface LoweredBudget {
  most: number;
  left: number;
  reserve: number;
}

/** ContinueOptions are the flags the continuing command repeats, and how what is left today lowered this run's budget. */
interface ContinueOptions {
  out: string;
  budget: number;
  /** `--reserve`, repeated when not the default. */
  reserve: number;
  /** When what is left today lowered the budget, the output says so. */
  lowered?: LoweredBudget;
  /** A terminal's width, to wrap to (the command kept whole). */
  width?: number;
  emulator?: boolean;
  baseUrl?: string;
}

/**
 * continuation says how far a budgeted `export --all-users` got, how many members
 * remain and the command that continues. The command is `export --merge`: it adds
 * only what the folder does not declare yet and never rewrites a file, so the edits
 * the team made since the first run stay as they are.
 */
export function continuation(batch: RunBatch, options: ContinueOptions): string {
  const { lowered } = options;
  const reserveText =
    lowered === undefined || lowered.reserve === 0 ? '' : ` less --reserve ${formatCount(lowered.reserve)}`;
  const lowerNote =
    lowered === undefined
      ? ''
      : `--budget ${formatCount(options.budget)} lowered to ${formatCount(lowered.most)}, the ${formatCount(lowered.left)} left today${reserveText}\n`;
  const done = `pinned views of ${plural(batch.read, 'member')} exported by this run, ${formatCount(batch.skipped)} already in the folder (their files are kept as they are)`;
  if (batch.remaining === 0) return fitText(`${lowerNote}${done}; every member is exported\n`, options.width);
  const where =
    options.emulator === true
      ? ' --emulator'
      : options.baseUrl === undefined
        ? ''
        : ` --base-url ${shellWord(options.baseUrl)}`;
  const reserve = options.reserve === DEFAULT_RESERVE ? '' : ` --reserve ${options.reserve}`;
  return fitText(
    `${lowerNote}${done}; ${plural(batch.remaining, 'member')} remain${batch.remaining === 1 ? 's' : ''}: continue with (it adds only what is missing, never rewrites a file)\n` +
      `  ${keepWhole(`viewctl export --merge --out ${shellWord(options.out)} --all-users --budget ${options.budget}${reserve}${where}`)}\n`,
    options.width,
  );
}

/** PlanFigures are what the next plan of an exported folder will cost, and what is left today. */
interface PlanFigures {
  /** Requests a plan reading every pinned list spends; undefined when the folder cannot be planned as it is. */
  planReads: number | undefined;
  dailyRemaining: number | null;
  /** `--reserve`: what the plan too leaves to the other integrations of what is left today. */
  reserve: number;
  /** The export's `--budget`, a day's spend the team chose. */
  budget?: number;
  /** Members left for later runs: the folder plans what it holds so far. */
  remaining: number;
}

/** MIN_PLAN_READS is the least a budgeted plan spends: the workspace, four listings, the automations and one pinned list. */
const MIN_PLAN_READS = 7;

/**
 * nextPlanStep is the `next:` line: `viewctl plan DIR` when a full plan fits in what
 * the service says is left today, else the `--budget` plan that does (every view
 * list, and as many pinned lists as fit), with the figures that decide; wrapped to a
 * terminal's `width` when given, the command kept whole.
 */
export function nextPlanStep(shown: string, figures: PlanFigures, width?: number): string {
  const partial = figures.remaining > 0 ? 'it plans the members exported so far; ' : '';
  const { planReads, dailyRemaining, reserve } = figures;
  // A plan too keeps --reserve of what is left today for the other integrations.
  const available = dailyRemaining === null ? null : Math.max(0, dailyRemaining - reserve);
  const reserveFlag = reserve === DEFAULT_RESERVE ? '' : ` --reserve ${reserve}`;
  if (planReads === undefined || available === null || planReads <= available) {
    const cost = planReads === undefined ? '' : `; about ${plural(planReads, 'request')}`;
    return fitText(
      `next: ${keepWhole(`viewctl plan ${shellWord(shown)}${reserveFlag}`)} (${partial}it should show no changes${cost})\n`,
      width,
    );
  }
  // What fits today: at most what may be spent (and the export's own daily spend); else, once the quota recovers.
  const today = available >= MIN_PLAN_READS;
  if (!today && planReads <= DAILY_QUOTA - reserve && planReads <= (figures.budget ?? planReads)) {
    // A day's quota (and the export's own daily spend) pays for the full plan: a --budget as large as the plan would only be that plan, renamed.
    return fitText(
      `next: ${keepWhole(`viewctl plan ${shellWord(shown)}${reserveFlag}`)} once the rolling 24-hour budget has recovered (${partial}a full plan reads about ${plural(planReads, 'request')}, ` +
        `more than the ${formatCount(dailyRemaining ?? 0)} left today${reserve === 0 ? '' : ` less --reserve ${formatCount(reserve)}`}, within a day's ${formatCount(DAILY_QUOTA)}; it should show no changes)\n`,
      width,
    );
  }
  const budget = Math.max(
    MIN_PLAN_READS,
    Math.min(planReads, figures.budget ?? planReads, today ? available : planReads),
  );
  const later = today ? '' : "; today's quota is spent, so run it once the rolling 24-hour budget has recovered";
  const kept = reserve === 0 ? '' : ` less --reserve ${formatCount(reserve)}`;
  return fitText(
    `next: ${keepWhole(`viewctl plan ${shellWord(shown)} --budget ${budget}${reserveFlag}`)} (${partial}a full plan reads about ${plural(planReads, 'request')}, ` +
      `more than the ${formatCount(dailyRemaining ?? 0)} left today${kept}; --budget reads every view list and as many pinned lists as fit, other lists each night${later})\n`,
    width,
  );
}

/** ExportClosing is what an export's last lines say, as the export flow answers it (src/flows/export-closing.ts). */
export interface ExportClosing {
  /** `--out` as given. */
  out: string;
  /** `--budget`, when given. */
  budget?: number;
  reserve: number;
  /** Under `--budget`: the members this run read, those done before, those left. */
  batch?: RunBatch;
  /** When what is left today lowered the budget. */
  lowered?: LoweredBudget;
  /** Requests a full plan of the folder reads; undefined when the folder cannot be planned as it is. */
  planReads: number | undefined;
  dailyRemaining: number | null;
}

/**
 * closingLines is what every export prints last: under `--budget`, where it stands and
 * the command that continues (with `where` the export was sent: `--emulator` or
 * `--base-url`); then the plan to run next, sized to what is left today. Wrapped to a
 * terminal's `width` when given.
 */
export function closingLines(
  closing: ExportClosing,
  where: { emulator?: boolean; baseUrl?: string },
  width?: number,
): string {
  const { budget, batch, out, reserve } = closing;
  const remaining = batch?.remaining ?? 0;
  const standing =
    batch === undefined || budget === undefined
      ? ''
      : continuation(batch, {
          out,
          budget,
          reserve,
          ...where,
          ...(width === undefined ? {} : { width }),
          ...(closing.lowered === undefined ? {} : { lowered: closing.lowered }),
        });
  return (
    standing +
    nextPlanStep(
      out,
      {
        planReads: closing.planReads,
        dailyRemaining: closing.dailyRemaining,
        reserve,
        remaining,
        ...(budget === undefined ? {} : { budget }),
      },
      width,
    )
  );
}
