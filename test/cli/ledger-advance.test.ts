import { execFileSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { appliedManifestsCommit } from '../../src/cli/ledger-advance.js';
import { manifestsHead } from '../../src/manifest/git-source.js';
import { scratchDir } from '../support/cli.js';

/** Which commit an apply that exited 0 records as the last applied one. */

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.email=t@acme.test', '-c', 'user.name=T', ...args], {
    cwd,
    encoding: 'utf8',
  }).trim();
}

describe('appliedManifestsCommit', () => {
  it('records the commit the manifests were read at, and nothing when HEAD moved between reading them and the end of the apply', async () => {
    const made = await scratchDir({ 'm/a.yaml': 'kind: Workspace\n' });
    cleanups.push(made.cleanup);
    const dir = made.dir;
    git(dir, 'init', '-q');
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', 'one');
    const read = await manifestsHead(['m'], dir);
    expect(await appliedManifestsCommit(['m'], dir, false, read)).toEqual({ commit: git(dir, 'rev-parse', 'HEAD') });
    // A commit lands while the apply runs: the files applied are the first commit's, not HEAD's.
    await writeFile(join(dir, 'm', 'a.yaml'), 'kind: Workspace\nprune: true\n');
    git(dir, 'commit', '-qam', 'two');
    const advance = await appliedManifestsCommit(['m'], dir, false, read);
    expect(advance).toMatchObject({ why: expect.stringContaining('moved') });
  });
});

describe('scopedPlanCovers', () => {
  it("lets a plan scoped to --base REF advance only when REF's manifests are the last applied commit's", async () => {
    const { scopedPlanCovers } = await import('../../src/cli/ledger-advance.js');
    const made = await scratchDir({ 'm/a.yaml': 'kind: Workspace\n', 'README.md': 'one\n' });
    cleanups.push(made.cleanup);
    const dir = made.dir;
    git(dir, 'init', '-q');
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', 'zero');
    const zero = git(dir, 'rev-parse', 'HEAD');
    await writeFile(join(dir, 'README.md'), 'two\n');
    git(dir, 'commit', '-qam', 'docs only');
    const docs = git(dir, 'rev-parse', 'HEAD');
    await writeFile(join(dir, 'm', 'a.yaml'), 'kind: Workspace\nprune: true\n');
    git(dir, 'commit', '-qam', 'a manifest edit');
    const edit = git(dir, 'rev-parse', 'HEAD');
    const covers = (ref: string | undefined, last: string | undefined) =>
      scopedPlanCovers(ref === undefined ? undefined : { ref: 'main', commit: ref }, last, {
        repoPaths: ['m'],
        folder: dir,
      });
    // No scope, or no last applied commit known, or the same commit: nothing to check.
    expect(await covers(undefined, zero)).toBeUndefined();
    expect(await covers(zero, undefined)).toBeUndefined();
    expect(await covers(edit, edit)).toBeUndefined();
    // Commits between them that left the manifests alone, whichever is newer.
    expect(await covers(docs, zero)).toBeUndefined();
    expect(await covers(zero, docs)).toBeUndefined();
    // REF with a manifest edit the last applied commit lacks (its apply failed): never read, never applied.
    expect(await covers(edit, docs)).toMatch(/not those of the last applied commit \(.{7}\).*may be not applied/);
    // Older REF whose manifests differ: a change REF..HEAD reverted is not in the scope.
    expect(await covers(zero, edit)).toMatch(/may be not applied/);
    // A commit the checkout lacks (a shallow clone): not known to be covered.
    expect(await covers('f'.repeat(40), zero)).toMatch(/fetch the history/);
  });
});
