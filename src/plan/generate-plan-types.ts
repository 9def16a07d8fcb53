/**
 * Development script (run by `npm run schemas:types`): writes the TypeScript types of
 * the plan file from `schemas/plan/plan.schema.json`, so the file's shape is written
 * once. Runtime code never imports this file: json-schema-to-typescript is a dev
 * dependency.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { compile } from 'json-schema-to-typescript';
import type { JSONSchema4 } from 'json-schema';
import { isJsonObject, type JsonObject, type JsonValue } from '../domain/api-types.js';

/** PLAN_SCHEMA_PATH is the schema the types follow (the committed file: the built-in kinds' actions). */
export const PLAN_SCHEMA_PATH = new URL('../../schemas/plan/plan.schema.json', import.meta.url);

/** GENERATED_PLAN_TYPES_FILE is where the generated plan types are committed. */
export const GENERATED_PLAN_TYPES_FILE = new URL('../domain/generated/plan-types.ts', import.meta.url);

const BANNER = `/**
 * Generated from schemas/plan/plan.schema.json by \`npm run schemas:types\`. Do not edit:
 * change the schema and regenerate (a test fails when this file is out of date).
 */`;

/**
 * changesAsUnion rewrites the schema's `change` for the generator. The schema says a
 * change's shape per action with `allOf` of `if` (the action) / `then` (its shape), which
 * validates but carries no type: the generator would give one loose object. Each `then`
 * becomes a whole change of its own (the common properties it accepts with `true` taken
 * from `change`, `action` a constant) and `change` the `oneOf` of them: a union tagged
 * on `action`.
 */
function changesAsUnion(schema: JsonObject): void {
  const defs = schema.$defs;
  if (!isJsonObject(defs)) throw new Error('the plan schema has no $defs');
  const change = defs.change;
  if (!isJsonObject(change) || !isJsonObject(change.properties) || !Array.isArray(change.allOf)) {
    throw new Error("the plan schema's $defs.change has no properties or allOf");
  }
  const common = change.properties;
  const commonRequired = Array.isArray(change.required) ? change.required : [];
  const branches: JsonValue[] = [];
  for (const entry of change.allOf) {
    const action = isJsonObject(entry) && isJsonObject(entry.if) ? entry.if : undefined;
    const tag =
      isJsonObject(action?.properties) && isJsonObject(action.properties.action)
        ? action.properties.action.const
        : undefined;
    const ref = isJsonObject(entry) && isJsonObject(entry.then) ? entry.then.$ref : undefined;
    const name = typeof ref === 'string' ? ref.replace(/^#\/\$defs\//, '') : undefined;
    const shape = name === undefined ? undefined : defs[name];
    if (typeof tag !== 'string' || name === undefined || !isJsonObject(shape) || !isJsonObject(shape.properties)) {
      throw new Error(
        `the plan schema's $defs.change.allOf has an entry the generator cannot read: ${JSON.stringify(entry)}`,
      );
    }
    const properties: JsonObject = {};
    for (const [key, value] of Object.entries({ ...common, ...shape.properties })) {
      properties[key] =
        key === 'action' ? { const: tag } : value === true && common[key] !== undefined ? common[key] : value;
    }
    const required = [...new Set([...commonRequired, ...(Array.isArray(shape.required) ? shape.required : [])])];
    defs[name] = { ...shape, properties, required };
    branches.push({ $ref: `#/$defs/${name}` });
  }
  const { properties: _properties, required: _required, allOf: _allOf, type: _type, ...rest } = change;
  defs.change = { ...rest, oneOf: branches };
}

/** generatePlanTypes returns the text of `src/domain/generated/plan-types.ts`. */
export async function generatePlanTypes(schemaText: string = readFileSync(PLAN_SCHEMA_PATH, 'utf8')): Promise<string> {
  const schema = JSON.parse(schemaText) as JsonObject;
  changesAsUnion(schema);
  const { $schema: _schema, ...root } = schema;
  return compile({ ...root, $id: 'plan' } as JSONSchema4, 'Plan', {
    bannerComment: BANNER,
    // The schema's own default: an object that lists no attributes (a view's filters, a step's body) holds any.
    additionalProperties: true,
    // A `minItems` is checked by the schema; the types keep plain arrays the code builds one item at a time.
    ignoreMinAndMaxItems: true,
    unreachableDefinitions: true,
    declareExternallyReferenced: true,
    // The code is compiled with noUncheckedIndexedAccess, which adds the `undefined` of a missing key where it is read.
    strictIndexSignatures: false,
    format: true,
    style: { singleQuote: true, printWidth: 110 },
  });
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  writeFileSync(GENERATED_PLAN_TYPES_FILE, await generatePlanTypes());
  process.stdout.write(`wrote ${fileURLToPath(GENERATED_PLAN_TYPES_FILE)}\n`);
}
