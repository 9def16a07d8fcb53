import { readFileSync } from 'node:fs';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import { InternalError } from '../errors.js';

/**
 * The plan file's shape is written once, in `schemas/plan/plan.schema.json`, and ajv
 * checks every part of a file against it (nested changes, tabs and patches included).
 * What a schema cannot say (each change's target has a live hash, the summary counts
 * the changes) is checked in `parsePlanFile`.
 */

/** PLAN_SCHEMA_FILE is the schema's location in the package; the same path works from `src/` and `dist/`. */
export const PLAN_SCHEMA_FILE = new URL('../../schemas/plan/plan.schema.json', import.meta.url);

/** PlanSchemaSource reads the plan schema's text: the package's file, or a test's stand-in for a broken install. */
export type PlanSchemaSource = () => string;

/** packagedPlanSchema reads `PLAN_SCHEMA_FILE`. */
export const packagedPlanSchema: PlanSchemaSource = () => readFileSync(PLAN_SCHEMA_FILE, 'utf8');

const validators = new Map<PlanSchemaSource, ValidateFunction>();

/**
 * planShapeProblems lists where `data` departs from the plan schema, as `path: what`
 * strings; empty when it fits. A schema that cannot be read or compiled is viewctl's
 * fault, never the plan file's: an InternalError naming the cause.
 */
export function planShapeProblems(data: unknown, schema: PlanSchemaSource = packagedPlanSchema): string[] {
  let validate = validators.get(schema);
  if (validate === undefined) {
    validate = compilePlanSchema(schema);
    validators.set(schema, validate);
  }
  if (validate(data)) return [];
  return [...new Set((validate.errors ?? []).filter((error) => error.keyword !== 'if').map(describe))];
}

function compilePlanSchema(schema: PlanSchemaSource): ValidateFunction {
  try {
    return new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true }).compile(JSON.parse(schema()) as object);
  } catch (error) {
    const why = error instanceof Error && 'code' in error ? String(error.code) : error instanceof Error ? error.message : String(error);
    throw new InternalError(`the plan schema (schemas/plan/plan.schema.json in the installed package) cannot be loaded: ${why}`, { cause: error });
  }
}

function describe(error: ErrorObject): string {
  const path = error.instancePath === '' ? '/' : error.instancePath;
  switch (error.keyword) {
    case 'required':
      return `${path}: needs "${String(error.params['missingProperty'])}"`;
    case 'additionalProperties':
      return `${path}: has no attribute "${String(error.params['additionalProperty'])}"`;
    case 'enum':
      return `${path}: must be one of ${(error.params['allowedValues'] as unknown[]).map((value) => JSON.stringify(value)).join(', ')}`;
    case 'const':
      return `${path}: must be ${JSON.stringify(error.params['allowedValue'])}`;
    default:
      return `${path}: ${error.message ?? error.keyword}`;
  }
}
