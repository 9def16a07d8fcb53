import { resolve } from 'node:path';
import type { Desired } from '../domain/desired.js';
import { nodeManifestSource } from '../manifest/load.js';
import type { ManifestSource } from '../manifest/source.js';
import { loadDesired } from '../manifest/load-desired.js';
import type { Problem } from '../manifest/types.js';

export type { Problem } from '../manifest/types.js';

/** ManifestSet is what `loadManifestSet` loaded: the desired state, its warnings, and the files it read (absolute paths). */
export interface ManifestSet {
  desired: Desired;
  warnings: Problem[];
  files: string[];
}

/**
 * loadManifestSet loads and validates the manifests under `paths` (the working
 * directory when none), relative to `cwd`, from the filesystem unless `source` says
 * where else (a test's files in memory). Any error stops here (`manifest.invalid`),
 * before the service is contacted; the warnings are answered for the caller to show.
 */
export async function loadManifestSet(
  paths: readonly string[],
  cwd: string,
  source: ManifestSource = nodeManifestSource(cwd),
): Promise<ManifestSet> {
  const { desired, warnings, read } = await loadDesired(paths.length === 0 ? ['.'] : paths, source);
  return { desired, warnings, files: read.map((file) => resolve(cwd, file)) };
}
