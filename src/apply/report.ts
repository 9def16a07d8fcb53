import { actionTraits } from '../plan/action-traits.js';
import type { ActionCount } from '../kinds/kind.js';
import pc from 'picocolors';
import type { Domain, ResourceKind } from '../domain/domains.js';
import { EXIT } from '../errors.js';
import type { ExitCode } from '../errors.js';
import type { Action, Plan } from '../plan/types.js';
import { quoted, safeLines, safeText } from '../text/safe-text.js';
import { jsonText } from '../render/json.js';
import { fence } from '../render/markdown.js';
import type { Execution, OperationError, OperationOutcome } from './execute.js';
import type { Verification, VerificationProblem } from './verify.js';
import { repairLines, type RepairSection } from './repair-report.js';

/**
 * The outcome report of an apply: data first (JSON is its serialisation), then a text
 * rendering. On a partial failure it lists what landed, what failed and what was not
 * attempted, so the user knows the exact state the workspace was left in.
 */

interface ReportEntry {
  action: Action;
  kind: ResourceKind;
  /** View name, or `userEmail domain` for a pinned list. */
  name: string;
  domain?: Domain;
  id?: string;
  userEmail?: string;
  /** `adopted`: a create whose response was lost; `already-gone`: a delete that found nothing. */
  note?: 'adopted' | 'already-gone';
  error?: OperationError;
}

/** ApplyReport is what `apply` reports, in text or as JSON (`--format json`). */
export interface ApplyReport {
  formatVersion: 1;
  /**
   * `applied`: every operation landed and verified. `partial`: anything else after
   * writing began. `already-applied`: a saved plan whose every change an earlier apply
   * carried out; nothing was sent.
   */
  status: 'applied' | 'partial' | 'already-applied';
  /** Why the run stopped before attempting everything, when it did. */
  stopped: Execution['stopped'];
  workspace: { id: string; name: string };
  digest: string;
  counts: { created: number; updated: number; pinned: number; deleted: number };
  landed: ReportEntry[];
  /**
   * Writes that failed in a way that does not prove they were not carried out (a lost
   * answer, a 5xx, an unreadable success): the next plan shows whether they landed.
   */
  mayHaveLanded: ReportEntry[];
  /** Writes the service refused or that certainly never reached it. */
  failed: ReportEntry[];
  notAttempted: ReportEntry[];
  /** A saved plan's changes an earlier apply carried out (their targets are at the plan's `after`): not sent again. */
  alreadyApplied: ReportEntry[];
  /** Null when verification did not run (a run stopped early is not verified). */
  verification: { problems: VerificationProblem[] } | null;
  requests: number;
  elapsedMs: number;
  /** What to do next, on a partial outcome. */
  next?: string;
  /** Self-heal (`apply --budget`): what it repaired, and what it left for a reviewed apply or the next night. */
  repair?: RepairSection;
}

export function buildReport(
  plan: Plan,
  execution: Execution,
  verification: Verification | null,
  run: { requests: number; elapsedMs: number; fromPlanFile: boolean; alreadyApplied?: readonly OperationOutcome[] },
): ApplyReport {
  const byStatus = (status: OperationOutcome['status']): ReportEntry[] =>
    execution.outcomes.filter((outcome) => outcome.status === status).map(toEntry);
  const landed = byStatus('landed');
  const unsure = byStatus('failed').filter((entry) => entry.error?.mayHaveLanded === true);
  const count = (as: ActionCount): number => landed.filter((entry) => actionTraits(entry).countedAs === as).length;
  const clean =
    execution.stopped === null &&
    execution.outcomes.every((outcome) => outcome.status === 'landed') &&
    (verification?.problems.length ?? 0) === 0;
  const report: ApplyReport = {
    formatVersion: 1,
    status: clean ? 'applied' : 'partial',
    stopped: execution.stopped,
    workspace: plan.workspace,
    digest: plan.digest,
    counts: {
      created: count('created'),
      updated: count('updated'),
      pinned: count('pinned'),
      deleted: count('deleted'),
    },
    landed,
    mayHaveLanded: unsure,
    failed: byStatus('failed').filter((entry) => entry.error?.mayHaveLanded !== true),
    notAttempted: byStatus('not-attempted'),
    alreadyApplied: (run.alreadyApplied ?? []).map(toEntry),
    verification: verification === null ? null : { problems: verification.problems },
    requests: run.requests,
    elapsedMs: Math.round(run.elapsedMs),
  };
  if (!clean) report.next = nextStep(report, run.fromPlanFile);
  return report;
}

/**
 * nextStep says how to go on. A refusal the service will repeat (a 4xx) needs a fix
 * first, unless a concurrent run caused it (`concurrentChange`); anything transient (a
 * fault, a lost answer, an interrupt, a concurrent run)
 * converges by running again; a saved plan too, since applying it again skips what
 * landed. A fix needs a new plan.
 */
function nextStep(report: ApplyReport, fromPlanFile: boolean): string {
  const again = fromPlanFile ? 'run viewctl plan again and apply the new plan' : 'run the same command again';
  const refused = report.failed.filter(
    (entry) =>
      entry.error?.status !== undefined &&
      entry.error.status < 500 &&
      entry.error.status !== 429 &&
      entry.error.concurrentChange !== true,
  );
  if (refused.length > 0) {
    return `The service refused ${refused.length === 1 ? 'a write' : `${refused.length} writes`}: fix what the error says (in the manifests or the workspace), then ${again}.`;
  }
  if (report.failed.some((entry) => entry.error?.concurrentChange === true)) {
    return `A concurrent run removed a view a pinned list named while this run applied; nothing needs fixing: a new plan converges (${again}).`;
  }
  // A saved plan applied again skips what landed (already at its after) and sends the
  // rest; a result that differs from the plan is neither, so only a new plan converges.
  if (fromPlanFile && (report.verification?.problems.length ?? 0) === 0)
    return 'Run the same command again to apply the rest: what landed is skipped as already applied.';
  return `${again.charAt(0).toUpperCase()}${again.slice(1)} to converge.`;
}

/**
 * reportExitCode is 0 when everything landed and verified, and 4 (partial) once a
 * write landed or may have, and anything went wrong. Only when no write landed and
 * every failed one is known not to have been carried out is the workspace as it was:
 * 1, an error before any write.
 */
export function reportExitCode(report: ApplyReport): ExitCode {
  if (report.status === 'applied' || report.status === 'already-applied') return EXIT.ok;
  if (report.landed.length === 0 && report.mayHaveLanded.length === 0) return EXIT.error;
  return EXIT.partial;
}

/**
 * alreadyAppliedReport is the report of a saved plan whose every change an earlier
 * apply carried out (`alreadyApplied`): nothing was sent; `requests` are the re-reads
 * that showed it.
 */
export function alreadyAppliedReport(
  plan: Plan,
  alreadyApplied: readonly OperationOutcome[],
  run: { requests: number; elapsedMs: number },
): ApplyReport {
  const report = buildReport(plan, { outcomes: [], stopped: null }, null, {
    ...run,
    fromPlanFile: true,
    alreadyApplied,
  });
  return { ...report, status: 'already-applied' };
}

/** renderReportText renders the report for a terminal or a CI log. */
export function renderReportText(report: ApplyReport, options: { color: boolean }): string {
  const c = pc.createColors(options.color);
  if (report.status === 'already-applied') {
    const count = report.alreadyApplied.length;
    return `${c.bold('Already applied:')} plan ${report.digest}: ${count === 1 ? 'its change is' : `all ${count} changes are`} live as the plan leaves ${count === 1 ? 'it' : 'them'}; nothing was sent (${report.requests} ${report.requests === 1 ? 'read' : 'reads'} to check).\n`;
  }
  const { counts } = report;
  const totals =
    `${counts.created} created, ${counts.updated} updated, ${counts.pinned} pin ${counts.pinned === 1 ? 'list' : 'lists'}, ` +
    `${counts.deleted} deleted (${report.requests} ${report.requests === 1 ? 'request' : 'requests'} in ${(report.elapsedMs / 1000).toFixed(1)} s).`;
  const lines: string[] = [];
  const problems = report.verification?.problems ?? [];
  if (report.stopped === null && problems.length === 0) lines.push(`${c.bold('Applied:')} ${totals}`);
  else if (report.stopped === null)
    lines.push(`${c.bold(c.yellow('Applied, but the result differs from the plan:'))} ${totals}`);
  else if (report.stopped === 'aborted') lines.push(`${c.bold(c.yellow('Apply interrupted:'))} ${totals}`);
  else lines.push(`${c.bold(c.red('Apply failed part-way:'))} ${totals}`);
  const notes = report.landed.filter((entry) => entry.note !== undefined);
  if (report.stopped === null) {
    for (const entry of notes) lines.push(`  note: ${entryLine(entry)}`);
  } else {
    lines.push(c.green('Landed:'), ...sectionLines(report.landed));
    if (report.mayHaveLanded.length > 0)
      lines.push(
        c.yellow('May have landed (the next plan shows whether it did):'),
        ...sectionLines(report.mayHaveLanded),
      );
    lines.push(c.red('Failed:'), ...sectionLines(report.failed));
    lines.push(c.dim('Not attempted:'), ...sectionLines(report.notAttempted));
    // What exit 1 means here: no write landed and none may have.
    if (report.landed.length === 0 && report.mayHaveLanded.length === 0)
      lines.push('Nothing was written: the workspace is as it was.');
  }
  if (report.alreadyApplied.length > 0) {
    lines.push(c.dim('Already applied by an earlier run (not sent again):'), ...sectionLines(report.alreadyApplied));
  }
  if (problems.length > 0) {
    lines.push(
      c.red(
        `Verification found ${problems.length} ${problems.length === 1 ? 'difference' : 'differences'} after apply:`,
      ),
    );
    for (const problem of problems) {
      lines.push(
        `  ${problem.kind}  ${quoted(problem.name)}  ${safeText(problem.id ?? '-')}  ${safeText(problem.message)}`,
      );
    }
  }
  if (report.repair !== undefined) lines.push(...repairLines(report.repair));
  if (report.next !== undefined) lines.push(safeLines(report.next));
  return `${lines.join('\n')}\n`;
}

/**
 * renderReportMarkdown is the report for `--format markdown` (posted as a PR comment):
 * the text report, uncoloured, in a code fence longer than any backtick run in it, so
 * nothing a view name or a service message holds can render as markdown or HTML.
 */
export function renderReportMarkdown(report: ApplyReport): string {
  const text = renderReportText(report, { color: false });
  const fenceMark = fence(text);
  return `${fenceMark}text\n${text}${fenceMark}\n`;
}

export function renderReportJson(report: ApplyReport): string {
  return jsonText(report);
}

function sectionLines(entries: readonly ReportEntry[]): string[] {
  return entries.length === 0 ? ['  (none)'] : entries.map((entry) => `  ${entryLine(entry)}`);
}

function entryLine(entry: ReportEntry): string {
  const parts = [entry.action.padEnd(6), entry.kind, quoted(entry.name), safeText(entry.id ?? '-')];
  if (entry.note === 'adopted')
    parts.push("(its answer was lost; the only new view of that name was taken as this run's)");
  if (entry.note === 'already-gone') parts.push('(already gone)');
  if (entry.error !== undefined) parts.push(describe(entry.error));
  return parts.join('  ');
}

function describe(error: OperationError): string {
  const type = error.errorType ?? error.code;
  const status = error.status === undefined ? '' : `${error.status} `;
  const path = error.path === undefined ? '' : ` (path: ${error.path})`;
  return `${status}${safeText(type)}: ${safeText(error.message)}${safeText(path)}`;
}

function toEntry(outcome: OperationOutcome): ReportEntry {
  const { operation } = outcome;
  const entry: ReportEntry = {
    action: operation.action,
    kind: operation.kind,
    name: operation.name,
    ...(operation.domain === undefined ? {} : { domain: operation.domain }),
  };
  const id = outcome.status === 'landed' ? (outcome.viewId ?? operation.viewId) : operation.viewId;
  if (id !== undefined) entry.id = id;
  if (operation.userEmail !== undefined) entry.userEmail = operation.userEmail;
  if (outcome.status === 'landed' && outcome.note !== undefined) entry.note = outcome.note;
  if (outcome.status === 'failed') entry.error = outcome.error;
  return entry;
}
