import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';

/** PathInfo is what a manifest source knows about a path before reading it. */
export type PathInfo = { type: 'file'; size: number } | { type: 'directory' };

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
  /** list returns every `*.yaml` / `*.yml` file below a directory, recursively, sorted. */
  list(directory: string): Promise<string[]>;
  /** read returns the bytes of a file, or only its size when that is over `maxBytes`. */
  read(path: string, maxBytes: number): Promise<ReadResult>;
  /** display is the path relative to the working directory, with `/` separators. */
  display(path: string): string;
}

/** isManifestFile tells whether a file name has a manifest extension. */
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
  async function walk(directory: string, into: string[], seen: Set<string>): Promise<void> {
    const real = await realpath(directory);
    if (seen.has(real)) return;
    seen.add(real);
    const entries = await readdir(directory, { withFileTypes: true });
    for (const entry of entries) {
      const path = join(directory, entry.name);
      const kind = entry.isSymbolicLink() ? await linkTarget(path) : entry.isDirectory() ? 'directory' : entry.isFile() ? 'file' : 'other';
      if (kind === 'directory' && !isSkippedDirectory(entry.name)) await walk(path, into, seen);
      else if (kind === 'file' && isManifestFile(entry.name)) into.push(path);
    }
  }
  return {
    async stat(path) {
      try {
        const info = await stat(absolute(path));
        if (info.isDirectory()) return { type: 'directory' };
        return info.isFile() ? { type: 'file', size: info.size } : undefined;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
    },
    async list(directory) {
      const files: string[] = [];
      await walk(absolute(directory), files, new Set());
      return files.map(display).sort();
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

/** linkTarget tells what a symbolic link points at; a dangling link is 'other' (skipped). */
async function linkTarget(path: string): Promise<'file' | 'directory' | 'other'> {
  try {
    const info = await stat(path);
    return info.isDirectory() ? 'directory' : info.isFile() ? 'file' : 'other';
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'other';
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
  const isUnder = (file: string, directory: string): boolean => directory === '.' || file.startsWith(`${directory}/`);
  const visible = (file: string, directory: string): boolean => {
    const below = directory === '.' ? file : file.slice(directory.length + 1);
    const folders = below.split('/').slice(0, -1);
    return !folders.some(isSkippedDirectory);
  };
  return {
    async stat(path) {
      const key = normalise(path);
      const content = bytes.get(key);
      if (content !== undefined) return { type: 'file', size: content.byteLength };
      return [...bytes.keys()].some((file) => isUnder(file, key)) ? { type: 'directory' } : undefined;
    },
    async list(directory) {
      const key = normalise(directory);
      return [...bytes.keys()]
        .filter((file) => isUnder(file, key) && visible(file, key) && isManifestFile(file))
        .sort();
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
