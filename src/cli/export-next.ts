import type { ApiUser } from '../domain/api-types.js';
import { ViewctlError } from '../errors.js';
import { loadDesired } from '../manifest/load-desired.js';
import { nodeManifestSource } from '../manifest/source.js';
import { fullPlanReads } from '../plan/read-estimate.js';
import { formatCount, plural } from '../text/plural.js';
import { shellWord } from '../render/format.js';

/**
 * What an export prints last: where a budgeted `export --all-users` stands and the
 * command that continues it, and the plan to run next, sized to what is left of the
 * day (README, "export"). The texts are pure; `folderPlanReads` reads the folder.
 */

/**
 * folderPlanReads is what a full plan of the folder an export wrote would read, from
 * the manifests now in it (the team's files and earlier runs' included), or
 * undefined when they do not load without an error (the plan would stop before any
 * read).
 */
export async function folderPlanReads(outDir: string, cwd: string, users: readonly ApiUser[] | undefined): Promise<number | undefined> {
  try {
    const { desired } = await loadDesired([outDir], nodeManifestSource(cwd));
    return fullPlanReads(desired, users);
  } catch (error) {
    if (error instanceof ViewctlError) return undefined;
    throw error;
  }
}

/** ExportBatch is where a budgeted export stands after a run. */
export interface ExportBatch {
  /** Members whose pinned views this run read. */
  read: number;
  /** Members with nothing left to read: exported by earlier runs, or declared already. */
  skipped: number;
  /** Members left for later runs. */
  remaining: number;
}

/** ContinueOptions are the flags the continuing command repeats. */
interface ContinueOptions {
  out: string;
  budget: number;
  emulator?: boolean;
  baseUrl?: string;
}

/**
 * continuation says how far a budgeted `export --all-users` got, how many members
 * remain and the command that continues. The command is `export --merge`: it adds
 * only what the folder does not declare yet and never rewrites a file, so the edits
 * the team made since the first run stay as they are.
 */
export function continuation(batch: ExportBatch, options: ContinueOptions): string {
  const done = `pinned views of ${plural(batch.read, 'member')} exported by this run, ${formatCount(batch.skipped)} already in the folder (their files are kept as they are)`;
  if (batch.remaining === 0) return `${done}; every member is exported\n`;
  const where = options.emulator === true ? ' --emulator' : options.baseUrl === undefined ? '' : ` --base-url ${shellWord(options.baseUrl)}`;
  return (
    `${done}; ${plural(batch.remaining, 'member')} remain${batch.remaining === 1 ? 's' : ''}: continue with (it adds only what is missing, never rewrites a file)\n` +
    `  viewctl export --merge --out ${shellWord(options.out)} --all-users --budget ${options.budget}${where}\n`
  );
}

/** PlanFigures are what the next plan of an exported folder will cost, and what is left today. */
interface PlanFigures {
  /** Requests a plan reading every pinned list spends; undefined when the folder cannot be planned as it is. */
  planReads: number | undefined;
  dailyRemaining: number | null;
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
 * list, and the slice of the pinned lists that fits), with the figures that decide.
 */
export function nextPlanStep(shown: string, figures: PlanFigures): string {
  const partial = figures.remaining > 0 ? 'it plans the members exported so far; ' : '';
  const { planReads, dailyRemaining } = figures;
  if (planReads === undefined || dailyRemaining === null || planReads <= dailyRemaining) {
    const cost = planReads === undefined ? '' : `; about ${plural(planReads, 'request')}`;
    return `next: viewctl plan ${shellWord(shown)} (${partial}it should show no changes${cost})\n`;
  }
  // What fits today: at most what is left (and the export's own daily spend); else, once the quota recovers.
  const today = dailyRemaining >= MIN_PLAN_READS;
  const budget = Math.max(MIN_PLAN_READS, Math.min(planReads, figures.budget ?? planReads, today ? dailyRemaining : planReads));
  const later = today ? '' : '; today\'s quota is spent, so run it once the rolling 24-hour budget has recovered';
  return (
    `next: viewctl plan ${shellWord(shown)} --budget ${budget} (${partial}a full plan reads about ${plural(planReads, 'request')}, ` +
    `more than the ${formatCount(dailyRemaining)} left today; --budget reads every view list and the slice of the pinned lists that fits, a new slice each UTC day${later})\n`
  );
}
