import { isAbsolute, relative, sep } from 'node:path';
import { walkFinds, type ManifestSource } from './source.js';

/**
 * overlaySource is `source` with `after` (display path → text) in place of, or beside,
 * the files on disk: the manifests as a command would leave them, loaded and checked
 * before anything is written (`viewctl rename`, `viewctl pull`).
 */
export function overlaySource(source: ManifestSource, after: ReadonlyMap<string, string>): ManifestSource {
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
