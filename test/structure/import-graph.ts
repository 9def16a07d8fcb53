import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/**
 * The import graph of src/, read from the sources by TypeScript's own pre-processor
 * (so comments and strings never count): static `import` and `export ... from`,
 * side-effect imports, dynamic `import('...')` and `typeof import('...')`, type-only
 * imports included. Only relative specifiers are followed; packages are not src/.
 */

/** SRC is the absolute path of src/. */
export const SRC = fileURLToPath(new URL('../../src', import.meta.url));

/** sourceFiles lists every `.ts` file under `directory`, generated code included. */
export function sourceFiles(directory: string = SRC): string[] {
  return readdirSync(directory, { withFileTypes: true })
    .flatMap((entry) => {
      const path = join(directory, entry.name);
      if (entry.isDirectory()) return sourceFiles(path);
      return entry.name.endsWith('.ts') ? [path] : [];
    })
    .sort();
}

/** importsOf lists the files a source imports, as absolute `.ts` paths (relative specifiers only). */
export function importsOf(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  return importedFiles
    .map((imported) => imported.fileName)
    .filter((specifier) => specifier.startsWith('./') || specifier.startsWith('../'))
    .map((specifier) => resolve(dirname(file), specifier.replace(/\.js$/, '.ts')));
}

/** Graph maps each node to the nodes it imports. */
export type Graph = Map<string, Set<string>>;

/** fileGraph is the import graph of src/ by file, named relative to src/ (`cli/run.ts`). */
export function fileGraph(files: readonly string[] = sourceFiles()): Graph {
  const graph: Graph = new Map();
  for (const file of files) {
    graph.set(name(file), new Set(importsOf(file).map(name)));
  }
  return graph;
}

/** name is a file's path relative to src/, with forward slashes. */
export function name(file: string): string {
  return relative(SRC, file).split(sep).join('/');
}

/**
 * folderGraphs is the import graph between sibling folders, for every folder of src/
 * that has sub-folders: a sub-folder stands for every file under it, and files lying
 * directly in the parent are left out (a parent composes its parts). The key of each
 * graph is the parent folder (`''` for src/ itself).
 */
export function folderGraphs(files: Graph): Map<string, Graph> {
  const graphs = new Map<string, Graph>();
  for (const [from, targets] of files) {
    for (const to of targets) {
      const split = divergence(from, to);
      if (split === undefined) continue;
      const graph = graphs.get(split.parent) ?? new Map<string, Set<string>>();
      graph.set(split.from, (graph.get(split.from) ?? new Set()).add(split.to));
      graphs.set(split.parent, graph);
    }
  }
  return graphs;
}

// Where two files' folders part: their common parent and the sibling folder each lies
// in, or undefined when either lies directly in that parent (or both in one folder).
function divergence(from: string, to: string): { parent: string; from: string; to: string } | undefined {
  const a = from.split('/').slice(0, -1);
  const b = to.split('/').slice(0, -1);
  let common = 0;
  while (common < a.length && common < b.length && a[common] === b[common]) common += 1;
  if (common === a.length || common === b.length) return undefined;
  const parent = a.slice(0, common).join('/');
  const prefix = parent === '' ? '' : `${parent}/`;
  return { parent, from: `${prefix}${a[common] ?? ''}/`, to: `${prefix}${b[common] ?? ''}/` };
}

/**
 * cycles returns every circle of a graph, each once, as the list of its nodes with
 * the first repeated at the end (`a → b → a`): for each node, the shortest circle
 * through it, so two circles sharing a node are both named.
 */
export function cycles(graph: Graph): string[][] {
  const found = new Map<string, string[]>();
  for (const start of [...graph.keys()].sort()) {
    const cycle = shortestCycleThrough(graph, start);
    if (cycle === undefined) continue;
    const members = cycle.slice(0, -1);
    const key = [...members].sort().join('\0');
    if (!found.has(key)) found.set(key, rotateToSmallest(members));
  }
  return [...found.values()]
    .map((members) => [...members, members[0] ?? ''])
    .sort((x, y) => x.join().localeCompare(y.join()));
}

function shortestCycleThrough(graph: Graph, start: string): string[] | undefined {
  const previous = new Map<string, string>();
  const queue = [start];
  for (let index = 0; index < queue.length; index += 1) {
    const node = queue[index] ?? '';
    for (const next of [...(graph.get(node) ?? [])].sort()) {
      if (next === start) {
        const path = [node];
        while (path[0] !== start) path.unshift(previous.get(path[0] ?? '') ?? start);
        return [...path, start];
      }
      if (!previous.has(next)) {
        previous.set(next, node);
        queue.push(next);
      }
    }
  }
  return undefined;
}

function rotateToSmallest(members: string[]): string[] {
  const smallest = members.indexOf([...members].sort()[0] ?? '');
  return [...members.slice(smallest), ...members.slice(0, smallest)];
}
