import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseDocument } from 'yaml';

/** REPO is the repository root. */
export const REPO = fileURLToPath(new URL('../..', import.meta.url));

/**
 * WORKFLOW_DIRS are the folders holding GitHub Actions workflows: the project's own CI
 * and the ones users copy into their manifests repository. The latter sit in a hidden
 * folder of examples/, where a manifests repository keeps them, so that
 * `viewctl plan examples` skips them like any `.github` folder.
 */
export const WORKFLOW_DIRS = ['.github/workflows', 'examples/.github/workflows'] as const;

/** ACTION is the composite action the example workflows use. */
export const ACTION = '.github/actions/viewctl/action.yml';

/** Step is one step of a job, as written in the YAML. */
export interface Step {
  id?: string;
  name?: string;
  uses?: string;
  run?: string;
  shell?: string;
  if?: string;
  env?: Record<string, string>;
  with?: Record<string, string | number | boolean>;
}

/** Job is one job of a workflow. */
export interface Job {
  'runs-on': string;
  'timeout-minutes'?: number;
  /** The deployment environment whose secrets and protection rules the job gets. */
  environment?: string;
  permissions?: Record<string, string>;
  steps: Step[];
}

/** Workflow is a parsed workflow file with the path it came from. */
export interface Workflow {
  path: string;
  name: string;
  on: Record<string, unknown>;
  permissions?: Record<string, string> | string;
  concurrency?: { group: string; 'cancel-in-progress': boolean };
  env?: Record<string, string | number>;
  jobs: Record<string, Job>;
}

/** workflowPaths lists every workflow file, relative to the repository root, sorted. */
export function workflowPaths(): string[] {
  return WORKFLOW_DIRS.flatMap((dir) =>
    readdirSync(join(REPO, dir))
      .filter((name) => /\.ya?ml$/.test(name))
      .map((name) => relative(REPO, join(REPO, dir, name))),
  ).sort();
}

/** YamlResult is a file's parse errors and, without errors, its content. */
export interface YamlResult {
  errors: string[];
  value: unknown;
}

/** parseWorkflowYaml parses one file strictly (duplicate keys are errors, as on GitHub). */
export function parseWorkflowYaml(path: string): YamlResult {
  const document = parseDocument(readFileSync(join(REPO, path), 'utf8'), { uniqueKeys: true, prettyErrors: false });
  const errors = [...document.errors, ...document.warnings].map((error) => error.message);
  return { errors, value: errors.length === 0 ? document.toJS() : undefined };
}

/** loadWorkflow parses a workflow file that is known to be valid YAML. */
export function loadWorkflow(path: string): Workflow {
  const { errors, value } = parseWorkflowYaml(path);
  if (errors.length > 0) throw new Error(`${path}: ${errors.join('; ')}`);
  return { ...(value as Omit<Workflow, 'path'>), path };
}

/** ActionInput is one input a composite action declares. */
export interface ActionInput {
  description: string;
  required?: boolean;
  default?: string;
}

/** Action is a parsed composite action, its steps seen as one job named "action". */
export interface Action extends Workflow {
  inputs: Record<string, ActionInput>;
  outputs?: Record<string, { description: string; value: string }>;
}

/** loadAction parses a composite action (`runs.using: composite`) so the step helpers below work on it. */
export function loadAction(path: string): Action {
  const { errors, value } = parseWorkflowYaml(path);
  if (errors.length > 0) throw new Error(`${path}: ${errors.join('; ')}`);
  const action = value as {
    name: string;
    inputs: Record<string, ActionInput>;
    outputs?: Action['outputs'];
    runs: { using: string; steps: Step[] };
  };
  if (action.runs.using !== 'composite') throw new Error(`${path} is not a composite action`);
  return {
    path,
    name: action.name,
    on: {},
    inputs: action.inputs,
    ...(action.outputs === undefined ? {} : { outputs: action.outputs }),
    jobs: { action: { 'runs-on': 'composite', steps: action.runs.steps } },
  };
}

/** LocatedStep is a step with the job it belongs to. */
export interface LocatedStep {
  job: string;
  step: Step;
}

/** allSteps lists every step of every job, in file order. */
export function allSteps(workflow: Workflow): LocatedStep[] {
  return Object.entries(workflow.jobs).flatMap(([job, body]) => body.steps.map((step) => ({ job, step })));
}

/** stepById finds the step with this id, or fails the test with the workflow's path. */
export function stepById(workflow: Workflow, id: string): Step {
  const found = allSteps(workflow).find(({ step }) => step.id === id);
  if (found === undefined) throw new Error(`${workflow.path} has no step with id "${id}"`);
  return found.step;
}

/** stepByName finds the step with this name, or fails the test with the workflow's path. */
export function stepByName(workflow: Workflow, name: string): Step {
  const found = allSteps(workflow).find(({ step }) => step.name === name);
  if (found === undefined) throw new Error(`${workflow.path} has no step named "${name}"`);
  return found.step;
}

/** ExpressionContext is what the `${{ }}` expressions of these files may read: `vars`, `secrets`, `inputs`, `github`, `steps`. */
export type ExpressionContext = Record<string, unknown>;

/**
 * evaluate resolves a value as the runner does for the expressions these files use:
 * text with `${{ ... }}` parts, each `a || b || ...`, whose operands are context
 * properties (`vars.NAME`, `inputs.budget`, `github.event.pull_request.number`; a
 * missing one is empty) or quoted literals; `||` takes the first non-empty operand.
 * Any other form throws, so a new one gets a reader here before a test relies on it.
 */
export function evaluate(value: string, context: ExpressionContext): string {
  return value.replace(/\$\{\{(.*?)\}\}/g, (_, expression: string) => {
    for (const operand of expression.split('||').map((part) => part.trim())) {
      const literal = /^'((?:[^']|'')*)'$/.exec(operand);
      let resolved: unknown;
      if (literal !== null) resolved = (literal[1] ?? '').replace(/''/g, "'");
      else if (/^[a-z_][\w-]*(?:\.[\w-]+)*$/i.test(operand))
        resolved = operand
          .split('.')
          .reduce<unknown>(
            (at, key) => (at !== null && typeof at === 'object' ? (at as Record<string, unknown>)[key] : undefined),
            context,
          );
      else throw new Error(`evaluate reads no expression of the form "${operand}"`);
      if (resolved !== undefined && resolved !== null && resolved !== '' && resolved !== false) return String(resolved);
    }
    return '';
  });
}
