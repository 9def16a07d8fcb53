import { isAbsolute, relative, sep } from 'node:path';
import { ViewctlError } from '../errors.js';
import { formatProblems } from '../manifest/format-problems.js';
import { loadManifests } from '../manifest/load.js';
import { walkFinds, type ManifestSource } from '../manifest/source.js';

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

/** overlaySource is `source` with `after` (display path → text) in place of, or beside, the files on disk. */
function overlaySource(source: ManifestSource, after: ReadonlyMap<string, string>): ManifestSource {
  const shown = (path: string): string => source.display(path);
  return {
    display: shown,
    async stat(path) {
      const text = after.get(shown(path));
      return text === undefined ? source.stat(path) : { type: 'file', size: Buffer.byteLength(text) };
    },
    async list(directory) {
      const listing = await source.list(directory);
      const folder = shown(directory);
      const extra = [...after.keys()].filter((file) => !listing.files.includes(file) && walkFindsShown(file, folder));
      return { ...listing, files: [...listing.files, ...extra].sort() };
    },
    async read(path, maxBytes) {
      const text = after.get(shown(path));
      return text === undefined ? source.read(path, maxBytes) : { bytes: new TextEncoder().encode(text) };
    },
  };
}

/**
 * walkFindsShown is `walkFinds` for display paths, which may climb above the working
 * directory (`../views/a.yaml`): the walk's rule applies to the path from `folder`.
 */
function walkFindsShown(file: string, folder: string): boolean {
  const below = relative(folder, file);
  return !isAbsolute(below) && walkFinds(below.split(sep).join('/'), '.');
}
