import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toDesired } from '../../src/manifest/desired.js';
import { loadManifests, memoryManifestSource } from '../../src/manifest/load.js';
import { MAX_FILE_BYTES } from '../../src/manifest/parsed-file.js';
import { hasErrors } from '../../src/manifest/problems.js';
import { lineCount, malformedProblems } from './manifest-arbitraries.js';
import { DEEP, INVALID_UTF8, mutate, mutation, type Mutation } from './mutations.js';

/**
 * The loader fuzzed with mutated example manifests: whatever the bytes, a load ends
 * (within the test timeout) in documents and coded problems, never an exception.
 */

const EXAMPLES = fileURLToPath(new URL('../../examples/', import.meta.url));

function exampleFiles(directory: string): string[] {
  return readdirSync(directory)
    .sort()
    .flatMap((name) => {
      const path = join(directory, name);
      // Hidden folders (CI workflows) hold YAML that is not a manifest.
      if (statSync(path).isDirectory()) return name.startsWith('.') ? [] : exampleFiles(path);
      return name.endsWith('.yaml') || name.endsWith('.yml') ? [path] : [];
    });
}

const EXAMPLE_BYTES: ReadonlyMap<string, Uint8Array> = new Map(
  exampleFiles(EXAMPLES).map((path) => [
    relative(EXAMPLES, path).split('\\').join('/'),
    new Uint8Array(readFileSync(path)),
  ]),
);

/**
 * loadMutated loads the examples with `file` replaced by `bytes` (or that file
 * alone), and checks the outcome's shape.
 */
async function loadMutated(file: string, bytes: Uint8Array, alone = false): Promise<void> {
  const files: Record<string, Uint8Array> = alone ? {} : Object.fromEntries(EXAMPLE_BYTES);
  files[file] = bytes;
  const result = await loadManifests(alone ? [file] : ['.'], memoryManifestSource(files));
  const lines = new Map(Object.entries(files).map(([path, content]) => [path, lineCount(content)]));
  expect(malformedProblems(result, lines), file).toEqual([]);
  if (!hasErrors(result.problems)) expect(() => toDesired(result.documents)).not.toThrow();
}

describe('the loader on mutated examples', () => {
  it('has examples to mutate', () => {
    expect(EXAMPLE_BYTES.size).toBeGreaterThan(5);
  });

  it('never throws on random stacks of line and byte mutations', async () => {
    const files = [...EXAMPLE_BYTES.keys()];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...files),
        fc.array(mutation, { minLength: 1, maxLength: 4 }),
        async (file, changes) => {
          const original = EXAMPLE_BYTES.get(file) ?? new Uint8Array();
          await loadMutated(file, changes.reduce(mutate, original));
        },
      ),
      { numRuns: 150, seed: 314159 },
    );
  });

  it('applies every kind of mutation to every example file', async () => {
    const kinds: Mutation[] = [
      { type: 'delete-line', at: 3 },
      { type: 'duplicate-line', at: 2 },
      { type: 'swap-lines', at: 1, other: 4 },
      { type: 'insert-tab', at: 7 },
      { type: 'anchor', at: 2 },
      { type: 'alias', at: 5 },
      { type: 'merge', at: 4 },
      { type: 'binary-tag', at: 3 },
      { type: 'nul', at: 11 },
      { type: 'truncate', at: 40 },
      ...INVALID_UTF8.map((bytes, at) => ({ type: 'invalid-utf8' as const, at: at * 13, bytes })),
    ];
    for (const file of EXAMPLE_BYTES.keys()) {
      for (const change of kinds)
        await loadMutated(file, mutate(EXAMPLE_BYTES.get(file) ?? new Uint8Array(), change), true);
    }
  });

  it('reports nesting 10,000 levels deep, in flow and block style, as problems', async () => {
    const [file = ''] = EXAMPLE_BYTES.keys();
    const original = EXAMPLE_BYTES.get(file) ?? new Uint8Array();
    for (const type of ['deep-flow', 'deep-block'] as const) {
      const bytes = mutate(original, { type, at: 2, size: DEEP });
      await loadMutated(file, bytes);
      const result = await loadManifests([file], memoryManifestSource({ [file]: bytes }));
      expect(hasErrors(result.problems), type).toBe(true);
    }
    const brackets = new TextEncoder().encode(`kind: RecordingView\nname: ${'['.repeat(DEEP)}\n`);
    const unclosed = await loadManifests(['deep.yaml'], memoryManifestSource({ 'deep.yaml': brackets }));
    expect(unclosed.problems.map((problem) => problem.code)).toContain('yaml.syntax');
  });

  it('reads a very long line, and refuses a file over the size limit unread', async () => {
    const [file = ''] = EXAMPLE_BYTES.keys();
    const original = EXAMPLE_BYTES.get(file) ?? new Uint8Array();
    await loadMutated(file, mutate(original, { type: 'long-line', at: 1, size: 10_000 }));
    const huge = new Uint8Array(MAX_FILE_BYTES + 1).fill(0x61);
    const result = await loadManifests(['huge.yaml'], memoryManifestSource({ 'huge.yaml': huge }));
    expect(result.problems.map((problem) => problem.code)).toEqual(['file.too-large']);
  });

  it('reports a merge key given a scalar, a !!binary name and a misused alias at their lines', async () => {
    const cases: [string, string, number][] = [
      ['kind: Workspace\nprune: false\n<<: 0\n', 'yaml.merge', 3],
      ['kind: RecordingView\nname: !!binary "%%%"\n', 'yaml.unsupported-type', 2],
      [
        'kind: RecordingView\nname: x\ncolumns: &c [{type: Default, columnId: title}]\nsort: *c\n',
        'schema.required',
        3,
      ],
    ];
    for (const [text, code, line] of cases) {
      const result = await loadManifests(['m.yaml'], memoryManifestSource({ 'm.yaml': text }));
      expect(
        result.problems.map((problem) => [problem.code, problem.line]),
        text,
      ).toContainEqual([code, line]);
    }
  });
});
