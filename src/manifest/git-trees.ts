import { git, headCommit, manifestRepository, manifestsClean, repositoryTop } from './git-source.js';

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
  /** Whether the manifests below the paths match HEAD (`manifestsClean`: no changed or untracked YAML file). */
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
  const repository = await manifestRepository(paths, cwd);
  return repository === undefined ? undefined : treesAt(repository.root, repository.inRepo);
}

/**
 * treesAtHead answers the ids at HEAD of `repoPaths` (paths in the repository, as
 * `manifestTrees` keys them) in the git repository holding `cwd`; undefined outside git
 * or when a path is not in HEAD.
 */
export async function treesAtHead(repoPaths: readonly string[], cwd: string): Promise<ManifestTrees | undefined> {
  const root = await repositoryTop(cwd);
  return root === undefined ? undefined : treesAt(root, repoPaths);
}

async function treesAt(root: string, repoPaths: readonly string[]): Promise<ManifestTrees | undefined> {
  try {
    const commit = await headCommit(root);
    if (commit === undefined) return undefined;
    const unique = [...new Set(repoPaths)].sort();
    const ids = await idsAt(root, commit, unique);
    if (ids === undefined) return undefined;
    return {
      commit,
      clean: await manifestsClean(root, unique),
      trees: Object.fromEntries(unique.map((path, index) => [path, ids[index] ?? ''])),
    };
  } catch {
    return undefined;
  }
}

/** idsAt are the object ids of `repoPaths` at `commit` (a tree for `.`), in order; undefined when the checkout lacks the commit or a path is not in it. */
async function idsAt(root: string, commit: string, repoPaths: readonly string[]): Promise<string[] | undefined> {
  try {
    return await Promise.all(
      repoPaths.map(async (path) =>
        (await git(root, ['rev-parse', '--verify', '--quiet', path === '.' ? `${commit}^{tree}` : `${commit}:${path}`]))
          .toString('utf8')
          .trim(),
      ),
    );
  } catch {
    return undefined;
  }
}

/**
 * sameManifestsAt tells whether the manifest paths `repoPaths` (keyed as `manifestTrees`
 * keys them) hold the same object ids at commits `a` and `b` of the git repository
 * holding `folder` (a folder or a file in it); false when either commit is not in the
 * checkout (a shallow clone) or a path is in neither.
 */
export async function sameManifestsAt(
  a: string,
  b: string,
  repoPaths: readonly string[],
  folder: string,
): Promise<boolean> {
  const root = await repositoryTop(folder);
  if (root === undefined || repoPaths.length === 0) return false;
  const [atA, atB] = [await idsAt(root, a, repoPaths), await idsAt(root, b, repoPaths)];
  return atA !== undefined && atB !== undefined && atA.every((id, index) => id === atB[index]);
}

/** hasCommit tells whether the git repository holding `folder` has `commit` (a shallow clone may lack it). */
export async function hasCommit(commit: string, folder: string): Promise<boolean> {
  const root = await repositoryTop(folder);
  if (root === undefined) return false;
  return git(root, ['cat-file', '-e', `${commit}^{commit}`]).then(
    () => true,
    () => false,
  );
}

/** sameTrees tells whether two records of object ids name the same paths with the same ids. */
export function sameTrees(a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>): boolean {
  const keys = Object.keys(a).sort();
  return (
    keys.length > 0 && keys.join('\0') === Object.keys(b).sort().join('\0') && keys.every((key) => a[key] === b[key])
  );
}

/**
 * descendsFrom tells whether `ancestor` is `commit` or one of its ancestors in the git
 * repository holding `folder`: a last applied commit on another branch, or none this
 * checkout has, is no apply of what HEAD holds.
 */
export async function descendsFrom(commit: string, ancestor: string, folder: string): Promise<boolean> {
  const root = await repositoryTop(folder);
  if (root === undefined) return false;
  return git(root, ['merge-base', '--is-ancestor', ancestor, commit]).then(
    () => true,
    () => false,
  );
}
