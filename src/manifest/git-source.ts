import { execFile, spawn } from 'node:child_process';
import { realpathSync, statSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { UsageError } from '../errors.js';
import { isBelow, walkFinds, type ManifestSource } from './source.js';

/**
 * The manifests as they were at a git commit (`--base REF`), read through the `git`
 * executable's plumbing: `rev-parse` resolves REF, `ls-tree` lists the commit's files
 * and `cat-file --batch` reads them all in one process. The loader reads them through
 * the same ManifestSource interface as files on disk, so REF's manifests are checked by
 * exactly the rules of today's.
 */

/** GitBase is a REF resolved in the repository that holds the manifest paths. */
interface GitBase {
  ref: string;
  commit: string;
  /** The repository's top folder, as git reports it (links resolved). */
  root: string;
}

/**
 * resolveBase resolves `ref` to a commit in the git repository holding the first
 * manifest path (not the working directory's: a pipeline may plan another checkout).
 * No repository, no git, or a REF that names no commit: a usage error, before any
 * request.
 */
export async function resolveBase(ref: string, paths: readonly string[], cwd: string): Promise<GitBase> {
  const folder = folderOf(resolve(cwd, paths[0] ?? '.'));
  let root: string;
  try {
    root = (await git(folder, ['rev-parse', '--show-toplevel'])).toString('utf8').trim();
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
    throw new UsageError(
      'usage.base-no-repository',
      missing
        ? `--base ${ref} needs the git executable, which is not on PATH`
        : `--base ${ref}: ${relative(cwd, folder) || '.'} is not inside a git repository`,
      missing ? 'install git, or plan without --base' : 'plan manifests from a git checkout, or plan without --base',
    );
  }
  const commit = ref.startsWith('-')
    ? ''
    : await git(root, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]).then(
        (out) => out.toString('utf8').trim(),
        () => '',
      );
  if (!/^[0-9a-f]{40,64}$/.test(commit)) {
    throw new UsageError(
      'usage.base-not-a-commit',
      `--base ${ref} names no commit in the repository at ${root}`,
      'pass a branch, tag or commit the checkout has; in CI, fetch the base first (e.g. git fetch origin main, then --base origin/main)',
    );
  }
  return { ref, commit, root };
}

/**
 * ManifestsHead is the commit the manifest paths are checked out at, and whether their
 * files match it (`clean`: no change to a tracked file below them, no untracked one).
 */
export interface ManifestsHead {
  commit: string;
  clean: boolean;
}

/**
 * manifestsHead is the HEAD commit of the git repository holding the first manifest
 * path, and whether the manifests (YAML files) below the paths match it; undefined when a path is
 * not in that git repository (or git is missing). The sweep memory records it as the
 * commit last applied only when clean: uncommitted manifests were never reviewed.
 */
export async function manifestsHead(paths: readonly string[], cwd: string): Promise<ManifestsHead | undefined> {
  const repository = await manifestRepository(paths, cwd);
  if (repository === undefined) return undefined;
  try {
    const commit = await headCommit(repository.root);
    if (commit === undefined) return undefined;
    return { commit, clean: await manifestsClean(repository.root, repository.inRepo) };
  } catch {
    return undefined;
  }
}

/**
 * ManifestRepository is the git repository holding the manifest paths: its top folder
 * and each path as a `/`-separated path in it (`.` for the top).
 */
export interface ManifestRepository {
  root: string;
  inRepo: string[];
}

/**
 * manifestRepository is the repository holding the first manifest path (none given: the
 * working directory), with every path in it; undefined outside git, without git, or when
 * a path is outside that repository (nothing says its files were committed).
 */
export async function manifestRepository(
  paths: readonly string[],
  cwd: string,
): Promise<ManifestRepository | undefined> {
  const root = await repositoryTop(resolve(cwd, paths[0] ?? '.'));
  if (root === undefined) return undefined;
  const mapped = (paths.length === 0 ? ['.'] : paths).map((path) => repoPath(root, cwd, path));
  if (mapped.some((path) => path === undefined)) return undefined;
  return { root, inRepo: mapped as string[] };
}

/** repositoryTop is the top folder of the git repository holding `path` (a folder, or a file's folder); undefined outside git or without git. */
export async function repositoryTop(path: string): Promise<string | undefined> {
  try {
    return (await git(folderOf(path), ['rev-parse', '--show-toplevel'])).toString('utf8').trim();
  } catch {
    return undefined;
  }
}

/** headCommit is HEAD's commit in the repository at `root`; undefined before the first commit. */
export async function headCommit(root: string): Promise<string | undefined> {
  const commit = (await git(root, ['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'])).toString('utf8').trim();
  return /^[0-9a-f]{40,64}$/.test(commit) ? commit : undefined;
}

/**
 * manifestsClean tells whether no manifest (YAML file) below `inRepo` differs from HEAD,
 * tracked or not. Only manifests count: a plan, a report or the sweep memory written
 * beside them (as the action writes them in the checkout) is no edit of what was planned
 * or applied.
 */
export async function manifestsClean(root: string, inRepo: readonly string[]): Promise<boolean> {
  const status = (
    await git(root, [
      'status',
      '--porcelain',
      '-z',
      '--untracked-files=all',
      '--',
      ...inRepo.map((path) => `:(top)${path}`),
    ])
  ).toString('utf8');
  return !status.split('\0').some((entry) => /\.ya?ml$/i.test(entry));
}

interface TreeFile {
  sha: string;
  size: number;
}

/**
 * gitManifestSource serves the manifests of `base.commit` below `paths` (as the user
 * gave them, relative to `cwd`), reading every manifest blob below them with one
 * `cat-file --batch`. Paths display relative to `cwd`, as on disk; a path outside the
 * repository is not found. Symbolic links and submodules in the tree are left out.
 */
export async function gitManifestSource(base: GitBase, paths: readonly string[], cwd: string): Promise<ManifestSource> {
  const realCwd = realOrSelf(cwd);
  const tree = new Map<string, TreeFile>();
  const listing = (await git(base.root, ['ls-tree', '-r', '-z', '-l', '--full-tree', base.commit])).toString('utf8');
  for (const record of listing.split('\0')) {
    const match = /^(\d+) (\w+) ([0-9a-f]+) +(\d+|-)\t(.*)$/s.exec(record);
    if (match === null || match[2] !== 'blob' || match[1] === '120000') continue;
    tree.set(match[5] ?? '', { sha: match[3] ?? '', size: Number(match[4]) });
  }
  const toRepo = (path: string): string | undefined => repoPath(base.root, cwd, path);
  const display = (file: string): string => {
    const rel = relative(realCwd, resolve(base.root, file)).split(sep).join('/');
    return rel === '' ? '.' : rel;
  };
  const wanted = new Set<string>();
  for (const path of paths.length === 0 ? ['.'] : paths) {
    const at = toRepo(path);
    if (at === undefined) continue;
    for (const file of tree.keys()) if (file === at || walkFinds(file, at)) wanted.add(file);
  }
  const blobs = await readBlobs(
    base.root,
    [...wanted].flatMap((file) => tree.get(file)?.sha ?? []),
  );
  return {
    async stat(path) {
      const at = toRepo(path);
      if (at === undefined) return undefined;
      const file = tree.get(at);
      if (file !== undefined) return { type: 'file', size: file.size };
      return [...tree.keys()].some((candidate) => isBelow(candidate, at)) ? { type: 'directory' } : undefined;
    },
    async list(directory) {
      const at = toRepo(directory);
      const files =
        at === undefined
          ? []
          : [...tree.keys()]
              .filter((file) => walkFinds(file, at))
              .map(display)
              .sort();
      return { files, skipped: [] };
    },
    async read(path, maxBytes) {
      const at = toRepo(path);
      const file = at === undefined ? undefined : tree.get(at);
      if (file === undefined)
        throw Object.assign(new Error(`no such file at ${base.ref}: ${path}`), { code: 'ENOENT', path });
      if (file.size > maxBytes) return { tooLarge: file.size };
      const bytes = blobs.get(file.sha);
      if (bytes === undefined) throw Object.assign(new Error(`not read from git: ${path}`), { code: 'EIO', path });
      return { bytes };
    },
    display(path) {
      const at = toRepo(path);
      return at === undefined ? path : display(at);
    },
  };
}

/** folderOf is `path` when it is a folder, else its folder: where git looks for the repository holding it. */
function folderOf(path: string): string {
  try {
    return statSync(path).isDirectory() ? path : dirname(path);
  } catch {
    return dirname(path);
  }
}

/** repoPath is `path` (relative to `cwd`) as a `/`-separated path in the repository, or undefined outside it. */
export function repoPath(root: string, cwd: string, path: string): string | undefined {
  const absolute = isAbsolute(path) ? path : resolve(cwd, path);
  const rel = relative(root, realOrSelf(absolute)).split(sep).join('/');
  if (rel === '..' || rel.startsWith('../') || isAbsolute(rel)) return undefined;
  return rel === '' ? '.' : rel;
}

/** realOrSelf resolves links in the longest part of `path` that exists, as git reports the top folder with links resolved. */
function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    const parent = dirname(path);
    return parent === path ? path : resolve(realOrSelf(parent), relative(parent, path));
  }
}

/** readBlobs reads blobs by id with one `git cat-file --batch`. */
async function readBlobs(root: string, shas: readonly string[]): Promise<Map<string, Uint8Array>> {
  const out = new Map<string, Uint8Array>();
  if (shas.length === 0) return out;
  const unique = [...new Set(shas)];
  const data = await git(root, ['cat-file', '--batch'], `${unique.join('\n')}\n`);
  let at = 0;
  while (at < data.length) {
    const end = data.indexOf(0x0a, at);
    if (end < 0) break;
    const [sha = '', type, size] = data.subarray(at, end).toString('utf8').split(' ');
    at = end + 1;
    if (type === undefined || size === undefined) continue;
    const length = Number(size);
    out.set(sha, data.subarray(at, at + length));
    at += length + 1;
  }
  return out;
}

/** git runs the git executable in `cwd` and answers its stdout; a non-zero exit rejects. */
export function git(cwd: string, args: readonly string[], input?: string): Promise<Buffer> {
  if (input === undefined) {
    return new Promise((resolvePromise, reject) => {
      execFile('git', ['-C', cwd, ...args], { encoding: 'buffer', maxBuffer: 1 << 30 }, (error, stdout) => {
        if (error !== null) reject(error);
        else resolvePromise(stdout);
      });
    });
  }
  return new Promise((resolvePromise, reject) => {
    const child = spawn('git', ['-C', cwd, ...args], { stdio: ['pipe', 'pipe', 'ignore'] });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0
        ? resolvePromise(Buffer.concat(chunks))
        : reject(new Error(`git ${args[0] ?? ''} exited with ${String(code)}`)),
    );
    child.stdin.end(input);
  });
}
