import { describe, expect, it } from 'vitest';
import { fileGraph, type Graph } from './import-graph.js';

/**
 * The CLI parses flags, calls one flow and renders its result (src/README.md): it
 * imports the flows, the renderers, its own files (connection, option parsing, io,
 * output, interrupts, progress), the client and the Wire for the connection, and the
 * shared vocabulary; the emulator only where a command starts one. Loading manifests,
 * planning, applying, exporting and the live state are a flow's steps, never the CLI's.
 * A flow in turn knows no command line and renders nothing. Type-only imports count:
 * a type the CLI needs is re-exported by the flow that answers it.
 */

/** CLI_MAY_IMPORT are the parts of src/ any file of the CLI (src/cli/, src/cli.ts) may import. */
const CLI_MAY_IMPORT = [
  'cli/',
  'cli.ts',
  'flows/',
  'render/',
  'service/',
  'domain/',
  'text/',
  'secrets/',
  'errors.ts',
  'version.ts',
];

/** EMULATOR_STARTERS are the CLI files that start the emulator: `viewctl emulator`, and `--emulator` of the connection. */
const EMULATOR_STARTERS = ['cli/emulator-command.ts', 'cli/connection.ts'];

/** CLI_NEVER are the parts the CLI never imports (the house's nevers): named so a failure says which was crossed. */
const CLI_NEVER = ['manifest/', 'apply/', 'export/', 'state/', 'plan/', 'kinds/'];

const within = (path: string, parts: readonly string[]): boolean =>
  parts.some((part) => path === part || (part.endsWith('/') && path.startsWith(part)));

/** cliCrossings lists each import of a CLI file outside what the CLI may import, as `from → to`. */
function cliCrossings(graph: Graph): string[] {
  return [...graph]
    .filter(([from]) => within(from, ['cli/', 'cli.ts']))
    .flatMap(([from, targets]) =>
      [...targets]
        .filter(
          (to) => !within(to, CLI_MAY_IMPORT) && !(to.startsWith('emulator/') && EMULATOR_STARTERS.includes(from)),
        )
        .map((to) => `${from} → ${to}`),
    );
}

/** flowCrossings lists each import of a flow into the CLI or the renderers. */
function flowCrossings(graph: Graph): string[] {
  return [...graph]
    .filter(([from]) => from.startsWith('flows/'))
    .flatMap(([from, targets]) =>
      [...targets].filter((to) => within(to, ['cli/', 'cli.ts', 'render/'])).map((to) => `${from} → ${to}`),
    );
}

const FILES = fileGraph();

describe('the CLI', () => {
  it('imports only the flows, the renderers, its own files, the client and the shared vocabulary', () => {
    expect(cliCrossings(FILES)).toEqual([]);
  });

  it('never imports the manifests, apply, export, the live state, the plan or the kinds, even for a type', () => {
    const never = cliCrossings(FILES).filter((crossing) => within(crossing.split(' → ')[1] ?? '', CLI_NEVER));
    expect(never).toEqual([]);
  });

  it('calls a flow from every command but the emulator', () => {
    const commands = [...FILES.keys()].filter((file) => /^cli\/[a-z-]+-command\.ts$/.test(file));
    const direct = commands.filter(
      (file) =>
        file !== 'cli/emulator-command.ts' && ![...(FILES.get(file) ?? [])].some((to) => to.startsWith('flows/')),
    );
    expect(commands.length).toBeGreaterThan(6);
    expect(direct).toEqual([]);
  });
});

describe('the flows', () => {
  it('never import the CLI or the renderers: a flow knows no command line and returns data', () => {
    expect(flowCrossings(FILES)).toEqual([]);
    expect([...FILES.keys()].filter((file) => file.startsWith('flows/')).length).toBeGreaterThan(10);
  });
});

describe('the crossing finders', () => {
  const graph: Graph = new Map([
    ['cli/plan-command.ts', new Set(['flows/plan-manifests.ts', 'render/render-plan.ts', 'cli/io.ts'])],
    ['cli/bad-command.ts', new Set(['manifest/load.ts', 'plan/types.ts', 'emulator/server.ts'])],
    ['cli/connection.ts', new Set(['emulator/server.ts', 'service/client.ts'])],
    ['cli.ts', new Set(['cli/run.ts', 'state/types.ts'])],
    ['flows/one.ts', new Set(['manifest/load.ts', 'render/json.ts', 'cli/io.ts'])],
  ]);

  it('name every import of the CLI outside its list, the emulator outside its starters, and a flow into the CLI or renderers', () => {
    expect(cliCrossings(graph)).toEqual([
      'cli/bad-command.ts → manifest/load.ts',
      'cli/bad-command.ts → plan/types.ts',
      'cli/bad-command.ts → emulator/server.ts',
      'cli.ts → state/types.ts',
    ]);
    expect(flowCrossings(graph)).toEqual(['flows/one.ts → render/json.ts', 'flows/one.ts → cli/io.ts']);
  });
});
