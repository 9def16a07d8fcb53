import { isAbsolute, posix, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { KIND_SCHEMAS, SCHEMA_BASE, schemaDirectory } from '../manifest/schema-registry.js';

/**
 * SchemaLocation says how exported files point editors at their JSON Schema: by a
 * path relative to the output folder (the folder is inside the viewctl project, so
 * the schemas travel with it), or by the schema's `$id` URL otherwise.
 */
export type SchemaLocation =
  /** `schemasFromOut`: the `schemas/` folder, relative to the output folder, POSIX separators. */
  | { kind: 'relative'; schemasFromOut: string }
  | { kind: 'id' };

/**
 * schemaLocationFor decides the location for an output folder: relative when `outDir`
 * lies inside the project holding `schemas/`, else by `$id`.
 */
export function schemaLocationFor(outDir: string, schemasDir: string = fileURLToPath(schemaDirectory())): SchemaLocation {
  const projectRoot = resolve(schemasDir, '..');
  const fromRoot = relative(projectRoot, resolve(outDir));
  const inside = fromRoot === '' || (!fromRoot.startsWith('..') && !isAbsolute(fromRoot));
  if (!inside) return { kind: 'id' };
  const schemasFromOut = relative(resolve(outDir), resolve(schemasDir)).split(sep).join('/');
  return { kind: 'relative', schemasFromOut };
}

/**
 * schemaModeline is the first line of an exported file (without the `#`): the
 * yaml-language-server directive naming the schema of `manifestKind` for the file at
 * `filePath` (relative to the output folder, POSIX separators).
 */
export function schemaModeline(location: SchemaLocation, manifestKind: string, filePath: string): string {
  const schemaFile = KIND_SCHEMAS[manifestKind];
  if (schemaFile === undefined) throw new Error(`no schema for kind ${manifestKind}`);
  if (location.kind === 'id') return `yaml-language-server: $schema=${SCHEMA_BASE}${schemaFile}`;
  const depth = posix.dirname(filePath) === '.' ? 0 : posix.dirname(filePath).split('/').length;
  const target = posix.normalize(`${'../'.repeat(depth)}${location.schemasFromOut}/${schemaFile}`);
  return `yaml-language-server: $schema=${target}`;
}
