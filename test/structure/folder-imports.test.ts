import { relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importsOf, sourceFiles, SRC } from './import-graph.js';

/**
 * The house drawn from imports: folders of src/ form layers (domain and text at the
 * bottom, then state, kinds, manifest, plan, render, apply, the flows, the CLI on top),
 * so a folder never imports one that imports it back. Read from the sources, not
 * declared (import-graph.ts: type-only and dynamic imports count).
 */

/** folderOf is a file's top folder under src/ ('' for files at the top). */
function folderOf(file: string): string {
  const parts = relative(SRC, file).split(sep);
  return parts.length > 1 ? (parts[0] ?? '') : '';
}

const FILES = sourceFiles();
const EDGES = new Map<string, Set<string>>();
for (const file of FILES) {
  const from = folderOf(file);
  for (const target of importsOf(file)) {
    const to = folderOf(target);
    if (from === '' || to === '' || from === to) continue;
    EDGES.set(from, (EDGES.get(from) ?? new Set()).add(to));
  }
}

/** cycleFrom returns a path of folders that leads back to `start`, if any. */
function cycleFrom(start: string): string[] | undefined {
  const stack: string[][] = [[start]];
  const seen = new Set<string>();
  while (stack.length > 0) {
    const path = stack.pop() ?? [];
    const last = path[path.length - 1] ?? '';
    for (const next of EDGES.get(last) ?? []) {
      if (next === start) return [...path, next];
      if (!seen.has(next)) {
        seen.add(next);
        stack.push([...path, next]);
      }
    }
  }
  return undefined;
}

describe('imports between the folders of src/', () => {
  it('form no circle', () => {
    const cycles = [...EDGES.keys()].flatMap((folder) => {
      const cycle = cycleFrom(folder);
      return cycle === undefined ? [] : [cycle.join(' → ')];
    });
    expect(cycles).toEqual([]);
  });

  it('keep kinds below plan, and state and manifest apart', () => {
    // A kind answers its reads, steps, hashes and checks from what lies below: nothing above it.
    expect(
      [...(EDGES.get('kinds') ?? [])].filter((folder) =>
        ['plan', 'render', 'apply', 'cli', 'export', 'flows'].includes(folder),
      ),
    ).toEqual([]);
    expect(EDGES.get('state')?.has('manifest') ?? false).toBe(false);
    expect(EDGES.get('manifest')?.has('state') ?? false).toBe(false);
  });

  it('keep the flows between the CLI and the core: only the CLI calls a flow, and a flow knows no command line', () => {
    const callers = [...EDGES].filter(([, targets]) => targets.has('flows')).map(([folder]) => folder);
    expect(callers).toEqual(['cli']);
    expect(EDGES.get('flows')?.has('cli') ?? false).toBe(false);
  });

  it('never has one CLI command file import another', () => {
    const commands = FILES.filter((file) => folderOf(file) === 'cli' && file.endsWith('-command.ts'));
    const crossing = commands.flatMap((file) =>
      importsOf(file)
        .filter((target) => target !== file && target.endsWith('-command.ts'))
        .map((target) => `${relative(SRC, file)} → ${relative(SRC, target)}`),
    );
    expect(crossing).toEqual([]);
  });
});
