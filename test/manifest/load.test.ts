import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { closestName, editDistance } from '../../src/text/suggest.js';
import { loadManifests } from '../../src/manifest/load.js';
import { memoryManifestSource, nodeManifestSource } from '../../src/manifest/source.js';
import type { Problem } from '../../src/manifest/types.js';

const codes = (problems: Problem[]) =>
  problems.map((problem) => `${problem.file}:${problem.line}:${problem.column} ${problem.code}`);

describe('loadManifests', () => {
  it('loads several documents per file with positions for any pointer', async () => {
    const source = memoryManifestSource({
      'views/a.yaml': [
        'kind: RecordingView',
        'name: Calls',
        'filters:',
        '  sourceIn: [Call, Zoom]',
        '---',
        '# a comment-only document is skipped',
        '---',
        'kind: DealView',
        'name: Deals',
        '',
      ].join('\n'),
    });
    const result = await loadManifests(['views'], source);
    expect(result.problems).toEqual([]);
    expect(result.files).toEqual(['views/a.yaml']);
    const [calls, deals] = result.documents;
    expect(calls?.kind).toBe('RecordingView');
    expect(calls?.index).toBe(0);
    expect(calls?.position).toEqual({ file: 'views/a.yaml', line: 1, column: 1 });
    expect(calls?.positionOf('/filters/sourceIn/1')).toEqual({ file: 'views/a.yaml', line: 4, column: 20 });
    // Absent: the closest existing ancestor.
    expect(calls?.positionOf('/filters/stateIn')).toEqual({ file: 'views/a.yaml', line: 4, column: 3 });
    expect(deals?.index).toBe(2);
    expect(deals?.position.line).toBe(8);
  });

  it('accepts an empty file and a file with a BOM', async () => {
    const result = await loadManifests(
      ['.'],
      memoryManifestSource({ 'empty.yaml': '', 'bom.yml': '\uFEFFkind: ContactView\nname: C\n', 'notes.txt': 'x' }),
    );
    expect(result.problems).toEqual([]);
    expect(result.files).toEqual(['bom.yml', 'empty.yaml']);
    expect(result.documents.map((document) => document.body.name)).toEqual(['C']);
  });

  it('reports every problem of every file, sorted by file, line and column', async () => {
    const source = memoryManifestSource({
      'b.yaml': 'kind: DealView\nname: D\nfilters: {stageIn: [x], stage: y}\n',
      'a.yaml': 'kind: Workspace\nprune: 1\ncreatorEmail: nope\n',
    });
    const result = await loadManifests(['b.yaml', 'a.yaml', 'gone.yaml'], source);
    expect(codes(result.problems)).toEqual([
      'a.yaml:2:8 schema.enum',
      'a.yaml:3:15 email.invalid',
      'b.yaml:3:25 schema.unknown-attribute',
      'gone.yaml:1:1 file.not-found',
    ]);
    expect(result.problems[2]).toMatchObject({ pointer: '/filters/stage', hint: 'did you mean "stageIn"?' });
  });

  it('reads a file named twice once', async () => {
    const result = await loadManifests(
      ['a.yaml', '.', './a.yaml'],
      memoryManifestSource({ 'a.yaml': 'kind: ContactView\nname: C\n' }),
    );
    expect(result.files).toEqual(['a.yaml']);
    expect(result.documents).toHaveLength(1);
  });

  it('stops an alias bomb with a clear error', async () => {
    const levels = ['a: &a [x,x,x,x,x,x,x,x,x,x]'];
    for (let level = 1; level < 20; level += 1) {
      levels.push(
        `l${level}: &l${level} [${Array(10)
          .fill(level === 1 ? '*a' : `*l${level - 1}`)
          .join(',')}]`,
      );
    }
    const result = await loadManifests(
      ['bomb.yaml'],
      memoryManifestSource({ 'bomb.yaml': `kind: RecordingView\n${levels.join('\n')}\n` }),
    );
    expect(codes(result.problems)).toEqual(['bomb.yaml:3:10 yaml.alias-limit']);
  });

  it('resolves positions through aliases and merge keys', async () => {
    const text = [
      'kind: RecordingView',
      'name: Aliased',
      'x-base: &base {sourceIn: [Call]}',
      'filters:',
      '  <<: *base',
      '  stateIn: [Bad]',
      '',
    ].join('\n');
    const result = await loadManifests(['a.yaml'], memoryManifestSource({ 'a.yaml': text }));
    expect(codes(result.problems)).toEqual(['a.yaml:3:1 schema.unknown-attribute', 'a.yaml:6:13 schema.enum']);
    expect(result.documents[0]?.body.filters).toEqual({ sourceIn: ['Call'], stateIn: ['Bad'] });
  });

  it('reports a missing required attribute at its parent and an unknown one at its key', async () => {
    const text = 'kind: RecordingView\nname: S\nsort:\n  - field: Insight\n    order: Asc\n    insigth: {fieldId: f}\n';
    const result = await loadManifests(['s.yaml'], memoryManifestSource({ 's.yaml': text }));
    expect(result.problems.map((problem) => [problem.code, problem.line, problem.column, problem.pointer])).toEqual([
      ['schema.required', 4, 5, '/sort/0/insight'],
      ['schema.unknown-attribute', 6, 5, '/sort/0/insigth'],
    ]);
  });

  it('allows one name in several documents when each binds its own viewId, and not otherwise', async () => {
    const bound = memoryManifestSource({
      'a.yaml': 'kind: RecordingView\nname: Same\nviewId: rv_1\n',
      'b.yaml': 'kind: RecordingView\nname: Same\nviewId: rv_2\n',
    });
    expect(codes((await loadManifests(['.'], bound)).problems)).toEqual([]);
    const half = memoryManifestSource({
      'a.yaml': 'kind: RecordingView\nname: Same\nviewId: rv_1\n',
      'b.yaml': 'kind: RecordingView\nname: Same\n',
    });
    expect(codes((await loadManifests(['.'], half)).problems)).toEqual([
      'a.yaml:2:7 view.duplicate-name',
      'b.yaml:2:7 view.duplicate-name',
    ]);
  });

  it('reports duplicate view names across files at both places', async () => {
    const source = memoryManifestSource({
      'a.yaml': 'kind: RecordingView\nname: Same\n',
      'b.yaml': 'kind: RecordingView\nname: Same\n---\nkind: DealView\nname: Same\n',
    });
    const result = await loadManifests(['.'], source);
    expect(codes(result.problems)).toEqual(['a.yaml:2:7 view.duplicate-name', 'b.yaml:2:7 view.duplicate-name']);
    expect(result.problems[0]?.message).toContain('b.yaml:2:7');
    expect(result.problems[1]?.message).toContain('a.yaml:2:7');
  });

  it('skips hidden folders and node_modules when walking, not when a file is named', async () => {
    const files = {
      '.github/workflows/ci.yml': 'on: push\n',
      'node_modules/x/a.yaml': 'kind: Nope\n',
      'views/a.yaml': 'kind: ContactView\nname: C\n',
    };
    expect((await loadManifests(['.'], memoryManifestSource(files))).files).toEqual(['views/a.yaml']);
    const named = await loadManifests(['.github/workflows/ci.yml'], memoryManifestSource(files));
    expect(codes(named.problems)).toEqual(['.github/workflows/ci.yml:1:1 schema.required']);
  });
});

describe('nodeManifestSource', () => {
  const root = mkdtempSync(join(tmpdir(), 'viewctl-manifests-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('lists manifests recursively and reports paths relative to the working directory', async () => {
    mkdirSync(join(root, 'views', 'deep'), { recursive: true });
    mkdirSync(join(root, '.git'));
    writeFileSync(join(root, 'views', 'a.yaml'), 'kind: ContactView\nname: A\n');
    writeFileSync(join(root, 'views', 'deep', 'b.yml'), 'kind: ContactView\nname: B\n');
    writeFileSync(join(root, 'views', 'readme.md'), '# not a manifest\n');
    writeFileSync(join(root, '.git', 'x.yaml'), 'kind: Nope\n');
    const result = await loadManifests(['views', 'missing'], nodeManifestSource(root));
    expect(result.files).toEqual(['views/a.yaml', 'views/deep/b.yml']);
    expect(codes(result.problems)).toEqual(['missing:1:1 file.not-found']);
    const absolute = await loadManifests([join(root, 'views', 'a.yaml')], nodeManifestSource(root));
    expect(absolute.files).toEqual(['views/a.yaml']);
  });
});

describe('did you mean', () => {
  it('suggests the closest name only when it is a plausible typo', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(closestName('colums', ['columns', 'filters', 'sort'])).toBe('columns');
    expect(closestName('recordingview', ['RecordingView', 'DealView'])).toBe('RecordingView');
    expect(closestName('Deployment', ['RecordingView', 'DealView', 'Workspace'])).toBeUndefined();
    expect(closestName('x', [])).toBeUndefined();
  });
});
