import { UsageError } from '../errors.js';
import { ManifestInvalidError } from '../manifest/format-problems.js';
import { gitManifestSource, manifestsHead, resolveBase } from '../manifest/git-source.js';
import { loadDesired } from '../manifest/load-desired.js';
import type { AppliedManifests } from '../plan/drift-origins.js';
import type { PlanWarning } from '../plan/types.js';
import type { SweepMemory } from '../state/sweep-memory.js';

/** AppliedFound is what `appliedManifests` found, for planWorkspace's `applied`, and the warnings to show with the plan. */
export interface AppliedFound {
  applied?: AppliedManifests;
  warnings: PlanWarning[];
}

/**
 * appliedManifests finds, for a plan without `--base`, the manifests of the memory's
 * last applied commit (README, "Drift: who, what, when"): `current` when it is the
 * manifests' git HEAD and their files are unchanged; otherwise that commit's manifests,
 * loaded through git as `--base` loads REF's (`older`); `unloadable`, with a warning,
 * when the manifests are not in a git checkout, the commit is not in it, or its
 * manifests fail to load (the plan's origins are then hedged). Undefined, nothing asked
 * of git, with `--base` or when the memory knows no last applied commit.
 */
export async function appliedManifests(
  memory: SweepMemory | undefined,
  base: string | undefined,
  paths: readonly string[],
  cwd: string,
): Promise<AppliedFound> {
  const commit = memory?.lastApplied?.commit;
  if (commit === undefined || base !== undefined) return { warnings: [] };
  const manifestPaths = paths.length === 0 ? ['.'] : paths;
  const short = commit.slice(0, 7);
  const unloadable = (reason: string): AppliedFound => ({
    applied: { state: 'unloadable', commit, reason },
    warnings: [
      {
        code: 'plan.last-applied-unloadable',
        message: `the last applied commit ${short} (sweep memory) cannot be compared: ${reason}; every difference is labelled "not applied or changed outside"`,
      },
    ],
  });
  const head = await manifestsHead(manifestPaths, cwd);
  if (head === undefined) return unloadable('the manifests are not in a git checkout');
  if (head.commit === commit && head.clean) return { applied: { state: 'current', commit }, warnings: [] };
  try {
    const resolved = await resolveBase(commit, manifestPaths, cwd);
    const { desired } = await loadDesired(manifestPaths, await gitManifestSource(resolved, manifestPaths, cwd));
    return { applied: { state: 'older', commit, desired }, warnings: [] };
  } catch (error) {
    if (error instanceof UsageError) return unloadable('the checkout does not have that commit (fetch more history)');
    if (error instanceof ManifestInvalidError) return unloadable('its manifests fail to load');
    throw error;
  }
}
