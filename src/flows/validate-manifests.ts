import { loadManifests } from '../manifest/load.js';
import { hasErrors } from '../manifest/problems.js';
import { nodeManifestSource, type ManifestSource } from '../manifest/source.js';
import type { Problem } from '../manifest/types.js';

/** Validation is what `viewctl validate` found: every problem, how many documents and files it read, and whether any is an error. */
export interface Validation {
  problems: Problem[];
  documents: number;
  files: number;
  valid: boolean;
}

/**
 * validateManifests is `viewctl validate`: the schema and semantic checks of the
 * manifests under `paths`, offline (it never contacts the service). `files` is where
 * they are read: the working directory (the filesystem), or a ManifestSource (a
 * test's files in memory). It never stops at the first problem: every one is answered.
 */
export async function validateManifests(paths: readonly string[], files: string | ManifestSource): Promise<Validation> {
  const result = await loadManifests(paths, typeof files === 'string' ? nodeManifestSource(files) : files);
  return {
    problems: result.problems,
    documents: result.documents.length,
    files: result.files.length,
    valid: !hasErrors(result.problems),
  };
}
