import { readdirSync, readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadManifests, type LoadResult } from '../../src/manifest/load.js';
import { memoryManifestSource } from '../../src/manifest/source.js';

const corpus = fileURLToPath(new URL('./corpus/bad/', import.meta.url));

/** Every file of the bad corpus (folders included), as in-memory files, plus clean and multi-document ones. */
function files(): Record<string, string | Uint8Array> {
  const all: Record<string, string | Uint8Array> = {};
  for (const entry of readdirSync(corpus)) {
    const entries = statSync(`${corpus}${entry}`).isDirectory() ? readdirSync(`${corpus}${entry}`).map((file) => `${entry}/${file}`) : [entry];
    for (const file of entries) all[`m/${file}`] = readFileSync(`${corpus}${file}`);
  }
  all['m/clean.yaml'] = 'kind: RecordingView\nname: Clean\nfilters:\n  sourceIn: [Call]\n---\n# nothing\n---\nkind: DealView\nname: &n Deals\n';
  all['m/not-utf8.yaml'] = Uint8Array.from([...Buffer.from('kind: DealView\nname: Caf'), 0xe9, 0x0a]);
  return all;
}

/** What a caller can observe of a load: problems, files, and each document with positions of its attributes and keys. */
function observed(result: LoadResult): unknown {
  return {
    problems: result.problems,
    files: result.files,
    documents: result.documents.map((document) => ({
      kind: document.kind,
      file: document.file,
      index: document.index,
      body: document.body,
      position: document.position,
      positions: ['', '/name', '/filters', '/filters/sourceIn/0', '/columns/1/type', '/missing/deeper'].map((pointer) => document.positionOf(pointer)),
    })),
  };
}

describe('parsing on a worker thread', () => {
  it('gives every problem, document and position one thread gives, in the same order', async () => {
    const source = memoryManifestSource(files());
    const oneThread = await loadManifests(['m'], source, { parallelFrom: Number.POSITIVE_INFINITY });
    // From two files on, the worker parses the first share of them.
    const withWorker = await loadManifests(['m'], source, { parallelFrom: 2 });
    expect(oneThread.documents.length).toBeGreaterThan(20);
    expect(oneThread.problems.length).toBeGreaterThan(40);
    expect(observed(withWorker)).toEqual(observed(oneThread));
  });
});
