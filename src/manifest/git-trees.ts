import { statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { git, repoPath } from './git-source.js';

/**
 * The git object ids of the manifest paths at HEAD: what `plan --out` (and the JSON plan) records in the
 * plan file, so that `apply --plan` (which reads no manifests) can tell whether the
 * checkout it runs in holds exactly the manifests the plan was made from, and only then
 * advance the sweep memory's last applied commit. Object ids name content: a merge
 * commit whose manifests equal the pull request's has the same ids.
 */

/** ManifestTrees are the object ids (tree for a folder, blob for a file) of manifest paths at HEAD, keyed by their path in the repository. */
export interface ManifestTrees {
  /** HEAD's commit. */
  commit: string;
  /** Whether the files below the paths match HEAD (no change to a tracked file, no untracked one). */
  clean: boolean;
  /** Path in the repository (`/`-separated, from its top folder; `.` for the top) to the object id at HEAD. */
  trees: Record<string, string>;
}

/**
 * manifestTrees answers the ids of `paths` (as the user gave them, relative to `cwd`)
 * in the git repository holding the first; undefined outside git, or when a path is
 * outside the repository or not in HEAD.
 */
export async function manifestTrees(paths: readonly string[], cwd: string): Promise<ManifestTrees | undefined> {
  const root = await topFolder(resolve(cwd, paths[0] ?? '.'));
  if (root === undefined) return undefined;
  const inRepo = (paths.length === 0 ? ['.'] : paths).map((path) => repoPath(root, cwd, path));
  if (inRepo.some((path) => path === undefined)) return undefined;
  return treesAt(root, inRepo as string[]);
}

/**
 * treesAtHead answers the ids at HEAD of `repoPaths` (paths in the repository, as
 * `manifestTrees` keys them) in the git repository holding `cwd`; undefined outside git
 * or when a path is not in HEAD.
 */
export async function treesAtHead(repoPaths: readonly string[], cwd: string): Promise<ManifestTrees | undefined> {
  const root = await topFolder(cwd);
  return root === undefined ? undefined : treesAt(root, repoPaths);
}

async function treesAt(root: string, repoPaths: readonly string[]): Promise<ManifestTrees | undefined> {
  try {
    const commit = (await git(root, ['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'])).toString('utf8').trim();
    if (!/^[0-9a-f]{40,64}$/.test(commit)) return undefined;
    const unique = [...new Set(repoPaths)].sort();
    const trees: Record<string, string> = {};
    for (const path of unique) {
      trees[path] = (await git(root, ['rev-parse', '--verify', '--quiet', path === '.' ? `${commit}^{tree}` : `${commit}:${path}`])).toString('utf8').trim();
    }
    const status = (await git(root, ['status', '--porcelain', '-z', '--untracked-files=all', '--', ...unique.map((path) => `:(top)${path}`)])).toString('utf8');
    return { commit, clean: status === '', trees };
  } catch {
    return undefined;
  }
}

/** topFolder is the top folder of the git repository holding `path` (a folder, or a file's folder); undefined outside git or without git. */
async function topFolder(path: string): Promise<string | undefined> {
  let folder = path;
  try {
    if (!statSync(path).isDirectory()) folder = dirname(path);
  } catch {
    folder = dirname(path);
  }
  try {
    return (await git(folder, ['rev-parse', '--show-toplevel'])).toString('utf8').trim();
  } catch {
    return undefined;
  }
}

/**
 * sameManifestsAt tells whether the manifest paths `repoPaths` (keyed as `manifestTrees`
 * keys them) hold the same object ids at commits `a` and `b` of the git repository
 * holding `folder` (a folder or a file in it); false when either commit is not in the checkout (a shallow clone)
 * or a path is in neither.
 */
export async function sameManifestsAt(a: string, b: string, repoPaths: readonly string[], folder: string): Promise<boolean> {
  const root = await topFolder(folder);
  if (root === undefined || repoPaths.length === 0) return false;
  const idsAt = async (commit: string): Promise<string[] | undefined> => {
    try {
      return await Promise.all(repoPaths.map(async (path) => (await git(root, ['rev-parse', '--verify', '--quiet', path === '.' ? `${commit}^{tree}` : `${commit}:${path}`])).toString('utf8').trim()));
    } catch {
      return undefined;
    }
  };
  const [atA, atB] = [await idsAt(a), await idsAt(b)];
  return atA !== undefined && atB !== undefined && atA.every((id, index) => id === atB[index]);
}

/** hasCommit tells whether the git repository holding `folder` has `commit` (a shallow clone may lack it). */
export async function hasCommit(commit: string, folder: string): Promise<boolean> {
  const root = await topFolder(folder);
  if (root === undefined) return false;
  return git(root, ['cat-file', '-e', `${commit}^{commit}`]).then(() => true, () => false);
}

/** sameTrees tells whether two records of object ids name the same paths with the same ids. */
export function sameTrees(a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>): boolean {
  const keys = Object.keys(a).sort();
  return keys.length > 0 && keys.join('\0') === Object.keys(b).sort().join('\0') && keys.every((key) => a[key] === b[key]);
}
