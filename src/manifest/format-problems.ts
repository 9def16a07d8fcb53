import { EXIT, ViewctlError } from '../errors.js';
import { countProblems, formatProblems } from '../text/problem-lines.js';
import type { Problem } from './types.js';

// The lines are a text helper (src/text/problem-lines.ts), so the CLI prints them without importing the manifests.
export { countProblems, formatProblems };

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
