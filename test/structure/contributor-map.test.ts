import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { fileGraph, SRC, type Graph } from './import-graph.js';

/**
 * src/README.md, the contributor's map, is checked against the code: the folders and
 * files it names exist, each arrow it draws is an import the code has, each import
 * between folders is drawn, no "never" is crossed, and `service` below the CLI means
 * the Wire files the map names. A map that drifts from the code fails here.
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const MAP = readFileSync(`${SRC}/README.md`, 'utf8');

/** BOTTOM is what any layer may import, as the map says: the vocabulary, text helpers, redaction, errors, version. */
const BOTTOM = ['domain', 'text', 'secrets', 'errors.ts', 'version.ts'];

/** block is the fenced `text` block under the heading `title`: one `from OP to...` line each, `#` comments dropped. */
function block(title: string, op: string): Map<string, string[]> {
  const section = MAP.split(`\n## ${title}\n`)[1]?.split('\n## ')[0] ?? '';
  const body = section.split('```text\n')[1]?.split('```')[0] ?? '';
  const lines = body.split('\n').filter((line) => line.trim() !== '');
  return new Map(
    lines.map((line) => {
      const [from, to = ''] = line.replace(/#.*/, '').split(op);
      return [(from ?? '').trim(), to.trim().split(/\s+/).filter(Boolean)];
    }),
  );
}

/** layerOf is the layer of a file named relative to src/: its top folder, the file itself at the top (cli.ts is the CLI's). */
function layerOf(file: string): string {
  if (file === 'cli.ts') return 'cli';
  return file.includes('/') ? (file.split('/')[0] ?? '') : file;
}

/** folderEdges are the imports between layers, without the bottom. */
function folderEdges(graph: Graph): Map<string, Set<string>> {
  const edges = new Map<string, Set<string>>();
  for (const [from, targets] of graph) {
    for (const to of targets) {
      const [a, b] = [layerOf(from), layerOf(to)];
      if (a === b || BOTTOM.includes(b)) continue;
      edges.set(a, (edges.get(a) ?? new Set()).add(b));
    }
  }
  return edges;
}

const GRAPH = fileGraph();
const EDGES = folderEdges(GRAPH);
const ARROWS = block('Arrows', '->');
const NEVERS = block('Nevers', '-x');

describe('src/README.md, the contributor map', () => {
  it('names every folder of src/ in its layers, and only folders that exist', () => {
    const named = [...MAP.matchAll(/`src\/([a-z-]+)\/`/g)].map((match) => match[1] ?? '');
    const folders = readdirSync(SRC, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect([...new Set(named)].sort()).toEqual(folders.sort());
  });

  it('names only files and folders that exist', () => {
    const paths = [...MAP.matchAll(/`((?:src|test|examples)\/[\w./-]+)`/g)].map((match) => match[1] ?? '');
    const relative = [...MAP.matchAll(/`((?:cli|flows|kinds|service)\/[\w.-]+\.ts)`/g)].map(
      (match) => `src/${match[1] ?? ''}`,
    );
    expect(paths.length).toBeGreaterThan(30);
    expect([...paths, ...relative].filter((path) => !existsSync(`${ROOT}${path}`))).toEqual([]);
  });

  it('draws each import between folders, and each arrow it draws is an import the code has', () => {
    const drawn = [...ARROWS].flatMap(([from, targets]) => targets.map((to) => `${from} -> ${to}`)).sort();
    const real = [...EDGES].flatMap(([from, targets]) => [...targets].map((to) => `${from} -> ${to}`)).sort();
    expect(ARROWS.size).toBeGreaterThan(10);
    expect(drawn).toEqual(real);
  });

  it('draws a line for every folder but the bottom', () => {
    const folders = readdirSync(SRC, { withFileTypes: true }).filter((entry) => entry.isDirectory());
    const above = folders.map((entry) => entry.name).filter((name) => !BOTTOM.includes(name));
    expect([...ARROWS.keys()].sort()).toEqual(above.sort());
  });

  it('names nevers the code keeps', () => {
    const crossed = [...NEVERS].flatMap(([from, targets]) =>
      targets.flatMap((to) =>
        [...GRAPH]
          .filter(([file]) => layerOf(file) === from)
          .flatMap(([file, imported]) =>
            [...imported].filter((target) => layerOf(target) === to).map((target) => `${file} -> ${target}`),
          ),
      ),
    );
    expect(NEVERS.size).toBeGreaterThan(8);
    expect(crossed).toEqual([]);
  });

  it('means the Wire files it names by `service` below the CLI and the client', () => {
    const row = MAP.split('\n').find((line) => line.startsWith('| `src/service/`')) ?? '';
    const wire = [...row.matchAll(/`(service\/[\w-]+\.ts)`/g)].map((match) => match[1] ?? '');
    expect(wire.length).toBeGreaterThan(2);
    const beyond = [...GRAPH]
      .filter(([file]) => !['cli', 'service'].includes(layerOf(file)))
      .flatMap(([file, imported]) =>
        [...imported].filter((to) => to.startsWith('service/') && !wire.includes(to)).map((to) => `${file} -> ${to}`),
      );
    expect(beyond).toEqual([]);
  });
});
