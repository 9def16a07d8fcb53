import { readFileSync } from 'node:fs';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { schemaProblem } from '../text/schema-problem.js';
import type { JsonObject } from '../domain/api-types.js';
import { InternalError } from '../errors.js';
import type { KindAction } from '../kinds/kind.js';
import { kindActions, registryVersion } from '../kinds/kinds.js';

/**
 * The plan file's shape is written once, in `schemas/plan/plan.schema.json`, and ajv
 * checks every part of a file against it (nested changes, tabs and patches included).
 * What a schema cannot say (each change's target has a live hash, the summary counts
 * the changes) is checked in `parsePlanFile`. The parts that list the actions (a
 * change's `action`, its shape per action, the `summary`) follow the registry of kinds
 * (`planSchema`); the file holds them as the built-in kinds give them.
 */

/** PLAN_SCHEMA_FILE is the schema's location in the package; the same path works from `src/` and `dist/`. */
export const PLAN_SCHEMA_FILE = new URL('../../schemas/plan/plan.schema.json', import.meta.url);

/** PlanSchemaSource reads the plan schema's text: the package's file, or a test's stand-in for a broken install. */
export type PlanSchemaSource = () => string;

/** packagedPlanSchema reads `PLAN_SCHEMA_FILE`. */
export const packagedPlanSchema: PlanSchemaSource = () => readFileSync(PLAN_SCHEMA_FILE, 'utf8');

/**
 * planSchema is the plan schema for `actions` (default: every registered kind's): the
 * schema `source` reads, with the list of actions, the shape of a change per action
 * and the summary's counts written from them.
 */
export function planSchema(
  actions: readonly KindAction[] = kindActions(),
  source: PlanSchemaSource = packagedPlanSchema,
): JsonObject {
  const schema = JSON.parse(source()) as SchemaParts;
  const names = actions.map((entry) => entry.action);
  schema.$defs.change.properties.action = { enum: names };
  schema.$defs.change.allOf = actions.map((entry) => ({
    if: { properties: { action: { const: entry.action } } },
    then: entry.schema,
  }));
  schema.properties.summary.required = names;
  schema.properties.summary.properties = Object.fromEntries(names.map((name) => [name, { $ref: '#/$defs/count' }]));
  return schema as unknown as JsonObject;
}

/** SchemaParts are the parts of the plan schema `planSchema` writes. */
interface SchemaParts {
  $defs: { change: { properties: Record<string, unknown>; allOf: unknown[] } };
  properties: { summary: { required: string[]; properties: Record<string, unknown> } };
}

/** The compiled schema of each source, for the registry as it was (`registryVersion`) when compiled. */
const validators = new Map<PlanSchemaSource, { version: number; validate: ValidateFunction }>();

/**
 * planShapeProblems lists where `data` departs from the plan schema, as `path: what`
 * strings; empty when it fits. A schema that cannot be read or compiled is viewctl's
 * fault, never the plan file's: an InternalError naming the cause.
 */
export function planShapeProblems(data: unknown, schema: PlanSchemaSource = packagedPlanSchema): string[] {
  let compiled = validators.get(schema);
  if (compiled?.version !== registryVersion()) {
    compiled = { version: registryVersion(), validate: compilePlanSchema(schema) };
    validators.set(schema, compiled);
  }
  const { validate } = compiled;
  if (validate(data)) return [];
  return [
    ...new Set((validate.errors ?? []).filter((error) => error.keyword !== 'if').map((error) => schemaProblem(error))),
  ];
}

function compilePlanSchema(schema: PlanSchemaSource): ValidateFunction {
  try {
    return new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true }).compile(
      planSchema(kindActions(), schema),
    );
  } catch (error) {
    const why =
      error instanceof Error && 'code' in error
        ? String(error.code)
        : error instanceof Error
          ? error.message
          : String(error);
    throw new InternalError(
      `the plan schema (schemas/plan/plan.schema.json in the installed package) cannot be loaded: ${why}`,
      { cause: error },
    );
  }
}
