import { realpath } from 'node:fs/promises';
import { relative, sep } from 'node:path';
import { git, headCommit } from './git-source.js';

/**
 * Whether the manifest files a run read are the content git tracks at HEAD. `git status`
 * cannot say it alone: it is silent on a file `.gitignore` names and on a committed link
 * whose target outside the repository was edited, and the loader reads both. What no
 * commit holds was never reviewed, so self-heal never repairs towards it and an apply of
 * it never records a commit as applied.
 */

/** UntrackedManifest is a file read that is not the content git tracks at HEAD: the path as read, and why. */
export interface UntrackedManifest {
  file: string;
  why: 'link out of the repository' | 'ignored' | 'untracked' | 'changed';
}

/**
 * untrackedManifests are those of `files` (absolute paths, as the loader read them; `shown`
 * spells each for messages) whose bytes are not a regular file git tracks at HEAD of the
 * repository at `root`: read through a link leading out of it, ignored, untracked, or
 * changed (git's own filters applied, as `git add` would). A link inside the repository
 * to a tracked file reads tracked content and counts as such. Empty when all are tracked;
 * undefined when git cannot answer (no HEAD, git missing).
 */
export async function untrackedManifests(
  root: string,
  files: readonly string[],
  shown: (file: string) => string,
): Promise<UntrackedManifest[] | undefined> {
  try {
    if ((await headCommit(root)) === undefined) return undefined;
    const top = await realpath(root);
    const found: UntrackedManifest[] = [];
    const inside: { file: string; at: string; real: string }[] = [];
    for (const file of files) {
      const real = await realpath(file);
      const at = relative(top, real).split(sep).join('/');
      if (at === '' || at === '..' || at.startsWith('../') || at.startsWith('/'))
        found.push({ file: shown(file), why: 'link out of the repository' });
      else inside.push({ file, at, real });
    }
    if (inside.length === 0) return found;
    const tracked = await blobsAtHead(
      top,
      inside.map((entry) => entry.at),
    );
    const hashed = await hashFiles(
      top,
      inside.map((entry) => entry.at),
    );
    const missing = inside.filter((entry) => tracked.get(entry.at) === undefined);
    const ignored = await ignoredPaths(
      top,
      missing.map((entry) => entry.at),
    );
    inside.forEach((entry, index) => {
      const blob = tracked.get(entry.at);
      if (blob === undefined)
        found.push({ file: shown(entry.file), why: ignored.has(entry.at) ? 'ignored' : 'untracked' });
      else if (blob !== hashed[index]) found.push({ file: shown(entry.file), why: 'changed' });
    });
    return found;
  } catch {
    return undefined;
  }
}

/** untrackedWords says why an untracked manifest is no commit's content, for messages. */
export function untrackedWords(entry: UntrackedManifest): string {
  const why = {
    'link out of the repository': 'read through a link out of the repository',
    ignored: 'git ignores it',
    untracked: 'not committed',
    changed: 'changed since HEAD',
  }[entry.why];
  return `${entry.file} is not a file git tracks at HEAD (${why})`;
}

/** blobsAtHead maps each path (in the repository) that HEAD holds as a regular file to its blob id. */
async function blobsAtHead(root: string, paths: readonly string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const listing = (await git(root, ['ls-tree', '-z', '--full-tree', 'HEAD', '--', ...paths])).toString('utf8');
  for (const record of listing.split('\0')) {
    const match = /^(\d+) blob ([0-9a-f]+)\t(.*)$/s.exec(record);
    // A link (120000) holds a path, not the content read through it.
    if (match !== null && match[1] !== '120000') out.set(match[3] ?? '', match[2] ?? '');
  }
  return out;
}

/** hashFiles are the blob ids git would store for the files at `paths`, with the repository's filters. */
async function hashFiles(root: string, paths: readonly string[]): Promise<string[]> {
  const out = (await git(root, ['hash-object', '--stdin-paths'], `${paths.join('\n')}\n`)).toString('utf8');
  return out.split('\n').filter((line) => line !== '');
}

/** ignoredPaths are those of `paths` the repository's ignore rules name. */
async function ignoredPaths(root: string, paths: readonly string[]): Promise<Set<string>> {
  if (paths.length === 0) return new Set();
  // Exit 1 means none is ignored.
  const out = await git(root, ['check-ignore', '--no-index', '-z', '--stdin'], `${paths.join('\0')}\0`).catch(() =>
    Buffer.from(''),
  );
  return new Set(
    out
      .toString('utf8')
      .split('\0')
      .filter((path) => path !== ''),
  );
}
