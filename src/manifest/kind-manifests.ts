import type { ValidateFunction } from 'ajv';
import type { Desired } from '../domain/desired.js';
import { hasManifests, type ManifestKind } from '../kinds/capabilities.js';
import { kinds } from '../kinds/kinds.js';
import { MANIFEST_KINDS, SCHEMA_BASE, schemaRegistry, validatorFor } from './schema-registry.js';
import type { ManifestDocument } from './types.js';

/**
 * The manifest kinds of registered kinds (`Manifests`, src/kinds/capabilities.ts) beside
 * the built-in ones: a kind that declares documents of its own is validated, named in
 * "expected one of" and turned into its slice of the desired state like a built-in
 * document, with nothing here to extend. The built-in kinds' schemas stay files of
 * schemas/, compiled at build (schema-registry.ts).
 */

/** manifestKindNames are every valid `kind`: the built-in ones, in the order the reference documents them, then the registered kinds'. */
export function manifestKindNames(): readonly string[] {
  const registered = declaredKinds().map((entry) => entry.kind);
  return registered.length === 0 ? MANIFEST_KINDS : [...MANIFEST_KINDS, ...registered];
}

/** documentValidator is the validator of a manifest kind, built-in or registered, or undefined for an unknown kind. */
export function documentValidator(kind: string): ValidateFunction | undefined {
  const builtIn = validatorFor(kind);
  if (builtIn !== undefined) return builtIn;
  const declared = declaredKinds().find((entry) => entry.kind === kind);
  return declared === undefined ? undefined : compiled(declared);
}

/**
 * withSlices adds to `desired` the slice of each registered kind that declares manifest
 * kinds and has documents among `documents`: a kind none of whose documents is loaded
 * gets none, so it plans nothing (as no AdminAutomations document means no drift).
 */
export function withSlices(desired: Desired, documents: readonly ManifestDocument[]): Desired {
  const slices: Record<string, unknown> = {};
  for (const kind of kinds()) {
    if (!hasManifests(kind)) continue;
    const names = new Set(kind.manifests.map((entry) => entry.kind));
    const own = documents.filter((document) => names.has(document.kind));
    if (own.length > 0) slices[kind.slice] = kind.desired(own);
  }
  return Object.keys(slices).length === 0 ? desired : { ...desired, slices };
}

/**
 * registeredSchemaTexts are the JSON Schemas of the registered kinds' manifest kinds, as
 * files to write beside schemas/ (`viewctl schemas --out`): `notes.schema.json` for
 * `Notes`, whose `$ref`s to `common.schema.json` resolve there as a schema file's do.
 */
export function registeredSchemaTexts(): Map<string, string> {
  return new Map(
    declaredKinds().map((entry) => [
      `${kebabCase(entry.kind)}.schema.json`,
      `${JSON.stringify({ $schema: 'https://json-schema.org/draft/2020-12/schema', title: entry.kind, ...entry.schema }, null, 2)}\n`,
    ]),
  );
}

/** kebabCase is a manifest kind as a file name: `RecordingView` is `recording-view`. */
function kebabCase(kind: string): string {
  return kind.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();
}

function declaredKinds(): ManifestKind[] {
  return kinds().flatMap((kind) => (hasManifests(kind) ? kind.manifests : []));
}

const validators = new WeakMap<ManifestKind, ValidateFunction>();

/**
 * compiled is a registered manifest kind's validator, compiled once into the registry
 * that holds schemas/, under an id beside them, so its `$ref`s to
 * `common.schema.json#/$defs/...` resolve as a schema file's do.
 */
function compiled(entry: ManifestKind): ValidateFunction {
  const known = validators.get(entry);
  if (known !== undefined) return known;
  const registry = schemaRegistry();
  const id = `${SCHEMA_BASE}${entry.kind}.registered.schema.json`;
  // A kind registered again (a test's) brings its schema again: the id is its.
  registry.removeSchema(id);
  const validate = registry.compile({ ...entry.schema, $id: id });
  validators.set(entry, validate);
  return validate;
}
