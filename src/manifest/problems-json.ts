import type { LoadResult } from './load.js';
import { hasErrors } from './problems.js';

/**
 * validateJson is `viewctl validate --format json`, as `terraform validate -json` is
 * read by editors and pipelines: `valid`, the counts, and every problem with its file,
 * line, column, stable code, severity, message, JSON pointer and hint (README,
 * "validate"). Plain data, one object; the exit code is the text output's.
 */
export function validateJson(result: LoadResult): string {
  const errors = result.problems.filter((problem) => problem.severity === 'error').length;
  const report = {
    formatVersion: 1,
    valid: !hasErrors(result.problems),
    files: result.files.length,
    documents: result.documents.length,
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
