import { formatLine, type SourcePosition } from '../domain/source-position.js';
import { plural } from '../text/plural.js';
import { safeText } from '../text/safe-text.js';
import { fitText } from '../text/wrap.js';

/** PulledLine is one value pull wrote in place: where, which target and attribute, before and after. */
interface PulledLine {
  at: SourcePosition;
  target: string;
  what: string;
  before: unknown;
  /** Undefined for an entry pull removed. */
  after: unknown;
}

/** NotPulledLine is a target pull left, why, and where its manifest declares it (when one does). */
interface NotPulledLine {
  target: string;
  reason: string;
  source?: SourcePosition;
}

/** PullReport is what pull wrote in place, the new files it added (and the schema copies beside them), and what it left and why. */
export interface PullReport {
  written: readonly PulledLine[];
  files: readonly string[];
  added: readonly { path: string; target: string }[];
  schemaCopies: number;
  notPulled: readonly NotPulledLine[];
}

/**
 * textReport prints what pull wrote (file:line, target, old -> new), the files it added,
 * and what it left and why, wrapped to a terminal's `width` when given.
 */
export function textReport(result: PullReport, width?: number): string {
  const lines: string[] = [];
  if (result.written.length > 0) {
    lines.push(
      `written in place, ${plural(result.written.length, 'value')} in ${plural(result.files.length, 'file')}:`,
    );
    for (const value of result.written)
      lines.push(
        `  ${formatLine(value.at)}  ${value.target}  ${value.what}: ${shortValue(value.before)} -> ${shortValue(value.after)}`,
      );
  }
  if (result.added.length > 0) {
    lines.push(`added, ${plural(result.added.length, 'new file')}:`);
    for (const entry of result.added) lines.push(`  ${entry.path}  ${entry.target}`);
  }
  if (result.notPulled.length > 0) {
    lines.push(`not pulled (${result.notPulled.length}):`);
    for (const entry of result.notPulled)
      lines.push(
        `  ${entry.target}${entry.source === undefined ? '' : `  ${formatLine(entry.source)}`}: ${entry.reason}`,
      );
  }
  if (result.written.length === 0 && result.added.length === 0) {
    // Targets left unpulled differ from the workspace: "already say" would tell the reviewer nothing is left to keep.
    lines.push(
      result.notPulled.length === 0
        ? 'nothing to pull: the manifests already say what the workspace has for the selected targets'
        : 'nothing was pulled: each target above says why',
    );
  }
  const copies =
    result.schemaCopies === 0
      ? ''
      : ` (and ${plural(result.schemaCopies, 'JSON Schema copy', 'JSON Schema copies')} into .viewctl/schemas/)`;
  lines.push(
    `${plural(result.files.length + result.added.length, 'manifest')} written${copies}, every other byte kept; nothing was changed in the workspace`,
  );
  return fitText(`${lines.map(safeText).join('\n')}\n`, width);
}

/** shortValue shows a value on one line: JSON, cut past 80 characters. */
function shortValue(value: unknown): string {
  const text = value === undefined ? '(absent)' : JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/** jsonReport is `pull --format json`: the values written (file, line, target, attribute, before, after), the files added, and what was not pulled and why. */
export function jsonReport(result: PullReport): object {
  const where = (at: SourcePosition | undefined) => (at === undefined ? {} : { file: at.file, line: at.line });
  return {
    written: result.written.map((value) => ({
      ...where(value.at),
      target: value.target,
      attribute: value.what,
      before: value.before ?? null,
      after: value.after ?? null,
    })),
    added: result.added,
    notPulled: result.notPulled.map((entry) => ({
      target: entry.target,
      reason: entry.reason,
      ...where(entry.source),
    })),
  };
}
