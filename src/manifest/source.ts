import type { Stats } from 'node:fs';
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { readdir, readlink, realpath, stat } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { compareCodePoints } from '../kinds/canonical.js';

/**
 * PathInfo is what a manifest source knows about a path before reading it. `other` is
 * anything but a regular file or a folder (a device such as /dev/null, a FIFO, a
 * socket): reading one could block or yield nothing, so it is reported, never read.
 */
export type PathInfo = { type: 'file'; size: number } | { type: 'directory' } | { type: 'other'; what: string };

/**
 * SkippedEntry is a `*.yaml` / `*.yml` entry a folder walk could not read as a
 * manifest: a symbolic link whose target does not exist (`detail` is the target as
 * written in the link), or something that is not a regular file (`detail` says what).
 * The loader reports each: a manifest left out silently would make prune delete its views.
 */
export interface SkippedEntry {
  path: string;
  reason: 'dangling-link' | 'not-regular';
  detail: string;
}

/** Listing is what a folder walk found: manifest files, sorted, and entries it could not read. */
export interface Listing {
  files: string[];
  skipped: SkippedEntry[];
}

/** ReadResult is a file's bytes, or its size when it is over the limit (then it is not read). */
export type ReadResult = { bytes: Uint8Array } | { tooLarge: number };

/**
 * ManifestSource is the file access the loader needs, passed in: tests
 * pass in-memory files, the CLI passes `nodeManifestSource(cwd)`. Paths are as the
 * user gave them; `display` turns one into the form problems report.
 */
export interface ManifestSource {
  /** stat describes a path, or returns undefined when nothing is there. */
  stat(path: string): Promise<PathInfo | undefined>;
  /** list returns every `*.yaml` / `*.yml` file below a directory, recursively, sorted, and the ones it could not read. */
  list(directory: string): Promise<Listing>;
  /** read returns the bytes of a file, or only its size when that is over `maxBytes`. */
  read(path: string, maxBytes: number): Promise<ReadResult>;
  /** display is the path relative to the working directory, with `/` separators. */
  display(path: string): string;
}

export function isManifestFile(name: string): boolean {
  return name.endsWith('.yaml') || name.endsWith('.yml');
}

/**
 * isSkippedDirectory tells whether a folder walk skips a directory: hidden folders
 * (`.git`, `.github` with its workflow YAML) and `node_modules` never hold manifests.
 * A file named explicitly is always read.
 */
export function isSkippedDirectory(name: string): boolean {
  return name.startsWith('.') || name === 'node_modules';
}

/** isBelow tells whether `file` lies below `folder`, both relative and `/`-separated (`.` is the top). */
export function isBelow(file: string, folder: string): boolean {
  return folder === '.' || file.startsWith(`${folder}/`);
}

/**
 * walkFinds tells whether a folder walk from `folder` finds `file`: a manifest below
 * it that no skipped directory hides. The sources that know their files up front list with it.
 */
export function walkFinds(file: string, folder: string): boolean {
  const below = folder === '.' ? file : file.slice(folder.length + 1);
  return isBelow(file, folder) && isManifestFile(file) && !below.split('/').slice(0, -1).some(isSkippedDirectory);
}

/** nodeManifestSource reads manifests from the real filesystem, relative to `cwd`. */
export function nodeManifestSource(cwd: string): ManifestSource {
  const absolute = (path: string): string => (isAbsolute(path) ? path : resolve(cwd, path));
  const display = (path: string): string => {
    const rel = relative(cwd, absolute(path));
    return (rel === '' ? '.' : rel).split(sep).join('/');
  };
  /**
   * walk collects manifest files below a folder. Symbolic links are followed, since a
   * manifest shared by link must count (left out, prune would delete its view); each
   * folder is entered once by its real path, so a link cycle cannot hang the walk.
   */
  async function walk(directory: string, shown: string, into: Listing, seen: Set<string>): Promise<void> {
    const real = await realpath(directory);
    if (seen.has(real)) return;
    seen.add(real);
    const entries = await readdir(directory, { withFileTypes: true });
    // Below the working directory, an entry displays as its folder's display plus its
    // name: thousands of files then cost no path resolution each. A walk above it
    // (`..`) may come back through it, where only display() gets the form right.
    const below = shown === '.' || !(shown === '..' || shown.startsWith('../'));
    for (const entry of entries) {
      const path = join(directory, entry.name);
      const shownPath = !below ? display(path) : shown === '.' ? entry.name : `${shown}/${entry.name}`;
      const info = entry.isSymbolicLink()
        ? await statPath(path)
        : entry.isDirectory()
          ? DIRECTORY
          : entry.isFile()
            ? FILE
            : { type: 'other' as const, what: describeEntry(entry) };
      if (info === undefined) {
        if (isManifestFile(entry.name))
          into.skipped.push({ path: shownPath, reason: 'dangling-link', detail: await readlink(path) });
      } else if (info.type === 'directory') {
        if (!isSkippedDirectory(entry.name)) await walk(path, shownPath, into, seen);
      } else if (isManifestFile(entry.name)) {
        if (info.type === 'file') into.files.push(shownPath);
        else into.skipped.push({ path: shownPath, reason: 'not-regular', detail: info.what });
      }
    }
  }
  return {
    async stat(path) {
      return statPath(absolute(path));
    },
    async list(directory) {
      const listing: Listing = { files: [], skipped: [] };
      await walk(absolute(directory), display(directory), listing, new Set());
      listing.files.sort();
      listing.skipped.sort((a, b) => compareCodePoints(a.path, b.path));
      return listing;
    },
    async read(path, maxBytes) {
      return readBounded(absolute(path), maxBytes);
    },
    display,
  };
}

/**
 * readBounded reads a whole file through one descriptor: its size from the open file
 * (no separate stat round trip), and nothing more when it is over `maxBytes`. It is
 * synchronous on purpose: thousands of small manifests read one by one through the
 * promise API spend most of their time waiting on the event loop, not on the disk.
 */
function readBounded(path: string, maxBytes: number): ReadResult {
  const fd = openSync(path, 'r');
  try {
    const { size } = fstatSync(fd);
    if (size > maxBytes) return { tooLarge: size };
    const bytes = Buffer.allocUnsafe(size);
    let filled = 0;
    while (filled < size) {
      const read = readSync(fd, bytes, filled, size - filled, null);
      if (read === 0) break;
      filled += read;
    }
    return { bytes: filled === size ? bytes : bytes.subarray(0, filled) };
  } finally {
    closeSync(fd);
  }
}

const DIRECTORY = { type: 'directory' } as const;
const FILE = { type: 'file', size: 0 } as const;

function pathInfo(info: Stats): PathInfo {
  if (info.isDirectory()) return DIRECTORY;
  if (info.isFile()) return { type: 'file', size: info.size };
  return { type: 'other', what: describeEntry(info) };
}

/** describeEntry names what a path that is neither a regular file nor a folder is. */
function describeEntry(entry: Pick<Stats, 'isCharacterDevice' | 'isBlockDevice' | 'isFIFO' | 'isSocket'>): string {
  if (entry.isCharacterDevice()) return 'a character device';
  if (entry.isBlockDevice()) return 'a block device';
  if (entry.isFIFO()) return 'a named pipe (FIFO)';
  if (entry.isSocket()) return 'a socket';
  return 'not a regular file';
}

/** statPath tells what is at a path (following links); undefined when nothing is there, or a link's target is not. */
async function statPath(path: string): Promise<PathInfo | undefined> {
  try {
    return pathInfo(await stat(path));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * memoryManifestSource serves files from a map of `/`-separated relative paths to
 * contents (text is stored as UTF-8). Tests and benches use it.
 */
export function memoryManifestSource(files: Record<string, string | Uint8Array>): ManifestSource {
  const bytes = new Map<string, Uint8Array>();
  for (const [path, content] of Object.entries(files)) {
    bytes.set(normalise(path), typeof content === 'string' ? new TextEncoder().encode(content) : content);
  }
  return {
    async stat(path) {
      const key = normalise(path);
      const content = bytes.get(key);
      if (content !== undefined) return { type: 'file', size: content.byteLength };
      return [...bytes.keys()].some((file) => isBelow(file, key)) ? { type: 'directory' } : undefined;
    },
    async list(directory) {
      const key = normalise(directory);
      return { files: [...bytes.keys()].filter((file) => walkFinds(file, key)).sort(), skipped: [] };
    },
    async read(path, maxBytes) {
      const content = bytes.get(normalise(path));
      if (content === undefined) throw new Error(`no such file: ${path}`);
      return content.byteLength > maxBytes ? { tooLarge: content.byteLength } : { bytes: content };
    },
    display: normalise,
  };
}

function normalise(path: string): string {
  const parts = path.split('/').filter((part) => part !== '' && part !== '.');
  return parts.length === 0 ? '.' : parts.join('/');
}
