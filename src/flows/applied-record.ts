import { relative, sep } from 'node:path';
import { ViewctlError } from '../errors.js';
import { ManifestInvalidError } from '../manifest/format-problems.js';
import { untrackedManifests, untrackedWords } from '../manifest/git-files.js';
import {
  gitManifestSource,
  manifestRepository,
  manifestsHead,
  repositoryTop,
  type ManifestsHead,
} from '../manifest/git-source.js';
import { sameManifestsAt, sameTrees, treesAtHead } from '../manifest/git-trees.js';
import { loadDesired } from '../manifest/load-desired.js';
import { isBelow } from '../manifest/source.js';
import { desiredDigest } from '../plan/desired-digest.js';
import type { Plan } from '../plan/types.js';
import type { AppliedRecord } from '../state/memory-applied.js';

/**
 * What an apply that exited 0 records as last applied in the sweep memory (README, "The
 * sweep memory", "Self-heal: `apply --budget`"): the commit the applied manifests are
 * checked out at, the digest of the desired state carried out and the manifest paths
 * read, only when that apply carried out the whole of a commit's manifests: every file
 * read is what git tracks at that commit, and the apply was neither `--target`ed nor of
 * a part of the paths last applied. Anything less advances nothing, and says why: self-heal
 * repairs towards this record, so it must never claim what no complete reviewed apply did.
 */

/** Advance is what to record, or why nothing is. */
export type Advance = { applied: AppliedRecord } | { why: string };

/** ManifestsApplied is an apply of the manifests as the flow loaded them. */
export interface ManifestsApplied {
  /** The manifest paths as given, relative to `cwd`. */
  paths: readonly string[];
  cwd: string;
  targeted: boolean;
  /** Where git stood when the files were read (`manifestsHead` then). */
  read: ManifestsHead | undefined;
  /** The files the loader read, absolute. */
  files: readonly string[];
  /** The digest of the desired state loaded (`desiredDigest`). */
  digest: string;
}

/**
 * appliedManifestsRecord is the record of an apply of the manifests: HEAD moved since
 * they were read, or the files then were not that commit's (uncommitted, ignored,
 * untracked, read through a link out of the repository), and what was applied is no
 * commit's; the paths are part of those last applied (`lastPaths`), and the rest is
 * not applied by it: nothing is recorded.
 */
export async function appliedManifestsRecord(
  applied: ManifestsApplied,
  lastPaths: readonly string[] | undefined,
): Promise<Advance> {
  const { paths, cwd, read } = applied;
  if (applied.targeted) return { why: 'a --target apply carries out only part of the manifests' };
  const head = await manifestsHead(paths, cwd);
  const repository = await manifestRepository(paths, cwd);
  if (head === undefined || read === undefined || repository === undefined)
    return { why: 'the manifests are not in a git repository' };
  if (!read.clean) return { why: `the manifests have changes not committed at ${read.commit.slice(0, 7)}` };
  if (head.commit !== read.commit)
    return {
      why: `HEAD moved from ${read.commit.slice(0, 7)}, where apply read the manifests, to ${head.commit.slice(0, 7)} during the apply`,
    };
  if (!head.clean) return { why: `the manifests have changes not committed at ${head.commit.slice(0, 7)}` };
  const untracked = await untrackedManifests(repository.root, applied.files, (file) => shownPath(cwd, file));
  if (untracked === undefined) return { why: 'git could not tell whether the manifests read are the ones it tracks' };
  const first = untracked[0];
  if (first !== undefined) return { why: untrackedWords(first) };
  const repoPaths = sortedPaths(repository.inRepo);
  const part = partOfLast(repoPaths, lastPaths);
  if (part !== undefined) return { why: part };
  return { applied: { commit: head.commit, digest: applied.digest, paths: repoPaths } };
}

/**
 * appliedPlanRecord is the record of an apply of a saved plan, from the repository
 * holding `cwd`: HEAD, when the plan file records the manifests' git ids (`plan --out`
 * from a clean checkout) and HEAD holds exactly those, unchanged; the digest is that of
 * HEAD's manifests at those paths, loaded from git (the content a reviewer merged).
 */
export async function appliedPlanRecord(
  plan: Pick<Plan, 'manifests' | 'targets'>,
  cwd: string,
  lastPaths: readonly string[] | undefined,
): Promise<Advance> {
  if (plan.targets !== undefined) return { why: 'a --target plan carries out only part of the manifests' };
  const recorded = plan.manifests?.trees;
  if (recorded === undefined)
    return {
      why: 'the plan file does not record which manifests it was made from (plan --out records it from a clean git checkout)',
    };
  const head = await treesAtHead(Object.keys(recorded), cwd);
  if (head === undefined)
    return { why: 'the working directory is not in a git repository holding the manifests the plan was made from' };
  if (!sameTrees(recorded, head.trees))
    return { why: `the manifests at HEAD (${head.commit.slice(0, 7)}) are not those the plan was made from` };
  if (!head.clean) return { why: `the manifests have changes not committed at ${head.commit.slice(0, 7)}` };
  const repoPaths = sortedPaths(Object.keys(recorded));
  const part = partOfLast(repoPaths, lastPaths);
  if (part !== undefined) return { why: part };
  const digest = await digestAt(head.commit, repoPaths, cwd);
  if (digest === undefined)
    return { why: `the manifests at HEAD (${head.commit.slice(0, 7)}) could not be loaded from git to record them` };
  return { applied: { commit: head.commit, digest, paths: repoPaths } };
}

/** digestAt is the digest of the desired state at `commit` below `repoPaths`, loaded from git; undefined when it does not load. */
async function digestAt(commit: string, repoPaths: readonly string[], cwd: string): Promise<string | undefined> {
  const root = await repositoryTop(cwd);
  if (root === undefined) return undefined;
  try {
    const source = await gitManifestSource({ ref: commit, commit, root }, repoPaths, root);
    return desiredDigest((await loadDesired(repoPaths, source)).desired);
  } catch (error) {
    if (error instanceof ManifestInvalidError || error instanceof ViewctlError) return undefined;
    throw error;
  }
}

/**
 * partOfLast says why an apply of `repoPaths` is a part of what was last applied
 * (`lastPaths`): each path is one of them or below one, and they are not all of them.
 * Self-heal of the whole would then claim what this apply did not carry out.
 */
function partOfLast(repoPaths: readonly string[], lastPaths: readonly string[] | undefined): string | undefined {
  if (lastPaths === undefined) return undefined;
  const last = sortedPaths(lastPaths);
  const within = repoPaths.every((path) => last.some((folder) => path === folder || isBelow(path, folder)));
  if (!within || repoPaths.join('\0') === last.join('\0')) return undefined;
  return `the apply read only part of the manifests last applied (${repoPaths.join(' ')} of ${last.join(' ')})`;
}

/** sortedPaths are paths in the repository once each, sorted: how the memory records them. */
export function sortedPaths(paths: readonly string[]): string[] {
  return [...new Set(paths)].sort();
}

/** shownPath spells an absolute file relative to `cwd`, as messages name manifests. */
export function shownPath(cwd: string, file: string): string {
  return relative(cwd, file).split(sep).join('/');
}

/**
 * scopedPlanCovers says why an apply of a plan scoped to `--base REF` (`base`: the
 * plan's `scope.base`) cannot record the last applied commit, or undefined when it can:
 * such a plan read only the pinned lists whose manifests changed since REF, so it carries
 * out every merged change only when the manifests at REF are those at the memory's last
 * applied commit (`lastApplied`): the same commit, or commits between them that left the
 * manifest paths (`repoPaths`, in the repository holding `folder`) as they were. A REF
 * whose manifests differ (the apply of an earlier merge failed, or the checkout lacks
 * the history to tell) leaves what was merged in between possibly unread and unapplied,
 * which the last applied commit must never claim.
 */
export async function scopedPlanCovers(
  base: { ref: string; commit: string } | undefined,
  lastApplied: string | undefined,
  { repoPaths, folder }: { repoPaths: readonly string[]; folder: string },
): Promise<string | undefined> {
  if (base === undefined || lastApplied === undefined || base.commit === lastApplied) return undefined;
  if (await sameManifestsAt(base.commit, lastApplied, repoPaths, folder)) return undefined;
  return `the plan read only the pinned lists changed since --base ${base.ref} (${base.commit.slice(0, 7)}), whose manifests are not those of the last applied commit (${lastApplied.slice(0, 7)}), or the checkout lacks one of them (fetch the history): what was merged between them may be not applied`;
}

/**
 * appliedRepoPaths are the manifest paths in the repository an apply carried out, and a
 * folder inside it: the plan file's record, or the manifest paths the apply read.
 */
export async function appliedRepoPaths(
  plan: Pick<Plan, 'manifests'>,
  paths: readonly string[] | undefined,
  cwd: string,
): Promise<{ repoPaths: string[]; folder: string }> {
  if (paths === undefined) return { repoPaths: Object.keys(plan.manifests?.trees ?? {}), folder: cwd };
  const repository = await manifestRepository(paths, cwd);
  return repository === undefined
    ? { repoPaths: [], folder: cwd }
    : { repoPaths: [...new Set(repository.inRepo)], folder: repository.root };
}
