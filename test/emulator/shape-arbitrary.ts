import fc from 'fast-check';
import type { ObjectShape, Shape } from '../../src/emulator/views/shape.js';

/**
 * Values drawn from the emulator's view shapes (src/emulator/views/shape.ts): `fits`
 * draws a value that fits a shape; `broken` draws one that fits but for one
 * mistake, with the path (segments) of the mistake.
 */

const DATES = ['2026-01-31', '2026-01-31T09:00:00Z', '2024-02-29', '2026-10-01T10:00:00+01:00'];

/** fits draws a value that fits `shape`. */
export function fits(shape: Shape): fc.Arbitrary<unknown> {
  switch (shape.kind) {
    case 'string':
      if (shape.pattern !== undefined) return fc.constantFrom('CreatedAt', 'AmountCurrency', 'Name', 'X1');
      return fc.string({ minLength: shape.minLength ?? 0, maxLength: 6 });
    case 'number':
      return shape.minimum === undefined
        ? fc.double({ noNaN: true, noDefaultInfinity: true })
        : fc.integer({ min: shape.minimum, max: 400 });
    case 'boolean':
      return fc.boolean();
    case 'enum':
      return fc.constantFrom(...shape.values);
    case 'date':
      return fc.constantFrom(...DATES);
    case 'list':
      return fc.array(fits(shape.of), { maxLength: 2 });
    case 'object':
      return fitsObject(shape);
    case 'tagged':
      return fc.oneof(...Object.values(shape.branches).map(fitsObject));
    case 'either':
      return fc.oneof(...shape.options.map(fits));
  }
}

function fitsObject(shape: ObjectShape): fc.Arbitrary<unknown> {
  const fields = Object.fromEntries(Object.entries(shape.fields).map(([name, field]) => [name, fits(field)]));
  const required = [...shape.required, ...(shape.requiredWhen === undefined ? [] : [shape.requiredWhen.requires])];
  return fc
    .record(fields, { requiredKeys: required })
    .filter(
      (value) => shape.oneRequiredOf === undefined || shape.oneRequiredOf.some((name) => Object.hasOwn(value, name)),
    );
}

/** Broken is a value with one mistake, and the segments that lead to it. */
export interface Broken {
  value: unknown;
  segments: string[];
}

/**
 * broken draws a value of `shape` with one mistake: a value of the wrong type, a
 * string outside an enum or a date that does not exist, an unknown attribute, or a
 * missing required one (or one another attribute's value requires). `segments` leads to the mistake (for an unknown or missing
 * attribute, the attribute).
 */
export function broken(shape: Shape, at: string[] = []): fc.Arbitrary<Broken> {
  const wrong = (value: unknown): Broken => ({ value, segments: at });
  switch (shape.kind) {
    case 'string':
      return fc
        .constantFrom(
          7,
          true,
          null,
          {},
          ...(shape.pattern === undefined ? [] : ['lowercase']),
          ...(shape.minLength === undefined ? [] : ['']),
        )
        .map(wrong);
    case 'number':
      return fc
        .constantFrom('7', true, null, [], ...(shape.minimum === undefined ? [] : [shape.minimum - 1]))
        .map(wrong);
    case 'boolean':
      return fc.constantFrom('true', 1, null).map(wrong);
    case 'enum':
      return fc
        .constantFrom(`${shape.values[0] ?? ''}s`, (shape.values[0] ?? 'x').toLowerCase(), 'Other', 3)
        .map(wrong);
    case 'date':
      return fc.constantFrom('2026-02-30', '2026-13-01', 'yesterday', 20260131).map(wrong);
    case 'list':
      return fc.oneof(
        fc.constantFrom('x', 3, {}).map(wrong),
        fc
          .tuple(fits(shape.of), broken(shape.of, [...at, '1']))
          .map(([first, bad]) => ({ value: [first, bad.value], segments: bad.segments })),
      );
    case 'object':
      return brokenObject(shape, at);
    case 'tagged': {
      const [tag, branches] = [shape.tag, Object.entries(shape.branches)];
      return fc.oneof(
        ...branches.map(([, branch]) => brokenObject(branch, at, [tag])),
        ...branches.map(([, branch]) =>
          fitsObject(branch).map((value) => ({
            value: { ...(value as object), [tag]: 'Unknown' },
            segments: [...at, tag],
          })),
        ),
      );
    }
    case 'either':
      // A value none of the options takes: a number (every option here is a string or an object).
      return fc.constant(wrong(3));
  }
}

// One mistake in an object: an unknown attribute, a missing required one, or a
// broken value of one attribute (never the tag, in `keep`).
function brokenObject(shape: ObjectShape, at: string[], keep: string[] = []): fc.Arbitrary<Broken> {
  const base = fitsObject(shape) as fc.Arbitrary<Record<string, unknown>>;
  const options: fc.Arbitrary<Broken>[] = [
    base.map((value) => ({ value: { ...value, unknownAttribute: 1 }, segments: [...at, 'unknownAttribute'] })),
  ];
  const removable = shape.required.filter((name) => !keep.includes(name));
  if (removable.length > 0) {
    options.push(
      fc.tuple(base, fc.constantFrom(...removable)).map(([value, name]) => {
        const { [name]: _removed, ...rest } = value;
        return { value: rest, segments: [...at, name] };
      }),
    );
  }
  const when = shape.requiredWhen;
  if (when !== undefined) {
    options.push(
      base.map((value) => {
        const { [when.requires]: _removed, ...rest } = value;
        return { value: { ...rest, [when.attribute]: when.equals }, segments: [...at, when.requires] };
      }),
    );
  }
  const fields = Object.entries(shape.fields).filter(([name]) => !keep.includes(name));
  if (fields.length > 0) {
    options.push(
      fc
        .constantFrom(...fields)
        .chain(([name, field]) =>
          fc
            .tuple(base, broken(field, [...at, name]))
            .map(([value, bad]) => ({ value: { ...value, [name]: bad.value }, segments: bad.segments })),
        ),
    );
  }
  return fc.oneof(...options);
}
