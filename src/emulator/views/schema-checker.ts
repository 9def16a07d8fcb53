import type { ErrorObject } from 'ajv';
import { viewAttributeValidator } from '../../manifest/schema-registry.js';
import { SERVICE_DATE_FORMS } from '../records/service-date.js';
import type { AttributeChecker, BodyProblem } from './body.js';

/**
 * schemaChecker checks `columns`, `filters` and `sort` against the API's shapes in
 * `schemas/<kind>.schema.json#/$defs/<attribute>` (the one source of truth the
 * manifests use too). The reported `path` is dotted and stops at the attribute that
 * holds the bad value (`filters.sourceIn`, `columns`), the message names the exact
 * place (`filters.sourceIn[0]`).
 */
export const schemaChecker: AttributeChecker = (domain, attribute, value) => {
  const validate = viewAttributeValidator(domain, attribute);
  if (validate(value)) return undefined;
  const error = mostSpecific(validate.errors ?? []);
  return error === undefined
    ? { path: attribute, message: `${attribute} does not match the ${domain} view shape` }
    : describe(attribute, error);
};

// Combinator errors (oneOf, anyOf...) only say "some branch failed"; the deepest
// concrete error is the one a user can act on.
const COMBINATORS = new Set(['oneOf', 'anyOf', 'allOf', 'if', 'not', 'discriminator']);

function mostSpecific(errors: ErrorObject[]): ErrorObject | undefined {
  const concrete = errors.filter((error) => !COMBINATORS.has(error.keyword));
  const candidates = concrete.length > 0 ? concrete : errors;
  let best: ErrorObject | undefined;
  for (const error of candidates) {
    if (best === undefined || segmentsOf(error).length > segmentsOf(best).length) best = error;
  }
  return best;
}

function describe(attribute: string, error: ErrorObject): BodyProblem {
  const segments = segmentsOf(error);
  const firstIndex = segments.findIndex((segment) => /^[0-9]+$/.test(segment));
  const pathSegments = firstIndex < 0 ? segments : segments.slice(0, firstIndex);
  const path = [attribute, ...pathSegments].join('.');
  const place = attribute + segments.map((segment) => (/^[0-9]+$/.test(segment) ? `[${segment}]` : `.${segment}`)).join('');
  return { path, message: `${place} ${explain(error)}` };
}

// The pointer of the offending value; for unknown and missing properties, the property itself.
function segmentsOf(error: ErrorObject): string[] {
  const segments = error.instancePath === ''
    ? []
    : error.instancePath.slice(1).split('/').map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'));
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'additionalProperties' && typeof params['additionalProperty'] === 'string') {
    segments.push(params['additionalProperty']);
  }
  if (error.keyword === 'required' && typeof params['missingProperty'] === 'string') {
    segments.push(params['missingProperty']);
  }
  return segments;
}

function explain(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'additionalProperties') return 'is not a known attribute';
  if (error.keyword === 'required') return 'is required';
  if (error.keyword === 'format' && (params['format'] === 'date' || params['format'] === 'date-time')) {
    return `is not a date that exists; ${SERVICE_DATE_FORMS}`;
  }
  if (error.keyword === 'enum' && Array.isArray(params['allowedValues'])) {
    return `must be one of ${params['allowedValues'].map(String).join(', ')}`;
  }
  return error.message ?? 'is not valid';
}
