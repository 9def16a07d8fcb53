import { execFileSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { appliedManifests } from '../../src/flows/applied-manifests.js';
import { emptyMemory, type SweepMemory } from '../../src/state/sweep-memory.js';
import { scratchDir } from '../support/cli.js';

/** What the command line finds of the sweep memory's last applied commit, for a plan without --base (README, "Drift: who, what, when"). */

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.email=t@acme.test', '-c', 'user.name=T', ...args], {
    cwd,
    encoding: 'utf8',
  }).trim();
}

const WORKSPACE = 'kind: Workspace\ncreatorEmail: ops@acme.test\n';
const memoryAt = (commit: string): SweepMemory => ({
  ...emptyMemory(),
  lastApplied: { commit, at: '2026-11-20T02:00:00Z' },
});

async function repo(): Promise<{ dir: string; first: string; second: string }> {
  const made = await scratchDir({
    'm/workspace.yaml': WORKSPACE,
    'm/calls.yaml': 'kind: RecordingView\nname: Calls\n',
  });
  cleanups.push(made.cleanup);
  const { dir } = made;
  git(dir, 'init', '-q');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'one');
  const first = git(dir, 'rev-parse', 'HEAD');
  await writeFile(join(dir, 'm', 'calls.yaml'), 'kind: RecordingView\nname: Calls\nicon: phone\n');
  git(dir, 'commit', '-qam', 'two');
  return { dir, first, second: git(dir, 'rev-parse', 'HEAD') };
}

describe('appliedManifests', () => {
  it('asks git nothing with --base or without a last applied commit', async () => {
    expect(await appliedManifests(undefined, undefined, ['m'], '/nonexistent')).toEqual({ warnings: [] });
    expect(await appliedManifests(emptyMemory(), undefined, ['m'], '/nonexistent')).toEqual({ warnings: [] });
    expect(await appliedManifests(memoryAt('a'.repeat(40)), 'origin/main', ['m'], '/nonexistent')).toEqual({
      warnings: [],
    });
  });

  it("is current when the last applied commit is HEAD and the manifests are unchanged; else that commit's manifests", async () => {
    const { dir, first, second } = await repo();
    expect(await appliedManifests(memoryAt(second), undefined, ['m'], dir)).toEqual({
      applied: { state: 'current', commit: second },
      warnings: [],
    });
    const older = await appliedManifests(memoryAt(first), undefined, ['m'], dir);
    expect(older.applied).toMatchObject({ state: 'older', commit: first });
    expect(
      older.applied?.state === 'older' ? older.applied.desired.views.map((view) => [view.name, view.managed]) : [],
    ).toEqual([['Calls', {}]]);
    // An edit not committed yet is not the last applied state: HEAD's manifests are the base.
    await writeFile(join(dir, 'm', 'calls.yaml'), 'kind: RecordingView\nname: Calls\nicon: star\n');
    expect((await appliedManifests(memoryAt(second), undefined, ['m'], dir)).applied).toMatchObject({
      state: 'older',
      commit: second,
    });
  });

  it('a commit the checkout does not have, or manifests outside git: hedged, with a warning that says why', async () => {
    const { dir } = await repo();
    const missing = await appliedManifests(memoryAt('b'.repeat(40)), undefined, ['m'], dir);
    expect(missing.applied).toMatchObject({ state: 'unloadable' });
    expect(missing.warnings).toEqual([
      {
        code: 'plan.last-applied-unloadable',
        message:
          'the last applied commit bbbbbbb (sweep memory) cannot be compared: the checkout does not have that commit (fetch more history); every difference is labelled "not applied or changed outside"',
      },
    ]);
    const outside = await scratchDir({ 'm/workspace.yaml': WORKSPACE });
    cleanups.push(outside.cleanup);
    expect((await appliedManifests(memoryAt('b'.repeat(40)), undefined, ['m'], outside.dir)).applied).toMatchObject({
      state: 'unloadable',
      reason: 'the manifests are not in a git checkout',
    });
  });
});
