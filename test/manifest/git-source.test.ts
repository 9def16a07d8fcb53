import { execFileSync } from 'node:child_process';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { gitManifestSource, manifestsHead, resolveBase } from '../../src/manifest/git-source.js';
import { loadManifests } from '../../src/manifest/load.js';
import { scratchDir } from '../support/cli.js';

/** The manifests at a git commit, read through git's plumbing and served to the loader like files on disk. */

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

async function scratch(files: Record<string, string>): Promise<string> {
  const made = await scratchDir(files);
  cleanups.push(made.cleanup);
  return made.dir;
}

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.email=t@acme.test', '-c', 'user.name=T', ...args], {
    cwd,
    encoding: 'utf8',
  }).trim();
}

describe('resolveBase', () => {
  it('refuses manifests outside any git repository', async () => {
    const dir = await scratch({ 'm/a.yaml': 'kind: Workspace\n' });
    await expect(resolveBase('HEAD', ['m'], dir)).rejects.toMatchObject({ code: 'usage.base-no-repository' });
  });

  it('refuses a REF that names no commit, an option-like REF included', async () => {
    const dir = await scratch({ 'a.yaml': 'kind: Workspace\n' });
    git(dir, 'init', '-q');
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', 'one');
    await expect(resolveBase('nope', ['.'], dir)).rejects.toMatchObject({ code: 'usage.base-not-a-commit' });
    await expect(resolveBase('--all', ['.'], dir)).rejects.toMatchObject({ code: 'usage.base-not-a-commit' });
    expect((await resolveBase('HEAD', ['.'], dir)).commit).toBe(git(dir, 'rev-parse', 'HEAD'));
  });
});

describe('manifestsHead', () => {
  it('answers the HEAD commit, clean only while no file below the manifest paths differs from it; undefined outside git', async () => {
    const dir = await scratch({ 'm/a.yaml': 'kind: Workspace\n', 'notes.txt': 'x\n' });
    expect(await manifestsHead(['m'], dir)).toBeUndefined();
    git(dir, 'init', '-q');
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', 'one');
    const commit = git(dir, 'rev-parse', 'HEAD');
    expect(await manifestsHead(['m'], dir)).toEqual({ commit, clean: true });
    // A change outside the manifest paths leaves them clean; an untracked manifest does not.
    await writeFile(join(dir, 'notes.txt'), 'y\n');
    expect(await manifestsHead(['m'], dir)).toEqual({ commit, clean: true });
    // Nor does what a run writes beside the manifests: a plan file, the sweep memory.
    await mkdir(join(dir, 'm', '.viewctl'), { recursive: true });
    await writeFile(join(dir, 'm', '.viewctl', 'ledger.json'), '{}\n');
    await writeFile(join(dir, 'm', 'plan.json'), '{}\n');
    expect(await manifestsHead(['m'], dir)).toEqual({ commit, clean: true });
    await writeFile(join(dir, 'm', 'b.yaml'), 'kind: Workspace\n');
    expect(await manifestsHead(['m'], join(dir))).toEqual({ commit, clean: false });
    await rm(join(dir, 'm', 'b.yaml'));
    await writeFile(join(dir, 'm', 'a.yaml'), 'kind: Workspace\nprune: true\n');
    expect(await manifestsHead(['.'], join(dir, 'm'))).toEqual({ commit, clean: false });
  });

  it('answers undefined when a manifest path lies outside the repository: nothing says those files were committed', async () => {
    const dir = await scratch({
      'repo/m/a.yaml': 'kind: Workspace\n',
      'loose/b.yaml': 'kind: PinnedViews\nuserEmail: ana@acme.test\ndeals: [All deals]\n',
    });
    const repo = join(dir, 'repo');
    git(repo, 'init', '-q');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-qm', 'one');
    expect(await manifestsHead(['repo/m'], dir)).toEqual({ commit: git(repo, 'rev-parse', 'HEAD'), clean: true });
    expect(await manifestsHead(['repo/m', 'loose'], dir)).toBeUndefined();
  });
});

describe('gitManifestSource', () => {
  it("serves the commit's manifests below the paths, as the loader reads a folder, files deleted since included", async () => {
    const dir = await scratch({
      'repo/m/workspace.yaml': 'kind: Workspace\nprune: true\n',
      'repo/m/pins/ana.yaml': 'kind: PinnedViews\nuserEmail: ana@acme.test\ndeals: [All deals]\n',
      'repo/m/.hidden/skip.yaml': 'kind: Workspace\n',
      'repo/m/notes.txt': 'not a manifest',
      'repo/other/outside.yaml': 'kind: Workspace\n',
    });
    const repo = join(dir, 'repo');
    git(repo, 'init', '-q');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-qm', 'base');
    await rm(join(repo, 'm/pins/ana.yaml'));
    await writeFile(join(repo, 'm/workspace.yaml'), 'kind: Workspace\nprune: false\n');
    const base = await resolveBase('HEAD', ['repo/m'], dir);
    const result = await loadManifests(['repo/m'], await gitManifestSource(base, ['repo/m'], dir));
    expect(result.problems).toEqual([]);
    expect(result.files).toEqual(['repo/m/pins/ana.yaml', 'repo/m/workspace.yaml']);
    expect(result.documents.map((document) => [document.file, document.body.prune ?? document.body.userEmail])).toEqual(
      [
        ['repo/m/pins/ana.yaml', 'ana@acme.test'],
        ['repo/m/workspace.yaml', true],
      ],
    );
  });
});
