import picocolors from 'picocolors';
import { plural } from './plural.js';
import { safeText } from './safe-text.js';
import { ACTION_AT_EACH_PLACE, groupLines, groupWarnings } from './warning-groups.js';

/**
 * The lines that say what is wrong with a manifest, as validate, plan, apply, pull
 * and export print them. They read only what a problem says (src/manifest/types.ts's
 * Problem has these fields and more), so every layer that shows problems shares them.
 */

/** ProblemLine is what a printed problem says: how grave, its code, what and where, and how to fix it. */
export interface ProblemLine {
  severity: 'error' | 'warning';
  code: string;
  message: string;
  file: string;
  line: number;
  column: number;
  /** JSON pointer inside the document, `''` for the whole document. */
  pointer: string;
  hint?: string;
}

/**
 * formatProblems renders problems one per line, in the order given:
 * `file:LINE:COL  CODE  message at /pointer; hint`. A warning says so before its
 * message. The layout is what editors and CI annotators parse as a location. Every
 * error has its line; warnings of one code are one entry, where the first stands
 * (its line, then how many more and where), unless `showWarnings` lists each.
 */
export function formatProblems(
  problems: readonly ProblemLine[],
  options: { color: boolean; showWarnings?: boolean },
): string {
  const colors = picocolors.createColors(options.color);
  const line = (problem: ProblemLine): string => {
    // File names, messages and hints quote manifest text: escaped for the terminal before colouring.
    const location = colors.bold(place(problem));
    const code = problem.severity === 'error' ? colors.red(problem.code) : colors.yellow(problem.code);
    const label = problem.severity === 'warning' ? `${colors.yellow('warning:')} ` : '';
    const pointer = problem.pointer === '' ? '' : colors.dim(` at ${safeText(problem.pointer)}`);
    const hint = problem.hint === undefined ? '' : `; ${colors.cyan(safeText(problem.hint))}`;
    return `${location}  ${code}  ${label}${safeText(problem.message)}${pointer}${hint}`;
  };
  if (options.showWarnings === true) return problems.map(line).join('\n');
  const groups = new Map(
    groupWarnings(
      problems.filter((problem) => problem.severity === 'warning'),
      (problem) => problem.code,
    ).map((group) => [group.first, group]),
  );
  const lines: string[] = [];
  for (const problem of problems) {
    if (problem.severity === 'error') lines.push(line(problem));
    const group = groups.get(problem);
    if (group !== undefined)
      lines.push(...groupLines(line(problem), group.others.map(place), ACTION_AT_EACH_PLACE.has(group.code)));
  }
  return lines.join('\n');
}

function place(problem: ProblemLine): string {
  return `${safeText(problem.file)}:${problem.line}:${problem.column}`;
}

/** countProblems says how many errors and warnings there are, e.g. `2 errors, 1 warning`. */
export function countProblems(problems: readonly ProblemLine[]): string {
  const errors = problems.filter((problem) => problem.severity === 'error').length;
  const warnings = problems.length - errors;
  return `${plural(errors, 'error')}, ${plural(warnings, 'warning')}`;
}
