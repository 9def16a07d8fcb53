import { execFileSync } from 'node:child_process';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { gitManifestSource, resolveBase } from '../../src/manifest/git-source.js';
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
  return execFileSync('git', ['-c', 'user.email=t@acme.test', '-c', 'user.name=T', ...args], { cwd, encoding: 'utf8' }).trim();
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

describe('gitManifestSource', () => {
  it('serves the commit\'s manifests below the paths, as the loader reads a folder, files deleted since included', async () => {
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
    expect(result.documents.map((document) => [document.file, document.body['prune'] ?? document.body['userEmail']])).toEqual([
      ['repo/m/pins/ana.yaml', 'ana@acme.test'],
      ['repo/m/workspace.yaml', true],
    ]);
  });
});
