import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import type { AnySchemaObject, CodeOptions, ValidateFunction } from 'ajv';
import type addFormatsModule from 'ajv-formats';
import { DOMAINS, VIEW_DOMAINS, type Domain } from '../domain/domains.js';
import { isJsonObject } from '../domain/api-types.js';

// Ajv and its formats are loaded on first use, not with this module: a run that has
// the validators compiled at build (below) never needs them, and they are most of
// the code a validate run would otherwise load.
const require = createRequire(import.meta.url);

/**
 * SCHEMA_BASE is the key prefix each schema file is registered under in ajv, so that
 * their relative `$ref`s (`common.schema.json#/$defs/...`) resolve between them. The
 * files carry no `$id`: an editor resolves the same references against the files'
 * own location, and no URL is named that does not serve them.
 */
export const SCHEMA_BASE = 'https://viewctl.invalid/schemas/';

/** KIND_SCHEMAS maps each manifest kind to its schema file; the view kinds' come from `VIEW_DOMAINS`. */
export const KIND_SCHEMAS: Readonly<Record<string, string>> = {
  Workspace: 'workspace.schema.json',
  ...Object.fromEntries(DOMAINS.map((domain) => [VIEW_DOMAINS[domain].kind, VIEW_DOMAINS[domain].schema])),
  PinnedViews: 'pinned-views.schema.json',
  AdminAutomations: 'admin-automations.schema.json',
};

/** MANIFEST_KINDS lists every valid `kind`, in the order the reference documents them. */
export const MANIFEST_KINDS: readonly string[] = Object.keys(KIND_SCHEMAS);

/** schemaDirectory is the package's `schemas/` folder; the same path works from `src/` and `dist/`. */
export function schemaDirectory(): URL {
  return new URL('../../schemas/', import.meta.url);
}

/** schemaTexts reads every `*.schema.json` of the package as text, keyed by file name, for copying. */
export function schemaTexts(): Map<string, string> {
  const directory = schemaDirectory();
  const files = readdirSync(directory)
    .filter((name) => name.endsWith('.schema.json'))
    .sort();
  return new Map(files.map((file) => [file, readFileSync(new URL(file, directory), 'utf8')]));
}

/** loadSchemaFiles reads every `*.schema.json` of the package, parsed, keyed by file name. */
export function loadSchemaFiles(): Map<string, AnySchemaObject> {
  return new Map([...schemaTexts()].map(([file, text]) => [file, JSON.parse(text) as AnySchemaObject]));
}

let cached: Ajv2020 | undefined;
let tagValues: Map<string, string[]> | undefined;

/**
 * schemaRegistry returns the one Ajv instance holding every schema, built on first
 * use. `verbose` keeps the failing schema on each error: the problem mapper reads
 * allowed names from it for "did you mean".
 */
export function schemaRegistry(): Ajv2020 {
  cached ??= newRegistry();
  return cached;
}

/**
 * newRegistry builds an Ajv instance holding every schema; `code` is passed to Ajv
 * as is (kind-validators.ts asks for the validators' source code with it).
 */
export function newRegistry(code?: CodeOptions): Ajv2020 {
  const { Ajv2020: Ajv } = require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
  const addFormats = (require('ajv-formats') as typeof addFormatsModule).default;
  const ajv = new Ajv({
    strict: true,
    allErrors: true,
    verbose: true,
    discriminator: true,
    // `icon` is `string | null`; a union type is the plainest way to say it.
    allowUnionTypes: true,
    ...(code === undefined ? {} : { code }),
  });
  // Full mode checks that a date or date-time exists (day of month, hour, minute), as
  // the service does; fast mode checks only the shape.
  addFormats(ajv, { mode: 'full' });
  for (const [file, schema] of loadSchemaFiles()) ajv.addSchema(schema, SCHEMA_BASE + file);
  return ajv;
}

/** compiledFor is the validator of a schema by reference; Ajv compiles it once and keeps it. */
function compiledFor(ref: string): ValidateFunction {
  const validate = schemaRegistry().getSchema(ref);
  if (validate === undefined) throw new Error(`schema not found: ${ref}`);
  return validate;
}

/**
 * KIND_VALIDATORS_FILE is the module `npm run build` writes next to this one
 * (build-kind-validators.ts): the validator of each manifest kind, compiled to code,
 * and the digest of the schemas it was compiled from.
 */
export const KIND_VALIDATORS_FILE = 'kind-validators.cjs';

/** schemasDigest is the SHA-256 of every schema file, names and texts, in name order. */
export function schemasDigest(texts: Map<string, string> = schemaTexts()): string {
  const hash = createHash('sha256');
  for (const [file, text] of texts) hash.update(`${file}\0${text}\0`);
  return hash.digest('hex');
}

let precompiled: Record<string, ValidateFunction> | null | undefined;

/**
 * precompiledValidators returns the kinds' validators the build compiled, or
 * undefined when there are none (run from the TypeScript sources, as the tests are)
 * or they were compiled from other schemas than those beside them (edited since):
 * then the schemas are compiled at run time, so a check never uses stale rules.
 */
function precompiledValidators(): Record<string, ValidateFunction> | undefined {
  if (precompiled === undefined) {
    const url = new URL(KIND_VALIDATORS_FILE, import.meta.url);
    const module = existsSync(url) ? (require(`./${KIND_VALIDATORS_FILE}`) as Record<string, unknown>) : undefined;
    precompiled =
      module !== undefined && module.schemasDigest === schemasDigest()
        ? (module as Record<string, ValidateFunction>)
        : null;
  }
  return precompiled ?? undefined;
}

/**
 * validatorFor returns the validator of a manifest kind, or undefined for an unknown
 * kind: the one the build compiled (kind-validators.ts) when there is one, so that a
 * run does not compile schemas at start-up, else one compiled now.
 */
export function validatorFor(kind: string): ValidateFunction | undefined {
  const file = Object.hasOwn(KIND_SCHEMAS, kind) ? KIND_SCHEMAS[kind] : undefined;
  if (file === undefined) return undefined;
  return precompiledValidators()?.[kind] ?? compiledFor(SCHEMA_BASE + file);
}

/** manifestValidator validates any manifest document, dispatching on `kind`. */
export function manifestValidator(): ValidateFunction {
  return compiledFor(`${SCHEMA_BASE}manifest.schema.json`);
}

/**
 * viewAttributeValidator validates a request-body attribute of a view domain against
 * `<kind>.schema.json#/$defs/<attribute>`: the manifests' shape of it (tests hold the
 * emulator's own rules against it).
 */
export function viewAttributeValidator(domain: Domain, attribute: 'columns' | 'filters' | 'sort'): ValidateFunction {
  return compiledFor(`${SCHEMA_BASE}${VIEW_DOMAINS[domain].schema}#/$defs/${attribute}`);
}

/** resolveLocalRef finds the schema a `$ref` names, relative to the file that holds it, and the file it is in. */
export function resolveLocalRef(
  ref: string,
  file: string,
  files: ReadonlyMap<string, unknown>,
): { node: Record<string, unknown>; file: string } | undefined {
  const [target = '', fragment = ''] = ref.split('#');
  const owner = target === '' ? file : target;
  let node: unknown = files.get(owner);
  for (const segment of fragment.split('/').filter((part) => part !== '')) {
    node = isJsonObject(node) ? node[segment] : undefined;
  }
  return isJsonObject(node) ? { node, file: owner } : undefined;
}

function collectTagValues(
  node: unknown,
  file: string,
  files: Map<string, AnySchemaObject>,
  into: Map<string, string[]>,
): void {
  if (Array.isArray(node)) {
    for (const item of node) collectTagValues(item, file, files, into);
    return;
  }
  if (!isJsonObject(node)) return;
  const discriminator = node.discriminator;
  const branches = node.oneOf;
  if (isJsonObject(discriminator) && typeof discriminator.propertyName === 'string' && Array.isArray(branches)) {
    const tag = discriminator.propertyName;
    const values = branches.flatMap((branch: unknown) => {
      const ref = isJsonObject(branch) ? branch.$ref : undefined;
      const target = typeof ref === 'string' ? resolveLocalRef(ref, file, files)?.node : branch;
      const properties = isJsonObject(target) ? target.properties : undefined;
      const property = isJsonObject(properties) ? properties[tag] : undefined;
      if (!isJsonObject(property)) return [];
      if (typeof property.const === 'string') return [property.const];
      return Array.isArray(property.enum) ? property.enum.filter((value) => typeof value === 'string') : [];
    });
    into.set(JSON.stringify(branches), values);
  }
  for (const child of Object.values(node)) collectTagValues(child, file, files, into);
}

/**
 * discriminatorValues returns the allowed values of the tag of a schema that has a
 * `discriminator` (e.g. `User`, `Me` for an author filter), read from its branches.
 */
export function discriminatorValues(schema: unknown): string[] {
  if (tagValues === undefined) {
    const files = loadSchemaFiles();
    tagValues = new Map();
    for (const [file, content] of files) collectTagValues(content, file, files, tagValues);
  }
  return isJsonObject(schema) ? (tagValues.get(JSON.stringify(schema.oneOf)) ?? []) : [];
}
