import { RefusedError, ViewctlError } from '../errors.js';
import { verifyDigest } from './hash.js';
import { planSteps } from './operations.js';
import { planShapeProblems, type PlanSchemaSource } from './plan-schema.js';
import { summarize } from './summary.js';
import { PLAN_FORMAT_VERSION, type Action, type Plan } from './types.js';
import { isJsonObject } from '../domain/api-types.js';

/**
 * parsePlanFile reads a saved plan (`apply --plan FILE`): JSON, this build's
 * `formatVersion`, the shape of a Plan, and a digest that matches the content (a file
 * without `steps` gets those its changes imply). A file that is not a plan is
 * `plan.invalid` and an unknown version `plan.version` (exit 1); a digest mismatch
 * means the file was edited or corrupted: `plan.digest-mismatch`, refused (exit 3).
 * `schema` reads the plan schema (default: the package's file).
 */
export function parsePlanFile(text: string, schema?: PlanSchemaSource): Plan {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw invalid(`it is not JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  if (!isJsonObject(data)) throw invalid('it is not a JSON object');
  // The schema and the digest walk values recursively: a file nested deeper than any
  // plan would overflow the stack, so its depth is checked first, without recursion.
  const deep = tooDeep(data, MAX_PLAN_DEPTH);
  if (deep !== undefined)
    throw invalid(
      `${deep} nests deeper than ${MAX_PLAN_DEPTH} levels, far deeper than any plan viewctl writes (it was made or edited by hand)`,
    );
  if (data.formatVersion !== PLAN_FORMAT_VERSION) {
    throw new ViewctlError(
      'plan.version',
      `the plan file has formatVersion ${JSON.stringify(data.formatVersion ?? null)}; this viewctl reads version ${PLAN_FORMAT_VERSION}`,
      {
        hint: 'run `viewctl plan --out FILE` again with this version of viewctl',
      },
    );
  }
  const problems = planProblems(data, schema);
  if (problems.length > 0)
    throw invalid(problems.slice(0, 5).join('; ') + (problems.length > 5 ? `; and ${problems.length - 5} more` : ''));
  const plan = data as unknown as Plan;
  if (!verifyDigest(plan)) {
    throw new RefusedError(
      'plan.digest-mismatch',
      'the plan file does not match its digest: it was edited or corrupted after `viewctl plan` wrote it',
      'run `viewctl plan --out FILE` again and apply that file unchanged',
    );
  }
  // A file written before plans stored their steps: its changes (checked like any
  // other's) imply them, so they are rebuilt rather than the file refused. One written
  // before warnings had codes holds their texts: each is read as a warning without one.
  const warnings = plan.warnings.map((warning: Plan['warnings'][number] | string) =>
    typeof warning === 'string' ? { code: 'plan.warning', message: warning } : warning,
  );
  return { ...plan, warnings, ...(data.steps === undefined ? { steps: planSteps(plan) } : {}) };
}

/**
 * MAX_PLAN_DEPTH bounds how deep a plan file's arrays and objects nest, the top object
 * being level 1. A plan nests a view's filters a few levels below a change's, a dozen
 * or so in all; a hundred leaves room for any filter a view can hold.
 */
export const MAX_PLAN_DEPTH = 100;

/**
 * tooDeep is the JSON pointer of the first array or object of `data` nested deeper
 * than `limit` levels, or undefined. It walks with its own stack, so no depth can
 * overflow it.
 */
function tooDeep(data: unknown, limit: number): string | undefined {
  const stack: { value: unknown; path: string; depth: number }[] = [{ value: data, path: '', depth: 1 }];
  for (let entry = stack.pop(); entry !== undefined; entry = stack.pop()) {
    const { value, path, depth } = entry;
    if (typeof value !== 'object' || value === null) continue;
    if (depth > limit) return shortPointer(path);
    for (const [key, child] of Object.entries(value))
      stack.push({ value: child, path: `${path}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`, depth: depth + 1 });
  }
  return undefined;
}

/** shortPointer keeps the first levels of a deep pointer: those say where; the rest repeat. */
function shortPointer(path: string): string {
  const parts = path.split('/').slice(1);
  return parts.length === 0 ? '/' : `/${parts.slice(0, 8).join('/')}${parts.length > 8 ? '/…' : ''}`;
}

function invalid(why: string): ViewctlError {
  return new ViewctlError('plan.invalid', `the file is not a viewctl plan: ${why}`, {
    hint: 'pass the file written by `viewctl plan --out FILE` (or `--format json`)',
  });
}

/**
 * planProblems is the schema's account of `data` plus what a schema cannot say: every
 * change's target has a live hash (the stale check needs it), and the summary (and
 * `drifted`) count the changes.
 */
function planProblems(data: Record<string, unknown>, schema: PlanSchemaSource | undefined): string[] {
  const problems = planShapeProblems(data, schema);
  if (problems.length > 0) return problems;
  const plan = data as unknown as Plan;
  plan.changes.forEach((change, index) => {
    if (plan.liveHashes[change.target] === undefined) problems.push(`/changes/${index}/target: has no live hash`);
  });
  for (const [action, count] of Object.entries(summarize(plan.changes))) {
    if (plan.summary[action as Action] !== count)
      problems.push(`/summary/${action}: ${count}, the number of ${action} changes`);
  }
  // Drift is counted beside the actions: the changes with an origin.
  const drifted = plan.changes.filter((change) => change.origin !== undefined).length;
  if (plan.drifted !== undefined && plan.drifted.changes !== drifted)
    problems.push(`/drifted/changes: ${drifted}, the number of changes with an origin`);
  return problems;
}
