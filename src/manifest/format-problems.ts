import picocolors from 'picocolors';
import { EXIT, ViewctlError } from '../errors.js';
import { safeText } from '../text/safe-text.js';
import { plural } from '../text/plural.js';
import { ACTION_AT_EACH_PLACE, groupLines, groupWarnings } from '../text/warning-groups.js';
import type { Problem } from './types.js';

/**
 * formatProblems renders problems one per line, in the order given:
 * `file:LINE:COL  CODE  message at /pointer; hint`. A warning says so before its
 * message. The layout is what editors and CI annotators parse as a location. Every
 * error has its line; warnings of one code are one entry, where the first stands
 * (its line, then how many more and where), unless `showWarnings` lists each.
 */
export function formatProblems(
  problems: readonly Problem[],
  options: { color: boolean; showWarnings?: boolean },
): string {
  const colors = picocolors.createColors(options.color);
  const line = (problem: Problem): string => {
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

function place(problem: Problem): string {
  return `${safeText(problem.file)}:${problem.line}:${problem.column}`;
}

/** countProblems says how many errors and warnings there are, e.g. `2 errors, 1 warning`. */
export function countProblems(problems: readonly Problem[]): string {
  const errors = problems.filter((problem) => problem.severity === 'error').length;
  const warnings = problems.length - errors;
  return `${plural(errors, 'error')}, ${plural(warnings, 'warning')}`;
}

/**
 * ManifestInvalidError stops validate, plan and apply when any manifest has an error
 * (README, "Fail-safe rules": no write is sent). Its message is the whole
 * problem list and a count, so the one top-level catch prints everything.
 */
export class ManifestInvalidError extends ViewctlError {
  readonly problems: readonly Problem[];

  constructor(problems: readonly Problem[]) {
    super(
      'manifest.invalid',
      `the manifests are invalid:\n${formatProblems(problems, { color: false })}\n${countProblems(problems)}`,
      {
        exitCode: EXIT.error,
        hint: 'fix the problems above; `viewctl validate` checks manifests without contacting the service',
      },
    );
    this.problems = problems;
  }
}
