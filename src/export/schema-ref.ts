import { posix } from 'node:path';
import { KIND_SCHEMAS } from '../manifest/schema-registry.js';

/**
 * Where exported files point editors for their JSON Schemas: a copy of the schemas
 * that export writes into the manifests folder itself, in a hidden folder the loader
 * skips. A relative path resolves in any editor, offline, wherever the folder is
 * cloned, and always matches the viewctl version that exported it.
 */

/** SCHEMAS_FOLDER is the hidden folder, relative to the manifests folder, that holds the copy. */
export const SCHEMAS_FOLDER = '.viewctl/schemas';

/**
 * schemaModeline is the first line of an exported file (without the `#`): the
 * yaml-language-server directive naming the schema of `manifestKind` for the file at
 * `filePath` (relative to the manifests folder, POSIX separators).
 */
export function schemaModeline(manifestKind: string, filePath: string): string {
  const schemaFile = KIND_SCHEMAS[manifestKind];
  if (schemaFile === undefined) throw new Error(`no schema for kind ${manifestKind}`);
  const depth = posix.dirname(filePath) === '.' ? 0 : posix.dirname(filePath).split('/').length;
  return `yaml-language-server: $schema=${'../'.repeat(depth)}${SCHEMAS_FOLDER}/${schemaFile}`;
}

/** schemaCopies turns the package's schema texts (file name to JSON text) into export files under SCHEMAS_FOLDER. */
export function schemaCopies(schemas: ReadonlyMap<string, string>): Map<string, string> {
  return new Map([...schemas].map(([file, text]) => [`${SCHEMAS_FOLDER}/${file}`, text]));
}
