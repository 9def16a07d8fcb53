import { describe, expect, it } from 'vitest';
import { cycles, fileGraph, folderGraphs } from './import-graph.js';

/**
 * No import circle at any level: between files, and between sibling folders at every
 * depth of src/. Type-only and dynamic imports count: a circle through a type is
 * still two modules that cannot be read, moved or tested one without the other. A
 * type both sides need lives in a leaf module both import.
 */

const FILES = fileGraph();

/**
 * The emulator is a second, independent implementation of the service: it may use the
 * shared vocabulary (src/domain, src/text, src/errors.ts) and nothing of the product
 * (manifest, kinds, plan, state, service, apply, render, cli, export), so a mistake in
 * the product's schemas or kinds cannot be repeated by the emulator.
 */
const EMULATOR_MAY_IMPORT = ['emulator/', 'domain/', 'text/', 'errors.ts'];

describe('imports in src/', () => {
  it('form no circle between files', () => {
    expect(cycles(FILES).map((cycle) => cycle.join(' → '))).toEqual([]);
  });

  it('form no circle between sibling folders, at any depth', () => {
    const circles = [...folderGraphs(FILES).values()].flatMap((graph) =>
      cycles(graph).map((cycle) => cycle.join(' → ')),
    );
    expect(circles).toEqual([]);
  });

  it('lead from the emulator only to the shared vocabulary', () => {
    const emulator = [...FILES].filter(([from]) => from.startsWith('emulator/'));
    const crossing = emulator.flatMap(([from, targets]) =>
      [...targets]
        .filter((to) => !EMULATOR_MAY_IMPORT.some((allowed) => to === allowed || to.startsWith(allowed)))
        .map((to) => `${from} → ${to}`),
    );
    expect(crossing).toEqual([]);
    // Not vacuous: the emulator's files were found.
    expect(emulator.length).toBeGreaterThan(40);
  });
});

describe('the circle finder', () => {
  it('names every circle once, including two that share a file, and ignores a chain', () => {
    const graph = new Map([
      ['a.ts', new Set(['b.ts', 'c.ts'])],
      ['b.ts', new Set(['a.ts'])],
      ['c.ts', new Set(['a.ts', 'd.ts'])],
      ['d.ts', new Set(['e.ts'])],
      ['e.ts', new Set<string>()],
    ]);
    expect(cycles(graph)).toEqual([
      ['a.ts', 'b.ts', 'a.ts'],
      ['a.ts', 'c.ts', 'a.ts'],
    ]);
  });

  it('compares sibling folders, not a folder with the files that compose it', () => {
    const graph = new Map([
      ['x/one.ts', new Set(['x/y/two.ts', 'x/z/three.ts'])],
      ['x/y/two.ts', new Set(['x/one.ts', 'x/z/three.ts'])],
      ['x/z/three.ts', new Set(['x/y/deep/four.ts'])],
      ['x/y/deep/four.ts', new Set<string>()],
    ]);
    expect([...folderGraphs(graph)].map(([parent, folders]) => [parent, cycles(folders)])).toEqual([
      ['x', [['x/y/', 'x/z/', 'x/y/']]],
    ]);
  });
});
