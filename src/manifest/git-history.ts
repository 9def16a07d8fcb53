import { git } from './git-source.js';

/**
 * mergedChangesSince counts the commits on the first-parent line from `since` (not
 * included) to `until` that changed the manifest paths `repoPaths` (paths in the
 * repository whose top folder is `root`): the merges a plan from `since` carries beside
 * `until`'s own. A merge counts once, as the change it brought to the default branch;
 * a commit that changed no manifest is not counted. Undefined when git cannot tell.
 */
export async function mergedChangesSince(
  since: string,
  until: string,
  repoPaths: readonly string[],
  root: string,
): Promise<number | undefined> {
  try {
    const out = await git(root, ['rev-list', '--count', '--first-parent', `${since}..${until}`, '--', ...repoPaths]);
    const count = Number(out.toString('utf8').trim());
    return Number.isInteger(count) ? count : undefined;
  } catch {
    return undefined;
  }
}
