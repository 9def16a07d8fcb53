import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadManifests } from '../../src/manifest/load.js';
import { memoryManifestSource, nodeManifestSource } from '../../src/manifest/source.js';

const made: string[] = [];
afterEach(async () => {
  await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function folder(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'viewctl-fs-'));
  made.push(dir);
  return dir;
}

describe('loading manifests from the filesystem', () => {
  it('reads a manifest linked into the folder (left out, prune would delete its view)', async () => {
    const dir = await folder();
    await mkdir(join(dir, 'shared'));
    await mkdir(join(dir, 'env'));
    await writeFile(join(dir, 'shared', 'calls.yaml'), 'kind: RecordingView\nname: Customer calls\n');
    await symlink(join('..', 'shared', 'calls.yaml'), join(dir, 'env', 'calls.yaml'));
    const result = await loadManifests(['env'], nodeManifestSource(dir));
    expect(result.problems).toEqual([]);
    expect(result.documents.map((document) => [document.file, document.body.name])).toEqual([
      ['env/calls.yaml', 'Customer calls'],
    ]);
  });

  it('follows linked folders once, so a link cycle cannot hang the walk', async () => {
    const dir = await folder();
    await mkdir(join(dir, 'm', 'sub'), { recursive: true });
    await writeFile(join(dir, 'm', 'a.yaml'), 'kind: RecordingView\nname: A\n');
    await symlink('..', join(dir, 'm', 'sub', 'up'));
    const result = await loadManifests(['m'], nodeManifestSource(dir));
    expect(result.documents.map((document) => document.file)).toEqual(['m/a.yaml']);
  });

  it('reports a dangling manifest link and a manifest-named FIFO in a folder, each by name, instead of skipping them', async () => {
    const dir = await folder();
    await mkdir(join(dir, 'm'));
    await writeFile(join(dir, 'm', 'a.yaml'), 'kind: RecordingView\nname: A\n');
    await symlink(join('..', 'gone', 'calls.yaml'), join(dir, 'm', 'calls.yaml'));
    await symlink(join('..', 'gone'), join(dir, 'm', 'notes.txt'));
    execFileSync('mkfifo', [join(dir, 'm', 'pipe.yml')]);
    const result = await loadManifests(['m'], nodeManifestSource(dir));
    expect(result.documents.map((document) => document.file)).toEqual(['m/a.yaml']);
    expect(result.problems.map((problem) => [problem.code, problem.file, problem.message])).toEqual([
      [
        'file.dangling-link',
        'm/calls.yaml',
        '"m/calls.yaml" is a symbolic link to "../gone/calls.yaml", which does not exist',
      ],
      ['file.not-regular', 'm/pipe.yml', '"m/pipe.yml" is a named pipe (FIFO), not a file viewctl can read'],
    ]);
  });

  it('says a device passed as a path is not a regular file (not "not found"), without reading it', async () => {
    const result = await loadManifests(['/dev/null'], nodeManifestSource('/'));
    expect(result.problems.map((problem) => [problem.code, problem.message])).toEqual([
      ['file.not-regular', '"dev/null" is a character device, not a file or folder viewctl can read'],
    ]);
  });

  it('reports a path the filesystem refuses as a problem at that path, never a crash', async () => {
    const dir = await folder();
    await writeFile(join(dir, 'file.yaml'), 'kind: RecordingView\nname: A\n');
    const result = await loadManifests(['file.yaml/inner.yaml'], nodeManifestSource(dir));
    expect(result.problems.map((problem) => [problem.code, problem.file])).toEqual([
      ['file.unreadable', 'file.yaml/inner.yaml'],
    ]);
    expect(result.problems[0]?.message).toContain('a part of the path is a file, not a folder');
  });
});

describe('YAML problems with precise codes', () => {
  it('names an alias without an anchor as such, at the alias', async () => {
    const source = memoryManifestSource({ 'a.yaml': 'kind: RecordingView\nname: X\nfilters:\n  labelIdIn: *labels\n' });
    const [problem] = (await loadManifests(['a.yaml'], source)).problems;
    expect(problem).toMatchObject({ code: 'yaml.unknown-alias', line: 4, column: 14 });
  });

  it('reports nesting too deep for the parser as yaml.too-deep', async () => {
    // Deep enough to exhaust the stack however warm the parser's code is: 800 levels did
    // in a fresh process, but not after other test files had the parser optimised.
    const source = memoryManifestSource({
      'a.yaml': `kind: RecordingView\nname: X\nfilters: ${'['.repeat(20_000)}${']'.repeat(20_000)}\n`,
    });
    const codes = (await loadManifests(['a.yaml'], source)).problems.map((problem) => problem.code);
    expect(codes).toEqual(['yaml.too-deep']);
  });

  it('reports yaml.too-deep once per document when the parser overflows its stack more than once', () => {
    // A larger stack lets the parser fail at two depths of one document (the build's
    // loader, in a process whose stack size this test sets).
    const script = `import { loadManifests, memoryManifestSource } from './dist/manifest/load.js';
      const text = 'kind: RecordingView\\nname: X\\nfilters: ' + '['.repeat(20000) + ']'.repeat(20000) + '\\n';
      const { problems } = await loadManifests(['a.yaml'], memoryManifestSource({ 'a.yaml': text + '---\\n' + text }));
      console.log(JSON.stringify(problems.map((problem) => [problem.code, problem.document])));`;
    const out = execFileSync(process.execPath, ['--stack-size=3000', '--input-type=module', '-e', script], {
      cwd: new URL('../..', import.meta.url),
      encoding: 'utf8',
    });
    expect(JSON.parse(out)).toEqual([
      ['yaml.too-deep', 0],
      ['yaml.too-deep', 1],
    ]);
  });

  it('keeps a name repeated thousands of times fast, each report naming a few other places', async () => {
    const list = Array.from({ length: 5000 }, () => 'a').join(', ');
    const source = memoryManifestSource({ 'p.yaml': `kind: PinnedViews\nuserEmail: a@b.co\nrecordings: [${list}]\n` });
    const { problems } = await loadManifests(['p.yaml'], source);
    expect(problems).toHaveLength(5000);
    expect(problems[0]?.message).toMatch(/also at p\.yaml:3:\d+, p\.yaml:3:\d+, p\.yaml:3:\d+ and 4996 more places$/);
  });
});
