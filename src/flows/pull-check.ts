import { overlaySource } from '../manifest/overlay-source.js';
import { ViewctlError } from '../errors.js';
import { formatProblems } from '../manifest/format-problems.js';
import { loadManifests } from '../manifest/load.js';
import type { ManifestSource } from '../manifest/source.js';

/**
 * checkPulledManifests loads the manifests under `paths` as `viewctl pull` would leave
 * them (`after`: display path → text, the spliced files and the new ones, in place of
 * or beside the disk's) and refuses, before anything is written, when any has an
 * error: `pull.invalid-result`, naming the files and the problems.
 */
export async function checkPulledManifests(
  paths: readonly string[],
  source: ManifestSource,
  after: ReadonlyMap<string, string>,
): Promise<void> {
  if (after.size === 0) return;
  const loaded = await loadManifests(paths, overlaySource(source, after));
  const errors = loaded.problems.filter((problem) => problem.severity === 'error');
  if (errors.length === 0) return;
  const files = [...new Set(errors.map((problem) => problem.file))];
  throw new ViewctlError(
    'pull.invalid-result',
    `pulling would make ${files.join(', ')} invalid, so nothing was written:\n${formatProblems(errors, { color: false })}`,
    {
      hint: 'edit these manifests by hand, or pull the other targets with --target',
    },
  );
}
