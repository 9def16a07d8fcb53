import { compareCodePoints } from '../kinds/canonical.js';
import type { Problem, Severity, SourcePosition } from './types.js';

/** ProblemInput is what a check knows when it finds a problem; the helper adds the rest. */
export interface ProblemInput {
  severity?: Severity;
  code: string;
  message: string;
  at: SourcePosition;
  pointer?: string;
  document?: number;
  hint?: string;
}

/** makeProblem builds a Problem; severity defaults to error, pointer to the document root. */
export function makeProblem(input: ProblemInput): Problem {
  return {
    severity: input.severity ?? 'error',
    code: input.code,
    message: input.message,
    file: input.at.file,
    line: input.at.line,
    column: input.at.column,
    pointer: input.pointer ?? '',
    document: input.document ?? 0,
    ...(input.hint === undefined ? {} : { hint: input.hint }),
  };
}

/** sortProblems orders problems by file, line and column; ties keep the order found (the sort is stable). */
export function sortProblems(problems: readonly Problem[]): Problem[] {
  return [...problems].sort((a, b) => compareCodePoints(a.file, b.file) || a.line - b.line || a.column - b.column);
}

/** hasErrors tells whether any problem is an error (warnings alone do not stop a run). */
export function hasErrors(problems: readonly Problem[]): boolean {
  return problems.some((problem) => problem.severity === 'error');
}
