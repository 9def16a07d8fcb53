import pc from 'picocolors';
import type {
  ApplyReport,
  HeldSection,
  OperationError,
  RepairGroup,
  RepairSection,
  ReportEntry,
} from '../domain/apply-report.js';
import { formatCount } from '../text/plural.js';
import { quoted, safeLines, safeText } from '../text/safe-text.js';
import { fitText, keepWhole } from '../text/wrap.js';
import { jsonText } from './json.js';
import { fence } from './markdown-text.js';

/**
 * The apply report rendered (README, "apply"): text for a terminal or a CI log,
 * markdown for a pull request's comment, JSON as its serialisation. A function of the
 * report handed in (src/domain/apply-report.ts); apply builds it.
 */

/** renderReportText renders the report for a terminal or a CI log, wrapped to a terminal's `width` when given. */
export function renderReportText(report: ApplyReport, options: { color: boolean; width?: number }): string {
  return fitText(reportText(report, options), options.width);
}

function reportText(report: ApplyReport, options: { color: boolean }): string {
  const c = pc.createColors(options.color);
  if (report.status === 'held') return heldOnlyText(report, c);
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
  if (report.held !== undefined) lines.push(...heldLines(report.held, c, 'carried out'));
  if (report.next !== undefined) lines.push(safeLines(report.next));
  return `${lines.join('\n')}\n`;
}

type Colors = ReturnType<typeof pc.createColors>;

/**
 * heldOnlyText is the report of a saved plan of which every change was held (or
 * already applied): nothing was written, each held target and why, and what to do.
 */
function heldOnlyText(report: ApplyReport, c: Colors): string {
  const count = report.held?.targets.length ?? 0;
  const applied = report.alreadyApplied.length;
  const what =
    applied === 0
      ? `${count === 1 ? 'its one change is' : `all ${count} of its changes are`} held`
      : `${count === 1 ? 'one change is' : `${count} changes are`} held and the other ${applied === 1 ? 'one is' : `${applied} are`} already applied`;
  const lines = [
    `${c.bold(c.yellow('Held, nothing written:'))} plan ${report.digest}: ${what}; nothing was sent (${report.requests} ${report.requests === 1 ? 'read' : 'reads'} to check).`,
  ];
  if (applied > 0)
    lines.push(c.dim('Already applied by an earlier run (not sent again):'), ...sectionLines(report.alreadyApplied));
  if (report.held !== undefined) lines.push(...heldLines(report.held, c, 'none'));
  return `${lines.join('\n')}\n`;
}

/**
 * heldLines are a saved plan's held targets: each change and its code, why it is held
 * (what the plan expected and what the app has now, or the held change it depends on),
 * how many wait with it; then how to plan them again.
 */
function heldLines(section: HeldSection, c: Colors, rest: 'carried out' | 'none'): string[] {
  const stale = section.targets.filter((entry) => entry.code === 'apply.stale-target').length;
  const dependent = section.targets.length - stale;
  const what = `${stale === 1 ? '1 target' : `${formatCount(stale)} targets`} changed since the plan was reviewed${dependent === 0 ? '' : `, and ${dependent === 1 ? '1 change' : `${formatCount(dependent)} changes`} depending on ${stale === 1 ? 'it' : 'them'}`}`;
  const after = rest === 'carried out' ? ' (the rest of the plan was carried out, as reviewed)' : '';
  const lines = [c.yellow(`Held, not written: ${what}${after}:`)];
  for (const entry of section.targets) {
    const waiting = entry.dependents === undefined ? '' : ` (${formatCount(entry.dependents.length)} held with it)`;
    lines.push(`  ${c.yellow('⏸ held')}  ${safeText(entry.change)}  [${entry.code}]${waiting}`);
    lines.push(`            ${safeText(entry.reason)}`);
  }
  // The commands to copy stay whole when the text is wrapped to a terminal.
  lines.push(safeLines(section.next).replace(/`[^`]+`/g, (command) => keepWhole(command)));
  return lines;
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

/** renderReportJson is the report as JSON (`--format json`). */
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

/** NAMES_SHOWN is how many members or views a text line names per group before "and N more" (JSON lists all). */
const NAMES_SHOWN = 5;

/**
 * repairLines are the text of a repair section: `Repaired: 12 pin lists (a@x, …), 1
 * view re-created ("Deals")`, then what was left for a reviewed apply and for the
 * next night, each on a line of its own.
 */
export function repairLines(section: RepairSection): string[] {
  const lines = [`Repaired: ${section.repaired.length === 0 ? 'nothing' : groupsText(section.repaired)}.`];
  if (section.leftForReview.length > 0)
    lines.push(`Left for a reviewed apply (self-heal never carries them out): ${groupsText(section.leftForReview)}.`);
  if (section.heldWhenApplied.length > 0) {
    lines.push(
      `Left for a reviewed apply (held when the manifests were last applied, so no reviewer saw these changes): ${groupsText(section.heldWhenApplied)}.`,
    );
  }
  if (section.waitingForReview.length > 0)
    lines.push(`Left for a reviewed apply (they name a view left for one): ${groupsText(section.waitingForReview)}.`);
  if (section.leftForNextNight.length > 0) {
    const { given, reads } = section.budget;
    lines.push(
      `Left for the next night (--budget ${formatCount(given)} had no room left for their writes and verification after reads of at most ${formatCount(reads)}): ${groupsText(section.leftForNextNight)}.`,
    );
  }
  if (section.waitingForCreate !== undefined)
    lines.push(
      `Left for the next night (they name a view whose create is left for it, and go with it): ${groupsText(section.waitingForCreate)}.`,
    );
  if (section.leftOverPinLimit !== undefined) {
    const { lists, maxPinChanges } = section.leftOverPinLimit;
    lines.push(
      `Left over --max-pin-changes ${formatCount(maxPinChanges)} (the next night repairs the next ones; a reviewed apply with a higher --max-pin-changes repairs all): ${groupsText(lists)}.`,
    );
  }
  if (section.neverApplied.length > 0)
    lines.push(`Shown, never applied (fix them in the workspace settings): ${groupsText(section.neverApplied)}.`);
  if (section.held > 0)
    lines.push(
      `Held, neither planned nor repaired (the plan above says why): ${formatCount(section.held)} ${section.held === 1 ? 'target' : 'targets'}.`,
    );
  return lines;
}

function groupsText(list: readonly RepairGroup[]): string {
  return list
    .map((group) => {
      // A member with lists in two domains is named once.
      const names = [...new Set(group.names)];
      const shown = names.slice(0, NAMES_SHOWN).map((name) => (group.members === true ? safeText(name) : quoted(name)));
      const more = names.length > shown.length ? ` and ${formatCount(names.length - shown.length)} more` : '';
      const who = group.members !== true ? '' : names.length === 1 ? 'member ' : 'members ';
      return `${formatCount(group.count)} ${group.what} (${who}${shown.join(', ')}${more})`;
    })
    .join(', ');
}
