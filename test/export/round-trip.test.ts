import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOperations } from '../../src/plan/operations.js';
import { demoWorkspace } from '../../src/emulator/demo/demo-workspace.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/server.js';
import { nodeManifestSource } from '../../src/manifest/source.js';
import { FAST_LIMITS, clientFor, planManifests, runExport } from './helpers.js';

let emulator: RunningEmulator;
let work: string;
let env: Record<string, string>;

beforeAll(async () => {
  emulator = await startEmulator({ data: demoWorkspace(), port: 0, ...FAST_LIMITS });
  work = await mkdtemp(join(tmpdir(), 'viewctl-export-'));
  env = { VIEWCTL_BASE_URL: emulator.url, VIEWCTL_API_KEY: emulator.apiKey };
});

afterAll(async () => {
  await emulator.close();
  await rm(work, { recursive: true, force: true });
});

async function listFiles(dir: string, prefix = ''): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
    if (entry.isDirectory()) out.push(...(await listFiles(join(dir, entry.name), path)));
    else out.push(path);
  }
  return out.sort();
}

describe('export of the demo workspace', () => {
  it('writes manifests that plan finds in sync, reading only and validating cleanly', async () => {
    emulator.resetStats();
    const run = await runExport(['--out', 'demo', '--all-users', '--rate', '1000'], { cwd: work, env });
    expect(run.error).toBeUndefined();
    expect(run.code).toBe(0);
    expect(emulator.stats().writes).toBe(0);
    expect(Object.keys(emulator.stats().byEndpoint).every((endpoint) => endpoint.startsWith('GET '))).toBe(true);
    expect(run.stderr).toMatch(/reading the pinned views of \d+ members: \d+ requests/);
    expect(run.stdout).toContain('exported workspace "Acme Sales" (ws_acme) to demo');

    const files = await listFiles(join(work, 'demo'));
    expect(files).toContain('workspace.yaml');
    expect(files).toContain('automations.yaml');
    expect(files.some((file) => file.startsWith('pins/'))).toBe(true);
    for (const domain of ['recordings', 'deals', 'companies', 'contacts']) {
      expect(files.some((file) => file.startsWith(`${domain}/`))).toBe(true);
    }
    // The key is never written anywhere.
    for (const file of files) expect(await readFile(join(work, 'demo', file), 'utf8')).not.toContain(emulator.apiKey);

    const { problems, plan } = await planManifests(['demo'], nodeManifestSource(work), clientFor(emulator));
    expect(problems.filter((problem) => problem.severity === 'error')).toEqual([]);
    expect(plan?.changes).toEqual([]);
    expect(emulator.stats().writes).toBe(0);
  });

  it('is deterministic: a second export with --force writes the same bytes', async () => {
    const first = join(work, 'demo');
    const before = new Map<string, string>();
    for (const file of await listFiles(first)) before.set(file, await readFile(join(first, file), 'utf8'));
    const run = await runExport(['--out', 'demo', '--all-users', '--force', '--rate', '1000'], { cwd: work, env });
    expect(run.code).toBe(0);
    for (const file of await listFiles(first)) expect(await readFile(join(first, file), 'utf8')).toBe(before.get(file));
  });

  it('reports drift, and plans no operation, when an exported expectation is changed', async () => {
    const path = join(work, 'demo', 'automations.yaml');
    const text = await readFile(path, 'utf8');
    expect(text).toContain('color: blue');
    await writeFile(path, text.replace('color: blue', 'color: red'));
    const { problems, plan } = await planManifests(['demo'], nodeManifestSource(work), clientFor(emulator));
    expect(problems.filter((problem) => problem.severity === 'error')).toEqual([]);
    expect(plan?.changes.map((change) => change.action)).toEqual(['drift']);
    const drift = plan?.changes[0];
    expect(drift?.action === 'drift' ? drift.differences : []).toEqual([
      { pointer: '/color', expected: 'red', actual: 'blue' },
    ]);
    expect(plan === undefined ? ['no plan'] : buildOperations(plan)).toEqual([]);
  });

  it('refuses a non-empty folder without --force, before any request', async () => {
    emulator.resetStats();
    const run = await runExport(['--out', 'demo', '--all-users'], { cwd: work, env });
    expect(run.code).toBe(1);
    expect(run.error?.code).toBe('export.out-not-empty');
    expect(run.error?.message).toContain('demo');
    expect(run.error?.hint).toContain('--force');
    expect(emulator.stats().requests).toBe(0);
  });

  it('with --force replaces its own files and leaves the others', async () => {
    const mine = join(work, 'demo', 'workspace.yaml');
    await writeFile(mine, 'kind: Workspace\n');
    const theirs = join(work, 'demo', 'README.md');
    await writeFile(theirs, 'our notes\n');
    const stale = join(work, 'demo', 'recordings', 'old-view.yaml');
    await writeFile(stale, 'kind: RecordingView\nname: Old\n');
    const run = await runExport(['--out', 'demo', '--force', '--rate', '1000'], { cwd: work, env });
    expect(run.code).toBe(0);
    expect(await readFile(mine, 'utf8')).toContain('workspaceId: ws_acme');
    expect(await readFile(theirs, 'utf8')).toBe('our notes\n');
    expect(run.stderr).toContain('recordings/old-view.yaml');
    expect(run.stderr).toContain('pinned views not exported');
    await rm(stale);
  });
});
