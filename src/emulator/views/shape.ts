/**
 * The small language the emulator's body rules are written in: a shape is plain
 * data (what a value must be), built by the functions below and read by
 * shape-check.ts. The shapes of each view attribute are tables in view-shapes.ts,
 * written from the service's description of its views.
 */

/** Shape is what one value of a request body must be. */
export type Shape =
  | { kind: 'string'; minLength?: number; pattern?: RegExp }
  | { kind: 'number'; minimum?: number }
  | { kind: 'boolean' }
  | { kind: 'enum'; values: readonly string[] }
  | { kind: 'date' }
  | { kind: 'list'; of: Shape }
  | ObjectShape
  /** Branches by tag value; each lists the tag among its fields (see `tagged`). */
  | { kind: 'tagged'; tag: string; branches: Readonly<Record<string, ObjectShape>> }
  | { kind: 'either'; options: readonly Shape[] };

/** ObjectShape is an object with known attributes only. */
export interface ObjectShape {
  kind: 'object';
  fields: Readonly<Record<string, Shape>>;
  /** Attributes that must be present. */
  required: readonly string[];
  /** At least one of these attributes must be present. */
  oneRequiredOf?: readonly string[];
  /** An attribute required only when another holds a given value. */
  requiredWhen?: { attribute: string; equals: string; requires: string };
}

/** text is any string; `minLength` and `pattern` narrow it. */
export function text(options: { minLength?: number; pattern?: RegExp } = {}): Shape {
  return { kind: 'string', ...options };
}

/** number is any JSON number; `minimum` bounds it from below, inclusive. */
export function number(minimum?: number): Shape {
  return minimum === undefined ? { kind: 'number' } : { kind: 'number', minimum };
}

/** BOOLEAN is `true` or `false`. */
export const BOOLEAN: Shape = { kind: 'boolean' };

/** DATE is a service date that exists (service-date.ts). */
export const DATE: Shape = { kind: 'date' };

/** oneOf is a string among `values`. */
export function oneOf(values: readonly string[]): Shape {
  return { kind: 'enum', values };
}

/** listOf is an array whose every entry has the shape `of`. */
export function listOf(of: Shape): Shape {
  return { kind: 'list', of };
}

/** STRINGS is an array of strings, the most common filter value. */
export const STRINGS: Shape = listOf(text());

/**
 * object is an object whose attributes are among `fields`; the names in `required`
 * must be present. Any other attribute is refused.
 */
export function object(
  fields: Readonly<Record<string, Shape>>,
  required: readonly string[] = [],
  more: Partial<ObjectShape> = {},
): ObjectShape {
  return { kind: 'object', fields, required, ...more };
}

/**
 * tagged is an object told apart by the string in `tag` (`type`): each branch, named
 * by its tag value, lists the attributes besides the tag, which is always required.
 */
export function tagged(tag: string, branches: Readonly<Record<string, ObjectShape>>): Shape {
  const full = Object.entries(branches).map(([name, branch]): [string, ObjectShape] => [
    name,
    {
      ...branch,
      fields: { [tag]: oneOf([name]), ...branch.fields },
      required: [tag, ...branch.required],
    },
  ]);
  return { kind: 'tagged', tag, branches: Object.fromEntries(full) };
}

/** either is a value of any of `options` (tried in order). */
export function either(...options: Shape[]): Shape {
  return { kind: 'either', options };
}
