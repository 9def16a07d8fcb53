import { describe, expect, it } from 'vitest';
import { computePlan } from '../../src/plan/diff.js';
import { MAX_PLAN_DEPTH, parsePlanFile } from '../../src/plan/plan-file.js';
import { renderJson } from '../../src/render/json.js';
import { thrownViewctlError } from '../support/errors.js';
import { mixedScenario } from './fixtures.js';

/**
 * A saved plan nested too deep (a hand-made or corrupted file) is `plan.invalid`, never
 * a stack overflow: the schema and the digest walk values recursively, so the depth is
 * bounded before either runs.
 */

const { plan } = computePlan(mixedScenario().desired, mixedScenario().live);
const text = renderJson(plan);

/** withValue puts `value` as the first JSON patch value of the plan's text. */
function withValue(value: string): string {
  const edited = text.replace(/"value": [^\n]*?(,?)\n/, `"value": ${value}$1\n`);
  expect(edited).not.toBe(text);
  return edited;
}

describe('a plan file nested too deep', () => {
  it.each([
    ['arrays', (depth: number) => `${'['.repeat(depth)}1${']'.repeat(depth)}`],
    ['objects', (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`],
    ['mixed', (depth: number) => `${'[{"a":'.repeat(depth / 2)}1${'}]'.repeat(depth / 2)}`],
  ])('is plan.invalid, saying where, for %s 3,000 deep', (_name, nested) => {
    const error = thrownViewctlError(() => parsePlanFile(withValue(nested(3000))));
    expect(error.code).toBe('plan.invalid');
    expect(error.exitCode).toBe(1);
    expect(error.message).toMatch(
      new RegExp(
        `^the file is not a viewctl plan: /changes/\\d+/patch/0/value.* nests deeper than ${MAX_PLAN_DEPTH} levels`,
      ),
    );
  });

  it('reads a plan whose values nest to the bound, and refuses one level more', () => {
    // The patch value sits 5 levels below the top (changes, a change, patch, an operation, value).
    const room = MAX_PLAN_DEPTH - 5;
    const fits = `${'['.repeat(room)}${']'.repeat(room)}`;
    // The digest no longer matches, so the depth passed: the file got as far as its digest.
    expect(thrownViewctlError(() => parsePlanFile(withValue(fits))).code).not.toBe('plan.invalid');
    const deeper = `[${fits}]`;
    expect(thrownViewctlError(() => parsePlanFile(withValue(deeper))).code).toBe('plan.invalid');
  });
});
