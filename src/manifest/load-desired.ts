import type { Desired } from '../domain/desired.js';
import { toDesired } from './desired.js';
import { ManifestInvalidError } from './format-problems.js';
import { loadManifests } from './load.js';
import { hasErrors } from './problems.js';
import type { ManifestSource } from './source.js';
import type { Problem } from './types.js';

/**
 * loadDesired is what plan and apply call first: it loads and checks the manifests,
 * throws ManifestInvalidError when any has an error (so no request is sent), and
 * otherwise returns the Desired state with the warnings to print.
 */
export async function loadDesired(
  paths: readonly string[],
  source: ManifestSource,
): Promise<{ desired: Desired; warnings: Problem[]; documents: number; files: number; read: string[] }> {
  const result = await loadManifests(paths, source);
  if (hasErrors(result.problems)) throw new ManifestInvalidError(result.problems);
  return {
    desired: toDesired(result.documents),
    warnings: result.problems,
    documents: result.documents.length,
    files: result.files.length,
    // The files read, as `source.display` spells them: plan never writes its output over one.
    read: result.files,
  };
}
