import { encodePointer } from './yaml-positions.js';

/**
 * YAML's known tags (`!!binary`, `!!set`, `!!omap`, `!!pairs`, `!!timestamp`) turn a
 * value into something JSON has no type for. A schema check would see binary data,
 * a set or an ordered map as a mapping (a set or map even as an empty one, so it
 * could pass), so such values are reported as what they are, where they are.
 */

/** TaggedValue is one value of a type JSON does not have, by JSON Pointer. */
interface TaggedValue {
  pointer: string;
  /** What it is, for a message: "binary data (!!binary)". */
  what: string;
}

/** taggedValues lists the values of `value` that are not plain JSON data, depth first. */
export function taggedValues(value: unknown, path: (string | number)[] = []): TaggedValue[] {
  const what = describeTagged(value);
  if (what !== undefined) return [{ pointer: encodePointer(path), what }];
  if (Array.isArray(value)) return value.flatMap((item, index) => taggedValues(item, [...path, index]));
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, item]) => taggedValues(item, [...path, key]));
  }
  return [];
}

function describeTagged(value: unknown): string | undefined {
  if (value instanceof Uint8Array) return 'binary data (!!binary)';
  if (value instanceof Set) return 'a set (!!set)';
  if (value instanceof Map) return 'an ordered map (!!omap or !!pairs)';
  if (value instanceof Date) return 'a timestamp (!!timestamp)';
  return undefined;
}
