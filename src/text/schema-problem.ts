import type { ErrorObject } from 'ajv/dist/2020.js';

/**
 * schemaProblem says one JSON Schema error of a file viewctl reads back (a plan file,
 * the sweep memory) as `JSON-PATH: what is wrong`, in the words the README's error
 * tables use. `keys` words a `propertyNames` error: what the object keys by.
 */
export function schemaProblem(error: ErrorObject, keys = 'one this file keys by'): string {
  const path = error.instancePath === '' ? '/' : error.instancePath;
  switch (error.keyword) {
    case 'required':
      return `${path}: needs "${String(error.params.missingProperty)}"`;
    case 'additionalProperties':
      return `${path}: has no attribute "${String(error.params.additionalProperty)}"`;
    case 'propertyNames':
      return `${path}: has a key "${String(error.params.propertyName)}" that is not ${keys}`;
    case 'enum':
      return `${path}: must be one of ${(error.params.allowedValues as unknown[]).map((value) => JSON.stringify(value)).join(', ')}`;
    case 'const':
      return `${path}: must be ${JSON.stringify(error.params.allowedValue)}`;
    default:
      return `${path}: ${error.message ?? error.keyword}`;
  }
}
