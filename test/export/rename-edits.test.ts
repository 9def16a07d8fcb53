import { lstat, readFile, readdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ViewctlError } from '../../src/errors.js';
import { renameEdits } from '../../src/export/rename-edits.js';
import { writeAllOrNone } from '../../src/export/write-all-or-none.js';
import { loadManifests } from '../../src/manifest/load.js';
import { nodeManifestSource } from '../../src/manifest/source.js';
import { scratchDir } from '../support/cli.js';

/** What `viewctl rename` rewrites (rename-edits.ts), and how it writes the files (write-all-or-none.ts). */

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

async function folder(files: Record<string, string>): Promise<string> {
  const made = await scratchDir(files);
  cleanups.push(made.cleanup);
  return made.dir;
}

const FILES = {
  'views/pipeline.yaml': 'kind: DealView\nname: Pipeline\n---\nkind: DealView\nname: Stalled\n',
  'views/calls.yaml': 'kind: RecordingView\nname: Pipeline\n',
  'pins/ana.yaml':
    'kind: PinnedViews\nuserEmail: ana@acme.test\ndeals: [Pipeline, All deals]\nrecordings: [Pipeline]\n',
  'pins/sales.yaml':
    'kind: PinnedViews\nname: Sales\nusers: ["*@sales.acme.test"]\ndeals:\n  - All deals\n  - Pipeline\n',
};

async function documents(dir: string) {
  const loaded = await loadManifests(['.'], nodeManifestSource(dir));
  expect(loaded.problems.filter((problem) => problem.severity === 'error')).toEqual([]);
  return loaded.documents;
}

function refused(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof ViewctlError) return `${error.code}: ${error.message}`;
    throw error;
  }
  throw new Error('not refused');
}

describe('renameEdits', () => {
  it("rewrites the view document's name and every tab of its domain naming it, leaving other domains and kinds alone", async () => {
    const planned = renameEdits(await documents(await folder(FILES)), 'DealView', 'Pipeline', 'Pipeline (weekly)');
    expect(planned.edits.map((edit) => [edit.file, edit.index, edit.edits])).toEqual([
      ['views/pipeline.yaml', 0, [{ path: ['name'], value: 'Pipeline (weekly)' }]],
      ['pins/ana.yaml', 0, [{ path: ['deals', 0], value: 'Pipeline (weekly)' }]],
      ['pins/sales.yaml', 0, [{ path: ['deals', 1], value: 'Pipeline (weekly)' }]],
    ]);
    expect(planned.places.map((place) => `${place.file}:${String(place.line)}`)).toEqual([
      'views/pipeline.yaml:2',
      'pins/ana.yaml:3',
      'pins/sales.yaml:6',
    ]);
  });

  it("rewrites the old name in an include document's unpin list, which names views of every domain it lists", async () => {
    const dir = await folder({
      ...FILES,
      'pins/reps.yaml':
        'kind: PinnedViews\nname: Reps\nusers: ["*@reps.acme.test"]\nmode: include\ndeals: [All deals]\nunpin: [Pipeline]\n',
    });
    const planned = renameEdits(await documents(dir), 'DealView', 'Pipeline', 'Pipeline (weekly)');
    expect(planned.edits.find((edit) => edit.file === 'pins/reps.yaml')?.edits).toEqual([
      { path: ['unpin', 0], value: 'Pipeline (weekly)' },
    ]);
  });

  it('refuses, with the way out, an unknown kind or view, a name taken, the same name and an empty one', async () => {
    const docs = await documents(await folder(FILES));
    expect(refused(() => renameEdits(docs, 'Deal', 'Pipeline', 'X'))).toBe(
      'rename.unknown-kind: "Deal" is no kind of view',
    );
    expect(refused(() => renameEdits(docs, 'DealView', 'Pipe', 'X'))).toBe(
      'rename.unknown-view: no DealView document is named "Pipe"',
    );
    expect(refused(() => renameEdits(docs, 'DealView', 'Pipeline', 'Stalled'))).toBe(
      'rename.name-taken: DealView "Stalled" is already declared at views/pipeline.yaml:4: two views of one name would be refused',
    );
    expect(refused(() => renameEdits(docs, 'DealView', 'Pipeline', 'Pipeline'))).toBe(
      'rename.same-name: DealView "Pipeline" is already named so',
    );
    expect(refused(() => renameEdits(docs, 'DealView', 'Pipeline', ' '))).toMatch(/^rename\.bad-name: /);
  });
});

describe('writeAllOrNone', () => {
  it('replaces every file, or none when one is a link, leaving no temporary file behind', async () => {
    const dir = await folder({ 'a.yaml': 'a\n', 'target.yaml': 't\n' });
    await symlink(join(dir, 'target.yaml'), join(dir, 'b.yaml'));
    const rewrite = (name: string, before: string) => ({ path: join(dir, name), shown: name, before, after: 'new\n' });
    await expect(writeAllOrNone([rewrite('a.yaml', 'a\n'), rewrite('b.yaml', 't\n')])).rejects.toThrow(
      'cannot write b.yaml: it is not a regular file (a link?); no file was written',
    );
    expect(await readFile(join(dir, 'a.yaml'), 'utf8')).toBe('a\n');
    expect((await lstat(join(dir, 'b.yaml'))).isSymbolicLink()).toBe(true);
    await writeFile(join(dir, 'c.yaml'), 'c\n');
    await writeAllOrNone([rewrite('a.yaml', 'a\n'), rewrite('c.yaml', 'c\n')]);
    expect([await readFile(join(dir, 'a.yaml'), 'utf8'), await readFile(join(dir, 'c.yaml'), 'utf8')]).toEqual([
      'new\n',
      'new\n',
    ]);
    expect((await readdir(dir)).sort()).toEqual(['a.yaml', 'b.yaml', 'c.yaml', 'target.yaml']);
  });
});
