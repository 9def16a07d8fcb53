import { execFileSync } from 'node:child_process';
import { cp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { run as sourceRun } from '../../src/cli/run.js';
import type { RunningEmulator } from '../../src/emulator/server.js';
import type { SweepMemory } from '../../src/state/sweep-memory.js';
import { TEST_WAITS } from '../support/cli.js';
import { EXAMPLES, tempDirs, withEmulator, type CliRun } from './harness.js';

/**
 * Self-heal (`apply --budget N --ledger FILE --auto-approve`, README "Self-heal: `apply
 * --budget`") over simulated nights, through the built CLI against the emulator, in a
 * git repository: a reviewed apply records the last applied commit; on the nights
 * after, people re-order tabs and edit a view in the app, and each night puts back
 * what was reviewed, deleting nothing; once a new commit is merged and not applied,
 * it refuses before any request.
 */

const { dir, cleanupAll } = tempDirs();
afterEach(cleanupAll);

const BUILT_RUN = pathToFileURL(fileURLToPath(new URL('../../dist/cli/run.js', import.meta.url))).href;
const DAY = 24 * 60 * 60 * 1000;
const DAY1 = Date.parse('2026-03-01T03:00:00.000Z');
const LEDGER = '.viewctl/ledger.json';

/** runOn runs the built CLI in this process on simulated day `day` (its clock, the memory's times), in `cwd`. */
async function runOn(day: number, args: string[], env: Record<string, string>, cwd: string): Promise<CliRun> {
  const { run } = (await import(BUILT_RUN)) as { run: typeof sourceRun };
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const at = DAY1 + (day - 1) * DAY;
  const code = await run([...args, '--rate', '1000'], { stdout, stderr, stdin: new PassThrough().end(), env: { NO_COLOR: '1', ...env }, cwd, waits: TEST_WAITS, clock: { now: () => at } });
  await new Promise((resolve) => setImmediate(resolve));
  return { code, stdout: out, stderr: err };
}

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-C', cwd, ...args], { encoding: 'utf8', env: { PATH: process.env['PATH'] ?? '', GIT_CONFIG_NOSYSTEM: '1', HOME: cwd } }).trim();
}

/** repository is a git repository with the examples committed under `manifests/`. */
async function repository(): Promise<string> {
  const root = await dir({});
  await cp(EXAMPLES, join(root, 'manifests'), { recursive: true });
  git(root, 'init', '--quiet', '--initial-branch=main');
  git(root, 'config', 'user.email', 'ci@example.com');
  git(root, 'config', 'user.name', 'CI');
  git(root, 'add', '.');
  git(root, 'commit', '--quiet', '-m', 'manifests');
  return root;
}

/** inTheApp sends a request as the app would (a member, an admin), straight to the emulator. */
async function inTheApp(emulator: RunningEmulator, method: string, path: string, body: unknown): Promise<void> {
  const response = await fetch(`${emulator.url}${path}`, { method, headers: { 'x-service-key': emulator.apiKey, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  expect(response.status, `${method} ${path}`).toBeLessThan(300);
}

const nightly = (budget: number): string[] => ['apply', 'manifests', '--budget', String(budget), '--reserve', '0', '--ledger', LEDGER, '--auto-approve'];
const MIA = 'mia.chen%40acme.test';

describe('viewctl apply --budget N --ledger FILE (self-heal)', () => {
  it('repairs what people changed in the app on the nights after a reviewed apply, never deletes, and refuses once a merge is not applied', async () => {
    const root = await repository();
    await withEmulator(async (emulator, env) => {
      // Before any apply recorded a commit: a reviewed apply is due, nothing is sent.
      emulator.resetStats();
      const early = await runOn(1, nightly(1000), env, root);
      expect([early.code, early.stderr]).toEqual([3, expect.stringContaining('error[apply.review-due]: a reviewed apply is due: the sweep memory records no apply yet')]);
      expect(emulator.stats().requests).toBe(0);

      // Day 1: the reviewed apply; exit 0 records HEAD as the last applied commit.
      const reviewed = await runOn(1, ['apply', 'manifests', '--ledger', LEDGER, '--auto-approve'], env, root);
      expect(reviewed.code, reviewed.stderr).toBe(0);
      const head = git(root, 'rev-parse', 'HEAD');
      expect((JSON.parse(await readFile(join(root, LEDGER), 'utf8')) as SweepMemory).lastApplied?.commit).toBe(head);

      // Day 2, in the app: Mia re-orders her recordings tabs; an admin renames a view and changes its icon.
      await inTheApp(emulator, 'PUT', `/v1/recordings/views/pinned?userEmail=${MIA}`, { viewIds: ['rv_video_meetings', 'rv_mia_followups'] });
      await inTheApp(emulator, 'PATCH', '/v1/recordings/views/rv_budget_confirmed', { name: 'Budget OK', icon: 'star' });
      emulator.resetStats();
      const night2 = await runOn(2, nightly(1000), env, root);
      expect(night2.code, night2.stderr).toBe(0);
      expect(night2.stdout).toMatch(/^Self-heal \(apply --budget 1,000, reads at most 800\)/);
      expect(night2.stdout).toMatch(/Repaired: .*1 view's attributes \("Budget confirmed"\)/);
      expect(night2.stdout).toMatch(/Repaired: .*pin lists? \(members [^)]*mia\.chen@acme\.test/);
      expect(night2.stdout).toContain(' 0 deleted ');
      expect(emulator.stats().requests).toBeLessThanOrEqual(1000);
      // The next night finds nothing of it left to repair.
      const night3 = await runOn(3, nightly(1000), env, root);
      expect(night3.code, night3.stderr).toBe(0);
      expect(night3.stdout).not.toMatch(/Repaired: .*Budget confirmed/);
      expect(night3.stdout).not.toMatch(/Repaired: .*mia\.chen/);

      // Day 4: a change is merged and not yet applied: repair refuses before any request.
      const file = join(root, 'manifests/workspace.yaml');
      await writeFile(file, `${await readFile(file, 'utf8')}# merged, not applied\n`);
      git(root, 'commit', '--quiet', '-am', 'an unapplied change');
      emulator.resetStats();
      const night4 = await runOn(4, nightly(1000), env, root);
      expect(night4.code).toBe(3);
      expect(night4.stderr).toContain(`a reviewed apply is due: the manifests at HEAD (${git(root, 'rev-parse', '--short=7', 'HEAD')}) are not the last applied (${head.slice(0, 7)})`);
      expect(emulator.stats().requests).toBe(0);
    });
  });
});
