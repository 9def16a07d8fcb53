import fc from 'fast-check';
import jsonpatch from 'fast-json-patch';
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../src/domain/api-types.js';
import { computePlan } from '../../src/plan/diff.js';
import type { Operation } from 'fast-json-patch';
import { declared, emptyDesired, emptyLive, view } from './fixtures.js';

const column = fc
  .record({
    type: fc.constant('Default'),
    columnId: fc.constantFrom('title', 'source', 'owner', 'duration'),
    width: fc.option(fc.integer({ min: 40, max: 400 }), { nil: undefined }),
  })
  .map((value) => JSON.parse(JSON.stringify(value)) as JsonObject);
const filters = fc.record(
  {
    sourceIn: fc.array(fc.constantFrom('Zoom', 'Call', 'Api', 'Loom'), { maxLength: 4 }),
    labelIdNotIn: fc.array(fc.constantFrom('l1', 'l2', 'l3'), { maxLength: 3 }),
    createdAfterRelative: fc.integer({ min: 1, max: 90 }),
  },
  { requiredKeys: [] },
) as fc.Arbitrary<JsonObject>;
const sort = fc.array(
  fc.record({ field: fc.constantFrom('CreatedAt', 'Title'), order: fc.constantFrom('Asc', 'Desc') }),
  { maxLength: 2 },
);
const parts = fc.record({
  icon: fc.option(fc.constantFrom('star', 'phone'), { nil: null }),
  columns: fc.array(column, { maxLength: 4 }),
  filters,
  sort,
});

describe('the patch law', () => {
  it('applying an update patch to `before` gives `after`', () => {
    fc.assert(
      fc.property(parts, parts, fc.boolean(), (live, wanted, rename) => {
        const liveView = view('rv_1', 'V', {
          columns: live.columns,
          filters: live.filters,
          sort: live.sort as JsonObject[],
          ...(live.icon === null ? {} : { icon: live.icon }),
        });
        const desired = emptyDesired();
        desired.views = [
          declared(
            'recordings',
            rename ? 'W' : 'V',
            { icon: wanted.icon, columns: wanted.columns, filters: wanted.filters, sort: wanted.sort as JsonObject[] },
            { viewId: 'rv_1' },
          ),
        ];
        const live2 = emptyLive();
        live2.views.recordings = [liveView];
        const [change] = computePlan(desired, live2).plan.changes;
        if (change === undefined) return;
        expect(change.action).toBe('update');
        if (change.action !== 'update') return;
        const patched = jsonpatch.applyPatch(
          structuredClone(change.before),
          change.patch as Operation[],
          true,
          false,
        ).newDocument;
        expect(patched).toEqual(change.after);
      }),
      { numRuns: 200 },
    );
  });
});
