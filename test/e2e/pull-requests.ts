import { execFile } from 'node:child_process';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { EXAMPLES } from './harness.js';

/** Git repositories of manifests and the pull requests the e2e tests plan with `--base`. */

const run = promisify(execFile);

/** git runs git in `cwd` as a CI job would (a fixed author, `main` as the first branch) and answers its stdout. */
export async function git(cwd: string, ...args: string[]): Promise<string> {
  const { stdout } = await run(
    'git',
    ['-c', 'user.email=ci@acme.test', '-c', 'user.name=CI', '-c', 'init.defaultBranch=main', ...args],
    { cwd },
  );
  return stdout.trim();
}

/** example is the text of a file of the repository's examples/ folder. */
export function example(path: string): Promise<string> {
  return readFile(join(EXAMPLES, path), 'utf8');
}

/**
 * zoomDeletingPullRequest lays out, in `makeDir`'s folder, a repository whose base commit
 * declares the Zoom and Deals-at-risk views (`prune: owned`, Olivia owning both), Adam's
 * tabs and Mia's, then makes the pull request's change uncommitted: the Zoom view's
 * document deleted (so the plan prunes it) and a tab added to Mia's list. Adam's document
 * is not touched, so a `--base HEAD` plan does not read his list. Answers the root.
 */
export async function zoomDeletingPullRequest(
  makeDir: (files: Record<string, string>) => Promise<string>,
): Promise<string> {
  const root = await makeDir({
    'manifests/workspace.yaml':
      'kind: Workspace\nworkspaceId: ws_acme\ncreatorEmail: olivia.park@acme.test\nprune: owned\n',
    'manifests/views/zoom.yaml': await example('views/recordings/zoom-and-meet-calls.yaml'),
    'manifests/views/deals-at-risk.yaml': await example('views/recordings/deals-at-risk.yaml'),
    'manifests/pins/adam.yaml': await example('pins/adam.yaml'),
    'manifests/pins/mia.yaml': 'kind: PinnedViews\nuserEmail: mia.chen@acme.test\nrecordings: [All recordings]\n',
  });
  await git(root, 'init', '-q');
  await git(root, 'add', '-A');
  await git(root, 'commit', '-qm', 'base');
  await rm(join(root, 'manifests/views/zoom.yaml'));
  await writeFile(
    join(root, 'manifests/pins/mia.yaml'),
    'kind: PinnedViews\nuserEmail: mia.chen@acme.test\nrecordings: [All recordings, Customer calls]\n',
  );
  return root;
}
