import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DOMAINS, VIEW_KINDS } from '../../src/domain/domains.js';
import { PLAN_SCHEMA_FILE, planSchema, planShapeProblems } from '../../src/plan/plan-schema.js';
import { CHANGE_ORIGINS } from '../../src/plan/types.js';

/** The plan file's one shape: every plan viewctl writes fits it, and it checks nested parts too. */

const GOLDEN = new URL('../golden/plan/', import.meta.url);
const goldenPlans = readdirSync(GOLDEN)
  .filter((file) => file.endsWith('.json'))
  .map((file) => [file, JSON.parse(readFileSync(new URL(file, GOLDEN), 'utf8')) as Record<string, unknown>] as const);

describe('schemas/plan/plan.schema.json', () => {
  it('fits every golden plan', () => {
    expect(goldenPlans.length).toBeGreaterThan(0);
    for (const [file, plan] of goldenPlans) expect(planShapeProblems(plan), file).toEqual([]);
  });

  it('names the path of defects deep inside changes, which a top-level check would miss', () => {
    const [, mixed] = goldenPlans.find(([file]) => file === 'mixed.json') ?? [];
    const plan = structuredClone(mixed) as { changes: Record<string, unknown>[] };
    const pinIndex = plan.changes.findIndex((change) => change.action === 'pin');
    const updateIndex = plan.changes.findIndex((change) => change.action === 'update');
    const deleteIndex = plan.changes.findIndex((change) => change.action === 'delete');
    (plan.changes[pinIndex]?.after as Record<string, unknown>[])[0] = {
      viewId: 'rv_1',
      name: 'X',
      visibility: 'Secret',
      isDefault: false,
    };
    const patch = plan.changes[updateIndex]?.patch as Record<string, unknown>[];
    patch.push({ op: 'explode', path: '/name' });
    delete plan.changes[deleteIndex]?.pinnedBy;
    expect([...planShapeProblems(plan)].sort()).toEqual(
      [
        `/changes/${updateIndex}/patch/${patch.length - 1}/op: must be one of "add", "remove", "replace", "move", "copy", "test"`,
        `/changes/${deleteIndex}: needs "pinnedBy"`,
        `/changes/${pinIndex}/after/0/visibility: must be one of "Public", "Private"`,
      ].sort(),
    );
  });

  it('names an attribute the schema does not know, and a value of the wrong type, at their path', () => {
    const [, mixed] = goldenPlans.find(([file]) => file === 'mixed.json') ?? [];
    const plan = structuredClone(mixed) as Record<string, unknown> & { summary: Record<string, unknown> };
    plan.approvedBy = 'mallory';
    plan.summary.create = 'one';
    expect([...planShapeProblems(plan)].sort()).toEqual([
      '/: has no attribute "approvedBy"',
      '/summary/create: must be integer',
    ]);
  });

  it('knows each origin a --base plan marks a change with, and no other', () => {
    const schema = JSON.parse(readFileSync(PLAN_SCHEMA_FILE, 'utf8')) as {
      $defs: Record<string, { properties: Record<string, { enum?: string[] }> }>;
    };
    expect(schema.$defs.change?.properties.origin?.enum).toEqual([...CHANGE_ORIGINS]);
    const [, mixed] = goldenPlans.find(([file]) => file === 'mixed.json') ?? [];
    for (const origin of CHANGE_ORIGINS) {
      const plan = structuredClone(mixed) as { changes: Record<string, unknown>[] };
      for (const change of plan.changes) change.origin = origin;
      expect(planShapeProblems(plan), origin).toEqual([]);
    }
    const plan = structuredClone(mixed) as { changes: Record<string, unknown>[] };
    (plan.changes[0] ?? {}).origin = 'elsewhere';
    expect(planShapeProblems(plan)).toEqual([
      '/changes/0/origin: must be one of "outside", "unapplied-or-outside", "membership"',
    ]);
  });

  it('lists the domains and view kinds this build knows', () => {
    const schema = JSON.parse(readFileSync(PLAN_SCHEMA_FILE, 'utf8')) as { $defs: Record<string, { enum: string[] }> };
    expect(schema.$defs.domain?.enum).toEqual([...DOMAINS]);
    expect(schema.$defs.viewKind?.enum).toEqual(DOMAINS.map((domain) => VIEW_KINDS[domain]));
  });
});

describe('planSchema', () => {
  it("is the file for the built-in kinds: the lists of actions there are the registry's", () => {
    expect(planSchema()).toEqual(JSON.parse(readFileSync(PLAN_SCHEMA_FILE, 'utf8')));
  });
});
