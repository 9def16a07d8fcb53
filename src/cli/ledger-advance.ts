import { manifestRepository, manifestsHead, type ManifestsHead } from '../manifest/git-source.js';
import { sameManifestsAt, sameTrees, treesAtHead } from '../manifest/git-trees.js';
import type { Plan } from '../plan/types.js';

/**
 * Which commit an apply that exited 0 records as the manifests' last applied one (README,
 * "The sweep memory"): the commit the applied manifests are checked out at, only when
 * the files are exactly that commit's. Anything less (no git, uncommitted changes, a
 * targeted apply, a saved plan made from other manifests) advances nothing, and says why.
 */

/** Advance is the commit to record, or why none is. */
export type Advance = { commit: string } | { why: string };

/**
 * appliedManifestsCommit is the commit of an apply of the manifests under `paths`
 * (relative to `cwd`), which were read when git said `read` (`manifestsHead` then):
 * HEAD moved since, or the files then were not that commit's, and what was applied is
 * no commit's, so nothing is recorded.
 */
export async function appliedManifestsCommit(
  paths: readonly string[],
  cwd: string,
  targeted: boolean,
  read: ManifestsHead | undefined,
): Promise<Advance> {
  if (targeted) return { why: 'a --target apply carries out only part of the manifests' };
  const head = await manifestsHead(paths, cwd);
  if (head === undefined || read === undefined) return { why: 'the manifests are not in a git repository' };
  if (!read.clean) return { why: `the manifests have changes not committed at ${read.commit.slice(0, 7)}` };
  if (head.commit !== read.commit)
    return {
      why: `HEAD moved from ${read.commit.slice(0, 7)}, where apply read the manifests, to ${head.commit.slice(0, 7)} during the apply`,
    };
  if (!head.clean) return { why: `the manifests have changes not committed at ${head.commit.slice(0, 7)}` };
  return { commit: head.commit };
}

/**
 * appliedPlanCommit is the commit of an apply of a saved plan, from the repository
 * holding `cwd`: HEAD, when the plan file records the manifests' git ids (`plan --out`
 * from a clean checkout) and HEAD holds exactly those, unchanged.
 */
export async function appliedPlanCommit(plan: Pick<Plan, 'manifests' | 'targets'>, cwd: string): Promise<Advance> {
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
  return { commit: head.commit };
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
