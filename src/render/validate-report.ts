import { plural } from '../text/plural.js';
import { countProblems, formatProblems, type ProblemLine } from '../text/problem-lines.js';
import { fitText } from '../text/wrap.js';

/** ValidateResult is what the report of `viewctl validate` says: the problems, and how many documents and files were read. */
export interface ValidateResult {
  problems: readonly ProblemLine[];
  documents: number;
  files: number;
}

/**
 * validateReport renders the outcome of `viewctl validate`: the problems, then one
 * summary line, wrapped to a terminal's `width` when given. Pure, so the golden tests
 * and the command print the same text.
 */
export function validateReport(
  result: ValidateResult,
  options: { color: boolean; showWarnings?: boolean; width?: number },
): string {
  const lines: string[] = [];
  const errors = result.problems.some((problem) => problem.severity === 'error');
  if (result.problems.length > 0) lines.push(formatProblems(result.problems, options));
  const scope = `${plural(result.documents, 'document')} in ${plural(result.files, 'file')}`;
  if (errors) lines.push(`${countProblems(result.problems)} in ${plural(result.files, 'file')}`);
  else if (result.problems.length > 0)
    lines.push(
      `${scope} ${result.documents === 1 ? 'is' : 'are'} valid (${countProblems(result.problems).split(', ')[1] ?? ''})`,
    );
  else lines.push(`${scope} ${result.documents === 1 ? 'is' : 'are'} valid`);
  return fitText(`${lines.join('\n')}\n`, options.width);
}

/**
 * validateJson is `viewctl validate --format json`, as `terraform validate -json` is
 * read by editors and pipelines: `valid`, the counts, and every problem with its file,
 * line, column, stable code, severity, message, JSON pointer and hint (README,
 * "validate"). Plain data, one object; the exit code is the text output's.
 */
export function validateJson(result: ValidateResult): string {
  const errors = result.problems.filter((problem) => problem.severity === 'error').length;
  const report = {
    formatVersion: 1,
    valid: errors === 0,
    files: result.files,
    documents: result.documents,
    errorCount: errors,
    warningCount: result.problems.length - errors,
    problems: result.problems.map((problem) => ({
      file: problem.file,
      line: problem.line,
      column: problem.column,
      code: problem.code,
      severity: problem.severity,
      message: problem.message,
      pointer: problem.pointer,
      ...(problem.hint === undefined ? {} : { hint: problem.hint }),
    })),
  };
  return `${JSON.stringify(report, null, 2)}\n`;
}
