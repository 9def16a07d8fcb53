import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { writeSplicedFiles } from '../../src/export/pull-files.js';
import { finishInterruptedPull, NODE_PULL_FILE_SYSTEM, type PullFileSystem } from '../../src/export/pull-journal.js';

/**
 * pull killed part-way converges (README, "viewctl pull"): a crash at any write leaves
 * the old files, or the new ones, or a state the next pull completes before it reads a
 * manifest. The crash is a file system that stops doing anything after its Nth write,
 * as SIGKILL would: no tidying up after it either.
 */

const folders: string[] = [];
afterEach(async () => {
  for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
});

async function scratch(): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'viewctl-pull-journal-'));
  folders.push(folder);
  return folder;
}

/** The manifests of a pull that renames a view: its document and the pins documents that name it change together. */
const FILES = ['views/deals/pipeline.yaml', 'pins/adam.yaml', 'pins/mia.yaml', 'pins/zoe.yaml', 'workspace.yaml'];

async function manifests(): Promise<string> {
  const root = await scratch();
  for (const file of FILES) {
    await mkdir(join(root, 'manifests', file, '..'), { recursive: true });
    await writeFile(join(root, 'manifests', file), `old ${file}\n`);
  }
  return root;
}

/** dying is the node file system until `after` writes were made; then every call throws and does nothing. */
function dying(after: number): PullFileSystem & { died(): boolean } {
  let left = after;
  const step = async <T>(run: () => Promise<T>): Promise<T> => {
    if (left <= 0) throw new Error('killed');
    left -= 1;
    return run();
  };
  return {
    writeFile: (path, text, mode) => step(() => NODE_PULL_FILE_SYSTEM.writeFile(path, text, mode)),
    rename: (from, to) => step(() => NODE_PULL_FILE_SYSTEM.rename(from, to)),
    remove: (path) => step(() => NODE_PULL_FILE_SYSTEM.remove(path)),
    died: () => left <= 0,
  };
}

async function contents(root: string, files: readonly string[]): Promise<string[]> {
  return Promise.all(files.map((file) => readFile(join(root, 'manifests', file), 'utf8')));
}

/** allFiles lists every file below `folder`, hidden ones included. */
async function allFiles(folder: string): Promise<string[]> {
  return (await readdir(folder, { recursive: true, withFileTypes: true }))
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(folder.length + 1))
    .sort();
}

describe('pull replaces its files through a journal', () => {
  it('leaves, killed at any write, the old files or the new, or a state the next pull finishes: never a mix, never litter', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 16 }),
        fc.subarray(FILES, { minLength: 1 }),
        async (after, changed) => {
          const root = await manifests();
          const texts = new Map(changed.map((file) => [`manifests/${file}`, `new ${file}\n`]));
          const fs = dying(after);
          await writeSplicedFiles(texts, root, { roots: ['manifests'], fs }).catch(() => undefined);
          const old = changed.map((file) => `old ${file}\n`);
          const fresh = changed.map((file) => `new ${file}\n`);
          // The next pull, given the manifests folder or any file or folder in it, first finishes what the crash cut short.
          await finishInterruptedPull([join('manifests', changed[0] ?? '')], root);
          const now = await contents(root, changed);
          expect([old, fresh]).toContainEqual(now);
          if (!fs.died()) expect(now).toEqual(fresh);
          // Nothing is left beside the manifests once a pull ran on their folder: no temporary, no journal.
          await finishInterruptedPull(['manifests'], root);
          expect(await allFiles(join(root, 'manifests'))).toEqual([...FILES].sort());
        },
      ),
      { numRuns: 60 },
    );
  });

  it('keeps each file its mode: a file at 600 stays 600', async () => {
    const root = await manifests();
    await chmod(join(root, 'manifests/pins/mia.yaml'), 0o600);
    await writeSplicedFiles(new Map([['manifests/pins/mia.yaml', 'new\n']]), root, { roots: ['manifests'] });
    expect((await stat(join(root, 'manifests/pins/mia.yaml'))).mode & 0o777).toBe(0o600);
    expect(await readFile(join(root, 'manifests/pins/mia.yaml'), 'utf8')).toBe('new\n');
  });

  it('never writes through a linked sub-folder out of the manifests folder, and then writes nothing', async () => {
    const root = await manifests();
    const outside = join(root, 'elsewhere');
    await mkdir(outside);
    await writeFile(join(outside, 'x.yaml'), 'outside\n');
    await symlink(outside, join(root, 'manifests/linked'));
    const error = await writeSplicedFiles(
      new Map([
        ['manifests/pins/adam.yaml', 'new\n'],
        ['manifests/linked/x.yaml', 'new\n'],
      ]),
      root,
      { roots: ['manifests'] },
    ).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toMatchObject({ code: 'pull.write-failed' });
    expect((error as Error).message).toMatch(
      /^cannot write manifests\/linked\/x\.yaml: its folder is reached through a link to .*elsewhere, outside .*manifests; viewctl never writes through a linked folder; no file was written/,
    );
    expect(await readFile(join(outside, 'x.yaml'), 'utf8')).toBe('outside\n');
    expect(await readFile(join(root, 'manifests/pins/adam.yaml'), 'utf8')).toBe('old pins/adam.yaml\n');
    expect(await allFiles(join(root, 'manifests/pins'))).toEqual(['adam.yaml', 'mia.yaml', 'zoe.yaml']);
  });

  it('ignores a journal that names files out of its folder: a forged one cannot move files elsewhere', async () => {
    const root = await manifests();
    await writeFile(join(root, 'secret.txt'), 'secret\n');
    await writeFile(
      join(root, 'manifests/.viewctl-pull.json'),
      JSON.stringify({ viewctlPull: 1, renames: [['workspace.yaml', '../secret.txt']] }),
    );
    expect(await finishInterruptedPull(['manifests'], root)).toEqual([]);
    expect(await readFile(join(root, 'secret.txt'), 'utf8')).toBe('secret\n');
    expect(await readFile(join(root, 'manifests/workspace.yaml'), 'utf8')).toBe('old workspace.yaml\n');
  });
});
