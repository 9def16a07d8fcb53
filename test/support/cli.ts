import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import type { CliIo } from '../../src/cli/io.js';
import { run } from '../../src/cli/run.js';
import { DOMAINS, type Domain } from '../../src/domain/domains.js';
import { isPublicSaved } from '../../src/domain/views.js';
import type { EmulatorData } from '../../src/emulator/model.js';
import { normalizeView } from '../../src/kinds/normalize.js';

/**
 * Helpers every test level shares: the CLI run in-process through `run()` (its real
 * top-level catch and redaction, streams captured), scratch folders of manifests, and
 * the duplicate names a race or a repeated create would leave in a workspace, and a
 * form of a workspace that runs under faults can be compared in.
 */

/** CliResult is what one CLI invocation printed and returned. */
export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * TEST_WAITS are the waits of an in-process run unless a test passes its own: backoff
 * ceilings of 20 ms doubling to 200 ms (instead of 500 ms to 10 s) and re-listings
 * after a lost create answer at 20, 100 and 300 ms (instead of 1, 4 and 10 s). Which
 * retries happen, and what apply concludes, is the same; only the waiting is shorter.
 */
export const TEST_WAITS: NonNullable<CliIo['waits']> = {
  backoff: { baseMs: 20, capMs: 200 },
  relistDelaysMs: [20, 100, 300],
};

/**
 * runInProcess runs `viewctl ARGS` through `run()` with captured streams and only the
 * given environment, waiting TEST_WAITS unless `waits` says otherwise (`{}`: the defaults).
 */
export function runInProcess(args: string[], options: InProcessOptions = {}): Promise<CliResult> {
  return runThrough(run, args, options);
}

/** InProcessOptions are what an in-process run is given instead of a process's. */
export interface InProcessOptions {
  env?: Record<string, string>;
  cwd?: string;
  stdin?: CliIo['stdin'];
  waits?: CliIo['waits'];
}

/**
 * runThrough runs `viewctl ARGS` through a given `run()`: the source's (runInProcess)
 * or the build's (test/e2e/harness.ts).
 */
export async function runThrough(
  runFn: typeof run,
  args: string[],
  options: InProcessOptions = {},
): Promise<CliResult> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out: string[] = [];
  const err: string[] = [];
  stdout.on('data', (chunk: Buffer) => out.push(chunk.toString()));
  stderr.on('data', (chunk: Buffer) => err.push(chunk.toString()));
  const stdin = options.stdin ?? new PassThrough().end();
  const waits = options.waits ?? TEST_WAITS;
  const code = await runFn(args, {
    stdout,
    stderr,
    stdin,
    env: { NO_COLOR: '1', ...options.env },
    cwd: options.cwd ?? process.cwd(),
    waits,
  });
  // Let the PassThrough streams deliver what was written last.
  await new Promise((resolve) => setImmediate(resolve));
  return { code, stdout: out.join(''), stderr: err.join('') };
}

/** quietIo is a CliIo whose output goes nowhere and whose input is empty: for a caller that prints its own account (the bench). */
export function quietIo(cwd: string): CliIo {
  const sink = (): Writable => new Writable({ write: (_chunk, _encoding, done) => done() });
  return { stdout: sink(), stderr: sink(), stdin: new PassThrough().end(), env: {}, cwd };
}

/** scratchDir writes `files` (relative path → text) into a fresh temporary folder. */
export async function scratchDir(
  files: Readonly<Record<string, string>> = {},
): Promise<{ dir: string; cleanup(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'viewctl-hardening-'));
  for (const [path, text] of Object.entries(files)) {
    const target = join(dir, path);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, text);
  }
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/**
 * duplicateNames lists, per domain, every name that more than one public saved view
 * carries: the state a race or a repeated create would leave behind.
 */
export function duplicateNames(data: EmulatorData): string[] {
  const found: string[] = [];
  for (const domain of DOMAINS) {
    const names = data.views[domain].filter(isPublicSaved).map((view) => view.name);
    const seen = new Set<string>();
    for (const name of names) {
      if (seen.has(name)) found.push(`${domain}: "${name}"`);
      seen.add(name);
    }
  }
  return [...new Set(found)];
}

/**
 * comparable is a workspace's views and pinned tabs by name, without the ids the
 * emulator picked, so that a run under faults can be compared with a fault-free one.
 */
export function comparable(data: EmulatorData): Record<Domain, unknown> {
  const out = {} as Record<Domain, unknown>;
  for (const domain of DOMAINS) {
    const views = data.views[domain];
    const nameOf = (id: string): string => views.find((view) => view.viewId === id)?.name ?? `missing ${id}`;
    out[domain] = {
      views: views
        .map((view) => ({
          ...normalizeView(domain, view),
          visibility: view.visibility,
          isDefault: view.isDefault,
          ownerId: view.ownerId,
        }))
        .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
      pinned: Object.fromEntries(
        Object.entries(data.pinned[domain])
          .sort(([a], [b]) => (a < b ? -1 : 1))
          .map(([user, ids]) => [user, ids.map(nameOf)]),
      ),
    };
  }
  return out;
}
