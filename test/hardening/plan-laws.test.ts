import fc from 'fast-check';
import jsonpatch, { type Operation } from 'fast-json-patch';
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../src/domain/api-types.js';
import { DOMAINS } from '../../src/domain/domains.js';
import { canonicalJson } from '../../src/kinds/canonical.js';
import { desiredSnapshot, normalizeSnapshot, normalizeView } from '../../src/kinds/normalize.js';
import { PlanRefusedError } from '../../src/plan/refusal.js';
import type { Plan } from '../../src/plan/types.js';
import { memoryService } from './memory-service.js';
import { COLUMN, FILTERS, SORTS, scenario } from './state-arbitraries.js';
import { planWorkspace } from '../../src/flows/plan-workspace.js';

/**
 * The laws of planning, on random desired and live states across all four domains
 * (test/plan checks the patch law for recording views): each update's patch turns
 * `before` into `after`, and normalisation is idempotent. That carrying a plan out
 * leaves nothing to plan, with faults and without, is the convergence property
 * (convergence.test.ts, on the same states).
 */

describe('planning laws on random states', () => {
  it('patch law: the patch of every update turns `before` into `after`', async () => {
    const outcomes = { planned: 0, refused: 0, updates: 0 };
    await fc.assert(
      fc.asyncProperty(scenario(), async ({ data, desired }) => {
        let plan: Plan;
        try {
          ({ plan } = await planWorkspace(desired, memoryService(data).client));
        } catch (error) {
          // A random pin list may still name a view the plan deletes; that is a refusal, not a crash.
          if (!(error instanceof PlanRefusedError)) throw error;
          outcomes.refused += 1;
          return;
        }
        outcomes.planned += 1;
        for (const change of plan.changes) {
          if (change.action !== 'update') continue;
          outcomes.updates += 1;
          const patched = jsonpatch.applyPatch(
            structuredClone(change.before),
            change.patch as Operation[],
            true,
            false,
          ).newDocument;
          expect(canonicalJson(patched)).toBe(canonicalJson(change.after));
        }
      }),
      { numRuns: 100, seed: 8675309, endOnFailure: true },
    );
    // The generator must produce plans that update, and mostly ones the planner accepts.
    expect(outcomes.planned).toBeGreaterThan(75);
    expect(outcomes.updates).toBeGreaterThan(100);
  });

  it('normalisation is idempotent in every domain and ignores the response-only dealAgeRange', () => {
    const view = fc.constantFrom(...DOMAINS).chain((domain) =>
      fc.record({
        domain: fc.constant(domain),
        icon: fc.option(fc.constantFrom('star', 'warning'), { nil: undefined }),
        columns: fc.array(COLUMN, { maxLength: 3 }),
        filters: FILTERS[domain],
        sort: fc.array(SORTS[domain], { maxLength: 2 }),
        ageRange: fc.constantFrom('OneDay', 'LessThan30Days', 'MoreThan180Days'),
      }),
    );
    fc.assert(
      fc.property(view, ({ domain, icon, columns, filters, sort, ageRange }) => {
        const apiView = {
          viewId: 'v_1',
          name: 'V',
          visibility: 'Public' as const,
          isDefault: false,
          ownerId: 'u_1',
          columns,
          filters,
          sort,
          ...(icon === undefined ? {} : { icon }),
        };
        const once = normalizeView(domain, apiView);
        expect(normalizeSnapshot(domain, once)).toEqual(once);
        // A manifest declaring exactly what is live plans no change.
        const declared = desiredSnapshot(
          domain,
          {
            domain,
            name: 'V',
            managed: { icon: icon ?? null, columns, filters, sort },
            source: { file: 'f', line: 1, column: 1 },
          },
          once,
        );
        expect(canonicalJson(declared)).toBe(canonicalJson(once));
        const aged = normalizeView(domain, {
          ...apiView,
          filters: { ...filters, dealAgeRange: ageRange } as JsonObject,
        });
        if (domain === 'deals') expect(aged).toEqual(once);
        else expect(aged.filters.dealAgeRange).toBe(ageRange);
      }),
      { numRuns: 300, seed: 1234 },
    );
  });
});
