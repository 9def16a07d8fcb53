import { execFileSync } from 'node:child_process';
import { symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { appliedManifestsRecord, appliedPlanRecord, type ManifestsApplied } from '../../src/flows/applied-record.js';
import { manifestsHead } from '../../src/manifest/git-source.js';
import { manifestTrees } from '../../src/manifest/git-trees.js';
import { nodeManifestSource } from '../../src/manifest/load.js';
import { loadDesired } from '../../src/manifest/load-desired.js';
import { desiredDigest } from '../../src/plan/desired-digest.js';
import { scratchDir } from '../support/cli.js';

/** What an apply that exited 0 records as last applied: the commit, the digest of its desired state and its paths, only for a complete apply. */

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

/** repository makes a git repository of `files`, committed, and answers its folder. */
async function repository(files: Record<string, string>): Promise<string> {
  const made = await scratchDir(files);
  cleanups.push(made.cleanup);
  git(made.dir, 'init', '-q');
  git(made.dir, 'add', '-A');
  git(made.dir, 'commit', '-qm', 'one');
  return made.dir;
}

/** applyOf is an apply of `paths` in `dir` that read `files` (relative to it), with the files as git then stood. */
async function applyOf(dir: string, paths: string[], files: string[], targeted = false): Promise<ManifestsApplied> {
  return {
    paths,
    cwd: dir,
    targeted,
    read: await manifestsHead(paths, dir),
    files: files.map((file) => join(dir, file)),
    digest: DIGEST,
  };
}

const DIGEST = 'd'.repeat(64);

describe('appliedManifestsRecord', () => {
  it('records the commit the manifests were read at, with the digest and the paths, and nothing when HEAD moved between reading them and the end of the apply', async () => {
    const dir = await repository({ 'm/a.yaml': 'kind: Workspace\n' });
    const apply = await applyOf(dir, ['m'], ['m/a.yaml']);
    expect(await appliedManifestsRecord(apply, undefined)).toEqual({
      applied: { commit: git(dir, 'rev-parse', 'HEAD'), digest: DIGEST, paths: ['m'] },
    });
    // A commit lands while the apply runs: the files applied are the first commit's, not HEAD's.
    await writeFile(join(dir, 'm', 'a.yaml'), 'kind: Workspace\nprune: true\n');
    git(dir, 'commit', '-qam', 'two');
    expect(await appliedManifestsRecord(apply, undefined)).toMatchObject({ why: expect.stringContaining('moved') });
  });

  it('records nothing for a --target apply, or one of part of the paths last applied; a wider or other set of paths is recorded', async () => {
    const dir = await repository({ 'm/a.yaml': 'kind: Workspace\n', 'm/pins/b.yaml': 'kind: Workspace\n' });
    expect(await appliedManifestsRecord(await applyOf(dir, ['m'], ['m/a.yaml'], true), undefined)).toEqual({
      why: 'a --target apply carries out only part of the manifests',
    });
    const part = await applyOf(dir, ['m/pins/b.yaml'], ['m/pins/b.yaml']);
    expect(await appliedManifestsRecord(part, ['m'])).toEqual({
      why: 'the apply read only part of the manifests last applied (m/pins/b.yaml of m)',
    });
    expect(await appliedManifestsRecord(await applyOf(dir, ['m'], ['m/a.yaml']), ['m/pins'])).toMatchObject({
      applied: { paths: ['m'] },
    });
    expect(await appliedManifestsRecord(await applyOf(dir, ['m'], ['m/a.yaml']), ['m'])).toMatchObject({
      applied: { paths: ['m'] },
    });
  });

  it('records nothing when a file read is not what git tracks at HEAD (ignored, or read through a link out of the repository)', async () => {
    const dir = await repository({ 'm/a.yaml': 'kind: Workspace\n', '.gitignore': '*.local.yaml\n' });
    await writeFile(join(dir, 'm', 'b.local.yaml'), 'kind: Workspace\n');
    expect(await appliedManifestsRecord(await applyOf(dir, ['m'], ['m/a.yaml', 'm/b.local.yaml']), undefined)).toEqual({
      why: 'm/b.local.yaml is not a file git tracks at HEAD (git ignores it)',
    });
    const outside = await scratchDir({ 'c.yaml': 'kind: Workspace\n' });
    cleanups.push(outside.cleanup);
    await symlink(join(outside.dir, 'c.yaml'), join(dir, 'm', 'c.yaml'));
    git(dir, 'add', 'm/c.yaml');
    git(dir, 'commit', '-qm', 'a link out');
    expect(await appliedManifestsRecord(await applyOf(dir, ['m'], ['m/a.yaml', 'm/c.yaml']), undefined)).toEqual({
      why: 'm/c.yaml is not a file git tracks at HEAD (read through a link out of the repository)',
    });
  });
});

describe('appliedPlanRecord', () => {
  it("records HEAD with the digest of HEAD's manifests loaded from git, the same as loaded from disk", async () => {
    const dir = await repository({ 'm/workspace.yaml': 'kind: Workspace\nprune: false\n' });
    const trees = await manifestTrees(['m'], dir);
    if (trees === undefined) throw new Error('no trees');
    const advance = await appliedPlanRecord({ manifests: trees }, dir, undefined);
    const { desired } = await loadDesired(['m'], nodeManifestSource(dir));
    expect(advance).toEqual({
      applied: { commit: git(dir, 'rev-parse', 'HEAD'), digest: desiredDigest(desired), paths: ['m'] },
    });
    expect(await appliedPlanRecord({ manifests: trees, targets: ['views'] }, dir, undefined)).toEqual({
      why: 'a --target plan carries out only part of the manifests',
    });
  });
});

describe('scopedPlanCovers', () => {
  it("lets a plan scoped to --base REF advance only when REF's manifests are the last applied commit's", async () => {
    const { scopedPlanCovers } = await import('../../src/flows/applied-record.js');
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
