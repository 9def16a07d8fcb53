import { InternalError, RefusedError, ViewctlError } from '../errors.js';
import { parsePlanFile } from './plan-file.js';
import type { PlanSchemaSource } from './plan-schema.js';
import type { Plan } from './types.js';

/**
 * readPlanFile parses a saved plan. A file that is not a plan, or of another format
 * version, is an error (exit 1). A digest that does not match the content means the
 * file was edited or corrupted after `plan` wrote it: that plan is not the one
 * reviewed, so apply refuses it (exit 3), as it refuses a digest other than `--expect-digest`. Only the file's own
 * faults are the user's: anything else (the package's plan schema missing, a bug) is
 * an InternalError with its cause, never "pass the file written by viewctl plan".
 * `schema` reads the plan schema (default: the package's file).
 */
export function readPlanFile(text: string, file: string, schema?: PlanSchemaSource): Plan {
  try {
    return parsePlanFile(text, schema);
  } catch (error) {
    if (error instanceof ViewctlError && error.code === 'plan.digest-mismatch') {
      throw new RefusedError(
        'plan.digest-mismatch',
        `${file} does not match its own digest: it was edited or corrupted after viewctl plan wrote it; nothing was written`,
        'run viewctl plan --out again and review the new plan; never edit a plan file by hand',
      );
    }
    if (error instanceof ViewctlError || error instanceof InternalError) throw error;
    throw new InternalError(
      `checking the plan file ${file} failed: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
}
