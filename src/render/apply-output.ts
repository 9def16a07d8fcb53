import type { ApplyReport } from '../domain/apply-report.js';
import type { Plan } from '../plan/types.js';
import { formatCount } from '../text/plural.js';
import { quoted, safeText } from '../text/safe-text.js';
import { renderReportJson, renderReportMarkdown, renderReportText, repairLines } from './apply-report.js';
import { renderPlan, type OutputFormat } from './render-plan.js';
import { fitText } from '../text/wrap.js';

/**
 * What `viewctl apply` prints (README, "apply"): the plan it is about to carry out
 * (under self-heal's heading), the line of a write that failed, and its result in
 * `--format`: the report, the plan when nothing was to apply, or a self-heal night's
 * sweep when a reviewed apply is due. The command decides where each goes and in what
 * colour; these only make the text.
 */

/** ApplyOutputOptions are the flags apply's output follows, and whether its stream takes colour. */
export interface ApplyOutputOptions {
  format: OutputFormat;
  color: boolean;
  /** The terminal's width, when text goes to one (src/text/wrap.ts); absent off a terminal. */
  width?: number;
  rate?: number;
  maxDeletes: number;
  maxPinChanges: number;
  detailsUrl?: string;
  showWarnings?: boolean;
  /** `--budget N` of a self-heal run, named when a reviewed apply is due. */
  budget?: number;
}

/** ShownApply is the plan an apply shows before it writes, and for self-heal its budget as given and what its reads were kept to. */
export interface ShownApply {
  plan: Plan;
  elapsedMs: number;
  repair?: { budget: { given: number; reads: number } };
}

/** ApplyOutcome is what an apply did, as its output tells it (the flow's `ApplyResult`). */
export type ApplyOutcome =
  | { type: 'already-applied'; report: ApplyReport }
  | { type: 'review-due'; shown: ShownApply; due: { lead: string; why: string; hint: string } }
  | { type: 'nothing'; shown: ShownApply; report: ApplyReport }
  | { type: 'carried-out'; report: ApplyReport }
  /** Every change left was held (stale, or waiting on one): nothing was sent; the report says why and what next. */
  | { type: 'held'; report: ApplyReport };

/** applyResultText is what stdout shows of an apply's result, in `--format`. */
export function applyResultText(result: ApplyOutcome, options: ApplyOutputOptions): string {
  if (result.type === 'review-due') return reviewDueText(result, options);
  if (options.format === 'json') return renderReportJson(result.report);
  if (result.type === 'nothing') {
    const done =
      result.report.repair === undefined
        ? 'Nothing to apply.\n'
        : `${fitted(repairLines(result.report.repair).join('\n'), options)}\n`;
    return `${fitted(repairHeading(result.shown), options)}${applyPlanText(result.shown, options, false)}${done}`;
  }
  const report =
    options.format === 'markdown'
      ? renderReportMarkdown(result.report)
      : renderReportText(result.report, {
          color: options.color,
          ...(options.width === undefined ? {} : { width: options.width }),
        });
  // A blank line parts the report from the plan shown above it.
  return result.type === 'carried-out' ? `\n${report}` : report;
}

/**
 * shownBeforeApply is the plan as shown before an apply writes, under self-heal's
 * heading when it repairs; the details link is there since it is about to be carried out.
 */
export function shownBeforeApply(shown: ShownApply, options: ApplyOutputOptions): string {
  return fitted(repairHeading(shown), options) + applyPlanText(shown, options);
}

/** failedWriteLine is the stderr line of one write that failed as apply goes, naming the change. */
export function failedWriteLine(operation: { action: string; kind: string; name: string }, message: string): string {
  return `failed: ${operation.action} ${operation.kind} ${quoted(operation.name)}: ${safeText(message)}\n`;
}

/**
 * reviewDueText is a self-heal night that only swept because a reviewed apply is due:
 * the plan as `plan --budget` shows it (JSON: the plan), then why the review is due and
 * the way out. Nothing was written.
 */
function reviewDueText(result: Extract<ApplyOutcome, { type: 'review-due' }>, options: ApplyOutputOptions): string {
  const plan = renderPlan(result.shown.plan, options.format, {
    color: options.color,
    ...(options.width === undefined ? {} : { width: options.width }),
    elapsedMs: result.shown.elapsedMs,
    rate: options.rate,
    maxDeletes: options.maxDeletes,
    maxPinChanges: options.maxPinChanges,
    detailsUrl: options.detailsUrl,
    showWarnings: options.showWarnings,
  });
  if (options.format === 'json') return plan;
  const { lead, why, hint } = result.due;
  const heading = `${lead.charAt(0).toUpperCase()}${lead.slice(1)}`;
  const above = `Self-heal (apply --budget ${formatCount(options.budget ?? 0)}): ${lead}, so this night only reads and reports, as plan --budget does; nothing was written.\n\n`;
  const below = `${heading}: ${safeText(why)}.\nWay out: ${safeText(hint)}.\n`;
  return `${fitted(above, options)}${plan}\n${fitted(below, options)}`;
}

/** applyPlanText is the plan as shown before an apply (`context: 'apply'`); the details link only when it is about to be carried out. */
function applyPlanText(shown: ShownApply, options: ApplyOutputOptions, withDetails = true): string {
  return renderPlan(shown.plan, options.format, {
    color: options.color,
    ...(options.width === undefined ? {} : { width: options.width }),
    elapsedMs: shown.elapsedMs,
    rate: options.rate,
    context: 'apply',
    ...(withDetails ? { detailsUrl: options.detailsUrl } : {}),
    showWarnings: options.showWarnings,
  });
}

/** fitted is `text` wrapped to the terminal's width in text output; markdown is never wrapped (the plan beside it is already). */
function fitted(text: string, options: ApplyOutputOptions): string {
  return options.format === 'text' ? fitText(text, options.width) : text;
}

/** repairHeading is the line above the plan of a self-heal run: only the repairs of what follows are carried out. */
function repairHeading(shown: ShownApply): string {
  if (shown.repair === undefined) return '';
  const { given, reads } = shown.repair.budget;
  return `Self-heal (apply --budget ${formatCount(given)}, reads at most ${formatCount(reads)}): only the repairs of this plan are carried out; deletions are left for a reviewed apply.\n\n`;
}
