import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JsonValue } from '../../src/domain/api-types.js';
import { canonicalJson, canonicalize, compareJsonValues, jsonEqual, sortedSet } from '../../src/kinds/canonical.js';

/** The one spelling of a value that hashes, set order and equality rely on (src/kinds/canonical.ts). */

describe('canonicalize', () => {
  it('sorts keys by code point at every depth, keeps array order and drops undefined members', () => {
    const value = { b: 1, B: { z: [3, { y: 1, x: 2 }], a: undefined }, ä: true } as unknown as JsonValue;
    expect(canonicalJson(value)).toBe('{"B":{"z":[3,{"x":2,"y":1}]},"b":1,"ä":true}');
  });

  it('keeps a `__proto__` key as an attribute, so it takes part in every comparison', () => {
    const parsed = JSON.parse('{"__proto__": {"evil": true}, "a": 1}') as JsonValue;
    expect(canonicalJson(parsed)).toBe('{"__proto__":{"evil":true},"a":1}');
    expect(jsonEqual(parsed, { a: 1 })).toBe(false);
  });

  it('is idempotent and spells equal values alike whatever their key order', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const once = canonicalize(value as JsonValue);
        expect(canonicalize(once)).toEqual(once);
        expect(canonicalJson(JSON.parse(JSON.stringify(value)) as JsonValue)).toBe(canonicalJson(once));
      }),
      { numRuns: 200, seed: 42 },
    );
  });
});

describe('sortedSet', () => {
  it('puts numbers first (numerically), then strings by code point, then objects; duplicates once', () => {
    const values: JsonValue[] = [
      { id: 'u_2', kind: 'user' },
      'beta',
      10,
      'Alpha',
      9,
      { kind: 'user', id: 'u_2' },
      'beta',
      { id: 'u_1' },
    ];
    expect(sortedSet(values)).toEqual([9, 10, 'Alpha', 'beta', { id: 'u_1' }, { id: 'u_2', kind: 'user' }]);
  });

  it('gives the same list for any order of the same members', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.integer(), fc.string(), fc.record({ id: fc.string() }))),
        fc.nat(),
        (values, shift) => {
          const rotated = values.map((_, index) => values[(index + shift) % values.length] as JsonValue);
          expect(canonicalJson(sortedSet(rotated))).toBe(canonicalJson(sortedSet(values)));
          const sorted = sortedSet(values);
          for (let index = 1; index < sorted.length; index += 1)
            expect(compareJsonValues(sorted[index - 1] as JsonValue, sorted[index] as JsonValue)).toBeLessThan(0);
        },
      ),
      { numRuns: 200, seed: 7 },
    );
  });
});
