import type { ErrorObject } from 'ajv';
import { domainOfKind, VIEW_DOMAINS, type ViewDomain } from '../domain/domains.js';
import { didYouMean } from '../text/suggest.js';
import type { RawDocument } from './parsed-file.js';
import { makeProblem, type ProblemInput } from './problems.js';
import { discriminatorValues } from './schema-registry.js';
import type { Problem, SourcePosition } from './types.js';
import { decodePointer, encodePointer } from './yaml-positions.js';

/**
 * schemaProblems turns ajv's errors for one document into one clear problem per real
 * mistake: the noise of `oneOf` branches collapses onto the branch the value meant,
 * `if`/`then` bookkeeping disappears, and each problem gets a stable code and the
 * position of the offending key or value.
 */
export function schemaProblems(errors: readonly ErrorObject[], document: RawDocument, kind: string): Problem[] {
  const seen = new Set<string>();
  const problems: Problem[] = [];
  for (const error of collapseBranches(errors)) {
    const problem = toProblem(error, document, kind);
    const key = `${problem.code}\u0000${problem.pointer}`;
    if (seen.has(key)) continue;
    seen.add(key);
    problems.push(problem);
  }
  return problems;
}

/**
 * collapseBranches replaces the errors of a failed `oneOf`/`anyOf` without a
 * discriminator by those of the branch whose type matches the value (fewest errors
 * first); when no branch has the value's type, by a single type error.
 */
function collapseBranches(errors: readonly ErrorObject[]): ErrorObject[] {
  let result = dropNoiseOfWrongType(errors.filter((error) => error.keyword !== 'if'));
  const unions = result.filter((error) => error.keyword === 'oneOf' || error.keyword === 'anyOf');
  for (const union of unions) {
    const prefix = `${union.schemaPath}/`;
    // Several values can fail the same union: a branch error belongs to this one when
    // it sits at or below the union's value.
    const within = (error: ErrorObject): boolean =>
      error.schemaPath.startsWith(prefix) &&
      (error.instancePath === union.instancePath || error.instancePath.startsWith(`${union.instancePath}/`));
    const branches = new Map<string, ErrorObject[]>();
    for (const error of result) {
      if (!within(error)) continue;
      const branch = error.schemaPath.slice(prefix.length).split('/')[0] ?? '';
      branches.set(branch, [...(branches.get(branch) ?? []), error]);
    }
    const isRootTypeError = (error: ErrorObject): boolean =>
      error.keyword === 'type' && error.instancePath === union.instancePath;
    const fitting = [...branches.values()]
      .filter((branchErrors) => !branchErrors.some(isRootTypeError))
      .sort((a, b) => a.length - b.length);
    const replacement: ErrorObject[] = fitting[0] ?? [
      {
        ...union,
        keyword: 'type',
        params: {
          type: [...branches.values()]
            .flat()
            .filter(isRootTypeError)
            .map((error) => String(error.params.type)),
        },
      },
    ];
    result = result.filter((error) => error !== union && !within(error));
    result.push(...replacement);
  }
  return result;
}

/**
 * dropNoiseOfWrongType keeps only the `type` error of an object whose `type` tag has
 * a value its schema does not allow (e.g. an `AiSection` column in a company view):
 * its missing and unknown attributes follow from that one mistake.
 */
function dropNoiseOfWrongType(errors: ErrorObject[]): ErrorObject[] {
  const wrongTag = new Set(
    errors
      .filter(
        (error) => (error.keyword === 'const' || error.keyword === 'enum') && error.instancePath.endsWith('/type'),
      )
      .map((error) => error.instancePath.slice(0, -'/type'.length)),
  );
  return errors.filter(
    (error) =>
      !(wrongTag.has(error.instancePath) && (error.keyword === 'required' || error.keyword === 'additionalProperties')),
  );
}

function toProblem(error: ErrorObject, document: RawDocument, kind: string): Problem {
  const pointer = error.instancePath;
  const name = attributeName(pointer);
  // Most problems name the offending value and sit where it is; the others say where instead.
  const problem = (input: Omit<ProblemInput, 'at'> & { at?: SourcePosition }): Problem => {
    const target = input.pointer ?? pointer;
    const at = input.at ?? document.positionOf(target);
    return makeProblem({ ...input, pointer: target, at, document: document.index });
  };
  const params = error.params as Record<string, unknown>;
  const parent = error.parentSchema as Record<string, unknown> | undefined;
  switch (error.keyword) {
    case 'additionalProperties': {
      const attribute = String(params.additionalProperty);
      const target = `${pointer}${encodePointer([attribute])}`;
      const domain = domainOfKind(kind);
      const view: ViewDomain | undefined = domain === undefined ? undefined : VIEW_DOMAINS[domain];
      if (view !== undefined && pointer === '/filters' && view.responseOnlyFilters?.includes(attribute) === true) {
        return problem({
          code: 'schema.response-only',
          message: `"${attribute}" appears in ${view.label} responses only; the service refuses it in a ${view.label}`,
          pointer: target,
          hint: 'remove it',
          at: document.keyPositionOf(target),
        });
      }
      const allowed = Object.keys((parent?.properties as Record<string, unknown> | undefined) ?? {});
      return problem({
        code: 'schema.unknown-attribute',
        message: `unknown attribute "${attribute}"`,
        pointer: target,
        hint: didYouMean(attribute, allowed),
        at: document.keyPositionOf(target),
      });
    }
    case 'required': {
      const missing = String(params.missingProperty);
      const conditional = error.schemaPath.includes('/then/') ? ' (required when field is Insight)' : '';
      return problem({
        code: 'schema.required',
        message: `missing required attribute "${missing}"${conditional}`,
        pointer: `${pointer}${encodePointer([missing])}`,
        at: document.positionOf(pointer),
      });
    }
    case 'discriminator': {
      const tag = String(params.tag);
      const values = discriminatorValues(parent);
      const value = (error.data as Record<string, unknown> | undefined)?.[tag];
      const target = `${pointer}${encodePointer([tag])}`;
      if (value === undefined) {
        return problem({
          code: 'schema.required',
          message: `missing required attribute "${tag}" (one of ${values.join(', ')})`,
          pointer: target,
          at: document.positionOf(pointer),
        });
      }
      return problem({
        code: typeof value === 'string' ? 'schema.enum' : 'schema.type',
        message: `"${tag}" is ${show(value)}; expected one of ${values.join(', ')}`,
        pointer: target,
        hint: typeof value === 'string' ? didYouMean(value, values) : undefined,
      });
    }
    case 'type': {
      const expected = ([] as unknown[]).concat(params.type).flatMap((type) => String(type).split(','));
      return problem({
        code: 'schema.type',
        message: `${name} must be ${expected.map(article).join(' or ')}; got ${article(jsonType(error.data))}`,
        // YAML 1.2 reads yes/no/on/off as text, unlike YAML 1.1 tools.
        hint: expected.includes('boolean') && isYaml11Boolean(error.data) ? YAML_11_BOOLEAN_HINT : undefined,
      });
    }
    case 'enum':
    case 'const': {
      const allowed = (error.keyword === 'enum' ? (params.allowedValues as unknown[]) : [params.allowedValue]).map(
        String,
      );
      // `prune` takes true, false or owned: yes/no there is the YAML 1.1 habit, as for booleans.
      const hint =
        allowed.includes('true') && isYaml11Boolean(error.data)
          ? YAML_11_BOOLEAN_HINT
          : typeof error.data === 'string'
            ? didYouMean(error.data, allowed)
            : undefined;
      return problem({
        code: 'schema.enum',
        message: `${name} is ${show(error.data)}; expected ${allowed.length === 1 ? '' : 'one of '}${allowed.join(', ')}`,
        hint,
      });
    }
    case 'format': {
      if (params.format === 'date' || params.format === 'date-time') {
        const shaped =
          typeof error.data === 'string' &&
          /^\d{4}-\d{2}-\d{2}([Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}(:?\d{2})?))?$/.test(error.data);
        return problem({
          code: 'date.invalid',
          message: shaped
            ? `${show(error.data)} is not a date on the calendar`
            : `${show(error.data)} is not an ISO date (YYYY-MM-DD, or a date-time with seconds and an offset such as 2026-01-31T09:00:00Z)`,
        });
      }
      const email = params.format === 'email';
      return problem({
        code: email ? 'email.invalid' : 'schema.format',
        message: email
          ? `${show(error.data)} is not a valid email address`
          : `${name} must be a valid ${String(params.format)}`,
      });
    }
    case 'pattern': {
      const title = parent?.title;
      const detail =
        title === 'PascalCaseField'
          ? 'a PascalCase field name such as "CreatedAt"'
          : title === 'ViewName'
            ? 'a name with at least one visible character (the service refuses blank names)'
            : `text matching ${String(params.pattern)}`;
      return problem({ code: 'schema.pattern', message: `${name} must be ${detail}; got ${show(error.data)}` });
    }
    case 'minItems':
      return problem({
        code: 'schema.min-items',
        message: `${name} must list at least ${String(params.limit)} ${Number(params.limit) === 1 ? 'entry' : 'entries'}`,
      });
    case 'minLength':
      return problem({ code: 'schema.min-length', message: `${name} must not be empty` });
    case 'minProperties': {
      const options = Object.keys((parent?.properties as Record<string, unknown> | undefined) ?? {});
      return problem({
        code: 'schema.min-properties',
        message: `${name} must set at least one of ${options.join(', ')}`,
      });
    }
    case 'minimum':
      return problem({
        code: 'schema.minimum',
        message: `${name} must be at least ${String(params.limit)}; got ${show(error.data)}`,
      });
    default:
      return problem({
        code: `schema.${error.keyword.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`,
        message: `${name} ${error.message ?? 'is invalid'}`,
      });
  }
}

/** YAML_11_BOOLEAN_HINT answers yes/no/on/off written where the schema wants true or false. */
const YAML_11_BOOLEAN_HINT = 'write true or false (YAML 1.2 reads yes/no/on/off as text)';

/** isYaml11Boolean tells text that YAML 1.1 tools read as a boolean and YAML 1.2 reads as text. */
function isYaml11Boolean(data: unknown): boolean {
  return typeof data === 'string' && /^(yes|no|on|off|y|n)$/i.test(data);
}

/** attributeName names the value at a pointer for messages: `"sourceIn"[0]`-like text. */
function attributeName(pointer: string): string {
  const segments = decodePointer(pointer);
  const last = segments[segments.length - 1];
  if (last === undefined) return 'the document';
  if (/^\d+$/.test(last)) {
    const owner = segments[segments.length - 2];
    return owner === undefined ? `entry ${last}` : `"${owner}" entry ${last}`;
  }
  return `"${last}"`;
}

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function article(type: string): string {
  const words: Record<string, string> = {
    null: 'null',
    array: 'a list',
    object: 'a mapping',
    integer: 'an integer',
    number: 'a number',
    string: 'a string',
    boolean: 'a boolean',
  };
  return words[type] ?? type;
}

function show(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
