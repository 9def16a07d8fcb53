import { UsageError, ViewctlError } from '../errors.js';
import { mergedChangesSince } from '../manifest/git-history.js';
import { manifestRepository, resolveBase } from '../manifest/git-source.js';
import { descendsFrom } from '../manifest/git-trees.js';
import type { PlanWarning } from '../plan/types.js';
import { plural } from '../text/plural.js';

/**
 * `plan --since-applied` (README, "Scoped and budgeted plans"): the plan's `--base` is
 * the sweep memory's last applied commit, so what was merged since and never applied
 * (a reviewed plan not applied or holding targets, a merge whose apply never ran) is planned, at the
 * cost of what changed since that commit, not of every list; an apply of that plan
 * exiting 0 advances the memory's record. With `--base REF` as well (a pull request's
 * base), the last applied commit is used only when it is an ancestor of REF; when it
 * cannot be (no record, a commit the checkout lacks, one off REF's history) the plan is
 * `--base REF`, with a warning that says what the plan may miss.
 */

/** AppliedCommit is what `--since-applied` reads of the sweep memory: the `--ledger` file as given and its last applied commit. */
export interface AppliedCommit {
  ledgerFile?: string;
  commit?: string;
}

/** SinceApplied is the `--base` a plan then uses (none: every pinned list) and what the plan says about it. */
export interface SinceApplied {
  base?: string;
  warnings: PlanWarning[];
}

/**
 * sinceAppliedBase resolves `--since-applied` before any request: the REF the plan is
 * then scoped to, and its warnings. Without the flag it is `--base` as given. Errors
 * only without `--base REF` to fall back to: no `--ledger` (always), no record, or a
 * commit the checkout lacks.
 */
export async function sinceAppliedBase(
  flags: { base?: string; sinceApplied?: boolean },
  applied: AppliedCommit,
  paths: readonly string[],
  cwd: string,
): Promise<SinceApplied> {
  const given = flags.base;
  if (flags.sinceApplied !== true) return { ...(given === undefined ? {} : { base: given }), warnings: [] };
  if (applied.ledgerFile === undefined)
    throw new UsageError(
      'usage.since-applied-without-ledger',
      "--since-applied plans from the sweep memory's last applied commit, but no --ledger FILE was given",
      'add --ledger FILE (the memory the apply job keeps), or drop --since-applied',
    );
  const fallBack = (why: string, code: string, hint: string): SinceApplied => {
    if (given === undefined) throw new UsageError(code, `--since-applied: ${why}`, hint);
    return {
      base: given,
      warnings: [
        {
          code: 'plan.applied-commit-unused',
          message: `--since-applied: ${why}; planned --base ${given} instead: a change merged before it and never applied is not in this plan`,
        },
      ],
    };
  };
  const { commit } = applied;
  if (commit === undefined)
    return fallBack(
      `the sweep memory ${applied.ledgerFile} records no applied commit`,
      'usage.no-applied-commit',
      'plan without --since-applied (every pinned list is read); an apply with --ledger FILE that exits 0 records the commit it applied',
    );
  const short = commit.slice(0, 7);
  const manifestPaths = paths.length === 0 ? ['.'] : paths;
  try {
    await resolveBase(commit, manifestPaths, cwd);
  } catch (error) {
    if (!(error instanceof ViewctlError) || error.code !== 'usage.base-not-a-commit') throw error;
    return fallBack(
      `the last applied commit ${short} (sweep memory) is not in this checkout`,
      'usage.applied-commit-unknown',
      'fetch the history (git fetch --unshallow, or actions/checkout with fetch-depth: 0), or plan without --since-applied',
    );
  }
  const repository = await manifestRepository(manifestPaths, cwd);
  const root = repository?.root ?? cwd;
  const repoPaths = repository?.inRepo ?? ['.'];
  const includes = async (until: string, not: string): Promise<SinceApplied> => {
    const merged = await mergedChangesSince(commit, until, repoPaths, root);
    // Commits that changed no manifest leave the same manifests: REF's plan is the same plan.
    if (merged === 0 && given !== undefined) return { base: given, warnings: [] };
    const count = merged === undefined ? 'the changes merged' : plural(merged, 'merged change');
    return {
      base: commit,
      warnings:
        merged === 0
          ? []
          : [
              {
                code: 'plan.includes-unapplied',
                message: `planned from the last applied commit ${short} (sweep memory)${not}: includes ${count} never applied since ${short}`,
              },
            ],
    };
  };
  if (given === undefined) return includes('HEAD', '');
  const ref = await resolveBase(given, manifestPaths, cwd);
  if (ref.commit === commit) return { base: given, warnings: [] };
  if (await descendsFrom(ref.commit, commit, root)) return includes(ref.commit, `, not --base ${given}`);
  // Applied after REF: REF's plan reads more, and misses nothing applied.
  if (await descendsFrom(commit, ref.commit, root)) return { base: given, warnings: [] };
  return fallBack(
    `the last applied commit ${short} (sweep memory) is not on the history of --base ${given}`,
    'usage.applied-commit-unknown',
    'plan without --since-applied',
  );
}
