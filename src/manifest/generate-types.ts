/**
 * Development script (`npm run schemas:types`): writes what follows from `schemas/`,
 * so the shapes are maintained once: the TypeScript types of the manifests and the
 * reference `schemas/README.md`. Runtime code never imports this file:
 * json-schema-to-typescript is a dev dependency.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { compile } from 'json-schema-to-typescript';
import type { JSONSchema4 } from 'json-schema';
import { isJsonObject, type JsonObject, type JsonValue } from '../domain/api-types.js';
import { loadSchemaFiles, schemaDirectory } from './schema-registry.js';
import { renderSchemaReference } from './schema-reference.js';

export const REFERENCE_FILE = new URL('README.md', schemaDirectory());

/** GENERATED_TYPES_FILE is where the generated types are committed. */
export const GENERATED_TYPES_FILE = new URL('./generated/manifest-types.ts', import.meta.url);

const BANNER = `/**
 * Generated from schemas/*.schema.json by \`npm run schemas:types\`. Do not edit:
 * change the schema and regenerate (a test fails when this file is out of date).
 */`;

function stem(file: string): string {
  return file.replace(/\.schema\.json$/, '');
}

/** Keywords that only validate: they carry no type information and would confuse the generator. */
const VALIDATION_ONLY = new Set(['discriminator', 'if', 'then']);

/**
 * bundleRef maps a `$ref` of one schema file to the bundle's `$defs`:
 * `#/$defs/x` → `<file>.x`, `other.schema.json#/$defs/x` → `other.x`,
 * `other.schema.json` → `other`.
 */
function bundleRef(ref: string, file: string): string {
  const [target = '', fragment = ''] = ref.split('#');
  const owner = target === '' ? stem(file) : stem(target);
  const name = fragment.replace(/^\/\$defs\//, '');
  return name === '' ? owner : `${owner}.${name}`;
}

/**
 * rewriteRefs points every `$ref` at the bundle's `$defs`. A `$ref` with sibling
 * keywords (a description) becomes `tsType: <Title>`, because the generator would
 * otherwise declare a numbered copy of the referenced type for each one.
 */
function rewriteRefs(value: JsonValue, file: string, titles: Map<string, string>, inProperties = false): JsonValue {
  if (Array.isArray(value)) return value.map((item) => rewriteRefs(item, file, titles));
  if (value === null || typeof value !== 'object') return value;
  const result: JsonObject = {};
  const ref = value.$ref;
  if (typeof ref === 'string' && !inProperties) {
    const key = bundleRef(ref, file);
    const title = titles.get(key);
    const siblings = Object.keys(value).filter((name) => name !== '$ref');
    if (siblings.length > 0 && title !== undefined) result.tsType = title;
    else result.$ref = `#/$defs/${key}`;
  }
  for (const [key, child] of Object.entries(value)) {
    if (!inProperties && (key === '$ref' || VALIDATION_ONLY.has(key))) continue;
    result[key] = rewriteRefs(child, file, titles, !inProperties && key === 'properties');
  }
  return result;
}

/** bundleSchemas folds every schema file into one schema whose `$defs` hold them all. */
function bundleSchemas(files: Map<string, JsonValue>): JSONSchema4 {
  const entries: [string, string, JsonValue][] = [];
  for (const [file, schema] of files) {
    if (!isJsonObject(schema)) continue;
    const { $defs, $id: _id, $schema: _schema, ...root } = schema;
    const fileDefs = isJsonObject($defs) ? Object.entries($defs) : [];
    for (const [name, def] of fileDefs) entries.push([file, `${stem(file)}.${name}`, def]);
    if (file !== 'common.schema.json') entries.push([file, stem(file), root]);
  }
  const titles = new Map<string, string>();
  for (const [, key, def] of entries) {
    if (isJsonObject(def) && typeof def.title === 'string') titles.set(key, def.title);
  }
  const defs: JsonObject = {};
  for (const [file, key, def] of entries) defs[key] = rewriteRefs(def, file, titles);
  const manifest = defs.manifest;
  delete defs.manifest;
  return { ...(manifest as JSONSchema4), $id: 'manifest', $defs: defs } as JSONSchema4;
}

/** generateManifestTypes returns the text of `generated/manifest-types.ts`. */
export async function generateManifestTypes(): Promise<string> {
  const bundle = bundleSchemas(loadSchemaFiles() as Map<string, JsonValue>);
  return compile(bundle, 'AnyManifest', {
    bannerComment: BANNER,
    additionalProperties: false,
    unreachableDefinitions: true,
    declareExternallyReferenced: true,
    strictIndexSignatures: true,
    format: true,
    style: { singleQuote: true, printWidth: 110 },
  });
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  writeFileSync(GENERATED_TYPES_FILE, await generateManifestTypes());
  writeFileSync(REFERENCE_FILE, renderSchemaReference(loadSchemaFiles()));
  process.stdout.write(`wrote ${fileURLToPath(GENERATED_TYPES_FILE)} and ${fileURLToPath(REFERENCE_FILE)}\n`);
}
