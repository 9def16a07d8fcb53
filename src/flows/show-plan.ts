import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { checkPlanIdentity } from '../apply/gates.js';
import { readPlanFile } from '../plan/saved-plan-file.js';
import { EXIT, systemErrorCode, UsageError, ViewctlError } from '../errors.js';
import type { Plan } from '../plan/types.js';

/**
 * showPlan is `viewctl show PLAN.json` up to its output: it reads a plan saved by
 * `plan --out` (FILE relative to `cwd`) and checks it as `apply --plan` checks it
 * before reading anything (its shape, version, digest and that its changes and steps
 * agree), so what is shown is what apply would carry out. It needs no service. Since
 * show refuses nothing, every problem exits 1 (apply refuses such a file with exit 3).
 */
export async function showPlan(file: string, cwd: string): Promise<Plan> {
  let text: string;
  try {
    text = await readFile(resolve(cwd, file), 'utf8');
  } catch (error) {
    throw new UsageError(
      'plan.unreadable',
      `cannot read the plan file ${file}: ${systemErrorCode(error)}`,
      'pass the file written by viewctl plan --out',
    );
  }
  try {
    const plan = readPlanFile(text, file);
    checkPlanIdentity(plan);
    return plan;
  } catch (error) {
    // apply refuses such a file with exit 3; show refuses nothing, so any problem exits 1 (its message holds for show too).
    if (error instanceof ViewctlError && error.exitCode !== EXIT.error)
      throw new ViewctlError(error.code, error.message, { hint: error.hint });
    throw error;
  }
}
