import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DOMAINS, type Domain } from '../../src/domain/domains.js';
import { RESPONSE_ONLY_FILTERS } from '../../src/emulator/views/body.js';
import { ruleChecker } from '../../src/emulator/views/rule-checker.js';
import { VIEW_ATTRIBUTES, VIEW_SHAPES, type ViewAttribute } from '../../src/emulator/views/view-shapes.js';
import { viewAttributeValidator } from '../../src/manifest/schema-registry.js';
import { broken, fits } from './shape-arbitrary.js';

/**
 * Two implementations of one description: the manifests' schemas (what `validate`
 * accepts) and the emulator's own rules (what the service accepts). Values drawn from
 * the emulator's tables, whole or with one mistake, must get the same verdict from
 * both, so a schema that drifts from the service fails here as well as against the
 * emulator. Response-only filters are left out: the schemas refuse them on purpose.
 */

const CASES = DOMAINS.flatMap((domain) =>
  VIEW_ATTRIBUTES.map((attribute): [Domain, ViewAttribute] => [domain, attribute]),
);

function responseOnly(domain: Domain, attribute: ViewAttribute, value: unknown): string[] {
  if (attribute !== 'filters' || typeof value !== 'object' || value === null) return [];
  return RESPONSE_ONLY_FILTERS[domain].filter((name) => Object.hasOwn(value, name));
}

function sendable(domain: Domain, attribute: ViewAttribute, value: unknown): unknown {
  const left = responseOnly(domain, attribute, value);
  return left.length === 0
    ? value
    : Object.fromEntries(Object.entries(value as object).filter(([name]) => !left.includes(name)));
}

function brokenPath(attribute: string, segments: readonly string[]): string {
  const firstIndex = segments.findIndex((segment) => /^[0-9]+$/.test(segment));
  return [attribute, ...(firstIndex < 0 ? segments : segments.slice(0, firstIndex))].join('.');
}

describe('the emulator rules and the manifest schemas agree', () => {
  it.each(CASES)('%s %s: both accept a value that fits', (domain, attribute) => {
    const schema = viewAttributeValidator(domain, attribute);
    fc.assert(
      fc.property(fits(VIEW_SHAPES[domain][attribute]), (drawn) => {
        const value = sendable(domain, attribute, drawn);
        expect(ruleChecker(domain, attribute, value)).toBeUndefined();
        expect(schema(value), JSON.stringify(schema.errors)).toBe(true);
      }),
      { seed: 27, numRuns: 150 },
    );
  });

  it.each(CASES)('%s %s: both refuse a value with one mistake, the emulator at its path', (domain, attribute) => {
    const schema = viewAttributeValidator(domain, attribute);
    fc.assert(
      fc.property(broken(VIEW_SHAPES[domain][attribute]), ({ value, segments }) => {
        fc.pre(responseOnly(domain, attribute, value).length === 0);
        expect(ruleChecker(domain, attribute, value)?.path).toBe(brokenPath(attribute, segments));
        expect(schema(value)).toBe(false);
      }),
      { seed: 27, numRuns: 150 },
    );
  });
});
