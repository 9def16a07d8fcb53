import { readFileSync } from 'node:fs';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { Domain, ResourceKind, ViewKind } from '../../src/domain/domains.js';
import type * as Schema from '../../src/domain/generated/plan-types.js';
import { GENERATED_PLAN_TYPES_FILE, PLAN_SCHEMA_PATH, generatePlanTypes } from '../../src/plan/generate-plan-types.js';
import { PLAN_SCHEMA_FILE } from '../../src/plan/plan-schema.js';
import { actionNames } from '../../src/kinds/kinds.js';
import type { Action, Change, Plan } from '../../src/plan/types.js';

/**
 * The plan file's types are generated from `schemas/plan/plan.schema.json` and the
 * code's (src/kinds/changes.ts, src/plan/types.ts) narrow them: the schema is the one
 * place the shape is written.
 */

const schemaText = readFileSync(PLAN_SCHEMA_PATH, 'utf8');

describe('src/domain/generated/plan-types.ts', () => {
  it('is up to date (npm run schemas:types)', async () => {
    expect(await generatePlanTypes()).toBe(readFileSync(GENERATED_PLAN_TYPES_FILE, 'utf8'));
  });

  it('is out of date as soon as the schema gains a property: the test above then fails', async () => {
    const schema = JSON.parse(schemaText) as { $defs: Record<string, { properties: Record<string, unknown> }> };
    schema.$defs.delete!.properties.reviewer = { type: 'string', description: 'Who approved the prune.' };
    const generated = await generatePlanTypes(JSON.stringify(schema));
    expect(generated).not.toBe(readFileSync(GENERATED_PLAN_TYPES_FILE, 'utf8'));
    // Within the interface: no line before the property closes it (nested objects close indented).
    expect(generated).toMatch(/export interface DeleteChange \{\n(?:(?!\}\n).*\n)*? {2}reviewer\?: string;/);
  });

  it('follows the schema the plan files are checked against', () => {
    expect(new URL(PLAN_SCHEMA_PATH).href).toBe(new URL(PLAN_SCHEMA_FILE).href);
  });

  it('types a change as a union tagged on `action`, one member per action of the schema', async () => {
    const generated = await generatePlanTypes();
    expect(generated).toContain(
      `export type Change = CreateChange | UpdateChange | DeleteChange | PinChange | DriftChange;`,
    );
    for (const action of actionNames()) expect(generated).toContain(`action: '${action}';`);
    expectTypeOf<Schema.Change['action']>().toEqualTypeOf<Action>();
    expectTypeOf<Extract<Change, { action: 'pin' }>>().toEqualTypeOf<Schema.PinChange>();
  });

  it('names the domains and kinds the code does (checked by npm run typecheck)', () => {
    expectTypeOf<Schema.Domain>().toEqualTypeOf<Domain>();
    expectTypeOf<Schema.ViewKind>().toEqualTypeOf<ViewKind>();
    expectTypeOf<Schema.Change['kind']>().toEqualTypeOf<ResourceKind>();
    expectTypeOf<Plan>().toExtend<Schema.Plan>();
    expectTypeOf<Change>().toExtend<Schema.Change>();
  });
});
