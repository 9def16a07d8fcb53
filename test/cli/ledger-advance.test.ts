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
  return execFileSync('git', ['-c', 'user.email=t@acme.test', '-c', 'user.name=T', ...args], { cwd, encoding: 'utf8' }).trim();
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
  it('lets a plan scoped to --base REF advance only when REF is the last applied commit or an ancestor of it', async () => {
    const { scopedPlanCovers } = await import('../../src/cli/ledger-advance.js');
    const made = await scratchDir({ 'm/a.yaml': 'kind: Workspace\n' });
    cleanups.push(made.cleanup);
    const dir = made.dir;
    git(dir, 'init', '-q');
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', 'zero');
    const zero = git(dir, 'rev-parse', 'HEAD');
    git(dir, 'commit', '-q', '--allow-empty', '-m', 'one');
    const one = git(dir, 'rev-parse', 'HEAD');
    // No scope, or no last applied commit known: nothing to check.
    expect(await scopedPlanCovers(undefined, one, dir)).toBeUndefined();
    expect(await scopedPlanCovers({ ref: 'main', commit: one }, undefined, dir)).toBeUndefined();
    expect(await scopedPlanCovers({ ref: 'main', commit: one }, one, dir)).toBeUndefined();
    // REF older than the last applied: what was merged between them was applied.
    expect(await scopedPlanCovers({ ref: 'main', commit: zero }, one, dir)).toBeUndefined();
    // REF newer than the last applied (its apply failed): what REF merged was never applied, and the scoped plan did not read it.
    expect(await scopedPlanCovers({ ref: 'main', commit: one }, zero, dir)).toMatch(/not applied/);
  });
});
