import { isJsonObject } from '../../domain/api-types.js';
import { parseServiceDate, SERVICE_DATE_FORMS } from '../service-date.js';
import type { ObjectShape, Shape } from './shape.js';

/**
 * Checking a value against a shape (shape.ts). Every problem found is returned with
 * the segments that lead to the offending value (`['sourceIn', '0']`); for an unknown
 * or missing attribute, the attribute itself. Within an object, the problems of the
 * object come first (a missing attribute, an unknown one), then those of its
 * attributes in the order the shape lists them.
 */

/** ShapeIssue is one thing wrong with a value: where, and what. */
export interface ShapeIssue {
  segments: string[];
  message: string;
}

/** shapeIssues lists every problem of `value` against `shape`; empty when it fits. */
export function shapeIssues(shape: Shape, value: unknown, at: readonly string[] = []): ShapeIssue[] {
  const issue = (message: string): ShapeIssue[] => [{ segments: [...at], message }];
  switch (shape.kind) {
    case 'string':
      if (typeof value !== 'string') return issue('must be string');
      if (shape.minLength !== undefined && value.length < shape.minLength)
        return issue(`must NOT have fewer than ${shape.minLength} characters`);
      if (shape.pattern !== undefined && !shape.pattern.test(value))
        return issue(`must match pattern "${shape.pattern.source}"`);
      return [];
    case 'number':
      // JSON's 1e999 parses to Infinity, which no JSON number names.
      if (typeof value !== 'number' || !Number.isFinite(value)) return issue('must be number');
      return shape.minimum !== undefined && value < shape.minimum ? issue(`must be >= ${shape.minimum}`) : [];
    case 'boolean':
      return typeof value === 'boolean' ? [] : issue('must be boolean');
    case 'enum':
      return typeof value === 'string' && shape.values.includes(value)
        ? []
        : issue(`must be one of ${shape.values.join(', ')}`);
    case 'date':
      if (typeof value !== 'string') return issue('must be string');
      return parseServiceDate(value) === null ? issue(`is not a date that exists; ${SERVICE_DATE_FORMS}`) : [];
    case 'list':
      if (!Array.isArray(value)) return issue('must be array');
      return value.flatMap((entry, index) => shapeIssues(shape.of, entry, [...at, String(index)]));
    case 'object':
      return objectIssues(shape, value, at);
    case 'tagged':
      return taggedIssues(shape.tag, shape.branches, value, at);
    case 'either': {
      const each = shape.options.map((option) => shapeIssues(option, value, at));
      if (each.some((issues) => issues.length === 0)) return [];
      // The options of the value's own JSON type say what is wrong with it; the rest only that it is not them.
      const own = each.filter((_, index) => takesTypeOf(shape.options[index], value));
      return (own.length > 0 ? own : each).flat();
    }
  }
}

const JSON_TYPES: Record<Shape['kind'], string> = {
  string: 'string',
  enum: 'string',
  date: 'string',
  number: 'number',
  boolean: 'boolean',
  list: 'array',
  object: 'object',
  tagged: 'object',
  either: '',
};

function takesTypeOf(shape: Shape | undefined, value: unknown): boolean {
  if (shape === undefined) return false;
  if (shape.kind === 'either') return shape.options.some((option) => takesTypeOf(option, value));
  const type = Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value;
  return JSON_TYPES[shape.kind] === type;
}

function objectIssues(shape: ObjectShape, value: unknown, at: readonly string[]): ShapeIssue[] {
  if (!isJsonObject(value)) return [{ segments: [...at], message: 'must be object' }];
  const has = (name: string): boolean => Object.hasOwn(value, name);
  const issues: ShapeIssue[] = [];
  const anyOf = shape.oneRequiredOf;
  if (anyOf !== undefined && !anyOf.some(has))
    issues.push({ segments: [...at], message: `must set ${anyOf.join(' or ')}` });
  for (const name of shape.required) {
    if (!has(name)) issues.push({ segments: [...at, name], message: 'is required' });
  }
  for (const name of Object.keys(value)) {
    if (!Object.hasOwn(shape.fields, name))
      issues.push({ segments: [...at, name], message: 'is not a known attribute' });
  }
  for (const [name, field] of Object.entries(shape.fields)) {
    if (has(name)) issues.push(...shapeIssues(field, value[name], [...at, name]));
  }
  const when = shape.requiredWhen;
  if (when !== undefined && value[when.attribute] === when.equals && !has(when.requires)) {
    issues.push({ segments: [...at, when.requires], message: 'is required' });
  }
  return issues;
}

// The tag picks the branch; a missing or unknown tag is the one problem, reported on
// the object, since the branch that would say what else is wrong is not known.
function taggedIssues(
  tag: string,
  branches: Readonly<Record<string, ObjectShape>>,
  value: unknown,
  at: readonly string[],
): ShapeIssue[] {
  if (!isJsonObject(value)) return [{ segments: [...at], message: 'must be object' }];
  const name = value[tag];
  const branch =
    typeof name === 'string' && Object.hasOwn(value, tag) && Object.hasOwn(branches, name) ? branches[name] : undefined;
  if (branch === undefined)
    return [{ segments: [...at], message: `tag "${tag}" must be one of ${Object.keys(branches).join(', ')}` }];
  return objectIssues(branch, value, at);
}
