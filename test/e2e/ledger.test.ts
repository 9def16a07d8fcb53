import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { nodeManifestSource } from '../../src/manifest/load.js';
import { loadDesired } from '../../src/manifest/load-desired.js';
import { desiredDigest } from '../../src/plan/desired-digest.js';
import { tempDirs, withEmulator } from './harness.js';
import { exampleRepository, git, simulatedDays } from './days.js';
import { memoryFile } from '../support/memory-file.js';

const { dir, cleanupAll } = tempDirs();
afterEach(cleanupAll);

const days = simulatedDays('2026-03-01T06:00:00.000Z');
const runOn = days.run;
const on = days.on;

async function repository(): Promise<string> {
  return exampleRepository(await dir({}));
}

/** commitEdit appends a comment to a manifest and commits it: HEAD moves, the workspace need not change. */
async function commitEdit(root: string, note: string): Promise<string> {
  const file = join(root, 'manifests/workspace.yaml');
  await writeFile(file, `${await readFile(file, 'utf8')}# ${note}\n`);
  git(root, 'commit', '--quiet', '-am', note);
  return git(root, 'rev-parse', 'HEAD');
}

const MIA = 'recordings:mia.chen@acme.test';

/** HEX64 is any SHA-256 hex digest, as the memory records the desired state applied. */
const HEX64 = expect.stringMatching(/^[0-9a-f]{64}$/);

describe('viewctl plan and apply --ledger FILE (the sweep memory)', () => {
  it('remembers over simulated days what was read and applied, and advances the last applied commit only on a clean exit 0', async () => {
    const root = await repository();
    const ledger = join(root, '.viewctl/ledger.json');
    await withEmulator(async (emulator, env) => {
      // Day 1: a full plan creates the file (and its folder): every list read today.
      const day1 = await runOn(
        1,
        ['plan', 'manifests', '--ledger', '.viewctl/ledger.json', '--detailed-exitcode'],
        env,
        root,
      );
      expect(day1.code).toBe(2);
      const first = await memoryFile(ledger);
      expect(first.workspaceId).toBeDefined();
      expect(first.lastApplied).toBeUndefined();
      expect(Object.keys(first.lists).length).toBeGreaterThan(2);
      for (const list of Object.values(first.lists)) expect(list.lastRead).toBe(on(1));
      // Mia's private view is in her list's ids, never among the views seen; nor is any default.
      expect(first.lists[MIA]?.viewIds).toContain('rv_mia_followups');
      expect(Object.values(first.views).map((view) => view.id)).not.toContain('rv_mia_followups');
      expect(Object.keys(first.views).length).toBeGreaterThan(0);
      expect(Object.keys(first.members).length).toBeGreaterThan(0);
      expect(await readFile(ledger, 'utf8')).not.toContain(env.VIEWCTL_API_KEY);

      // Day 2: a plan of Mia's lists alone: the file holds her reads of day 2 and the others' of day 1.
      const day2 = await runOn(
        2,
        ['plan', 'manifests', '--target', 'pins/mia.chen@acme.test', '--ledger', ledger],
        env,
        root,
      );
      expect(day2.code).toBe(0);
      const second = await memoryFile(ledger);
      expect(second.lists[MIA]?.lastRead).toBe(on(2));
      const others = Object.entries(second.lists).filter(([key]) => !key.endsWith(':mia.chen@acme.test'));
      expect(others.length).toBeGreaterThan(1);
      expect(others.filter(([, list]) => list.lastRead !== on(1)).map(([key]) => key)).toEqual([]);

      // Day 3: an apply from a clean checkout exits 0 and advances the last applied commit to HEAD.
      const commit1 = git(root, 'rev-parse', 'HEAD');
      const day3 = await runOn(3, ['apply', 'manifests', '--auto-approve', '--ledger', ledger], env, root);
      expect(day3.code).toBe(0);
      const third = await memoryFile(ledger);
      expect(third.lastApplied).toEqual({ commit: commit1, at: on(3), digest: HEX64, paths: ['manifests'] });
      // What landed is known: the view it created is seen, and Mia's list holds its id.
      const created = Object.values(third.views).find((view) => view.name === 'Team calls');
      expect(created?.lastSeen).toBe(on(3));
      expect(third.lists[MIA]?.viewIds).toContain(created?.id);

      // Day 4: HEAD moves; an apply refused (another digest) does not advance; nor does one of uncommitted manifests.
      const commit2 = await commitEdit(root, 'day 4');
      const refused = await runOn(
        4,
        ['apply', 'manifests', '--auto-approve', '--ledger', ledger, '--expect-digest', '0'.repeat(64)],
        env,
        root,
      );
      expect(refused.code).toBe(3);
      expect((await memoryFile(ledger)).lastApplied?.commit).toBe(commit1);
      await writeFile(
        join(root, 'manifests/workspace.yaml'),
        `${await readFile(join(root, 'manifests/workspace.yaml'), 'utf8')}# not committed\n`,
      );
      const dirty = await runOn(4, ['apply', 'manifests', '--auto-approve', '--ledger', ledger], env, root);
      expect(dirty.code).toBe(0);
      expect(dirty.stderr).toContain('last applied commit was not advanced: the manifests have changes not committed');
      expect((await memoryFile(ledger)).lastApplied?.commit).toBe(commit1);
      git(root, 'checkout', '--quiet', '--', 'manifests');
      const clean = await runOn(4, ['apply', 'manifests', '--auto-approve', '--ledger', ledger], env, root);
      expect(clean.code).toBe(0);
      expect((await memoryFile(ledger)).lastApplied).toEqual({
        commit: commit2,
        at: on(4),
        digest: HEX64,
        paths: ['manifests'],
      });
      expect(emulator.stats().writes).toBeGreaterThan(0);
    });
  });

  it('does not advance on an apply scoped to --base REF newer than the last applied commit: what was merged before REF was never read', async () => {
    const root = await repository();
    const ledger = join(root, 'ledger.json');
    await withEmulator(async (_emulator, env) => {
      const commit1 = git(root, 'rev-parse', 'HEAD');
      expect((await runOn(1, ['apply', 'manifests', '--auto-approve', '--ledger', ledger], env, root)).code).toBe(0);
      expect((await memoryFile(ledger)).lastApplied?.commit).toBe(commit1);
      // Merged, never applied; then a later merge's apply is scoped to the first's commit.
      const commit2 = await commitEdit(root, 'merged, never applied');
      const commit3 = await commitEdit(root, 'a later merge');
      const scoped = await runOn(
        2,
        ['apply', 'manifests', '--base', commit2, '--auto-approve', '--ledger', ledger],
        env,
        root,
      );
      expect(scoped.code, scoped.stdout + scoped.stderr).toBe(0);
      expect(scoped.stderr).toContain(
        'last applied commit was not advanced: the plan read only the pinned lists changed since --base',
      );
      expect((await memoryFile(ledger)).lastApplied?.commit).toBe(commit1);
      // Scoped to the last applied commit itself, it covers every merge since: advanced.
      const covered = await runOn(
        3,
        ['apply', 'manifests', '--base', commit1, '--auto-approve', '--ledger', ledger],
        env,
        root,
      );
      expect(covered.code, covered.stdout + covered.stderr).toBe(0);
      expect((await memoryFile(ledger)).lastApplied?.commit).toBe(commit3);
    });
  });

  it("advances on an apply scoped to --base REF whose manifests are the last applied commit's (only docs merged between), of a plan file or of the manifests from their folder", async () => {
    const root = await repository();
    const ledger = join(root, 'ledger.json');
    const docsOnly = async (note: string): Promise<string> => {
      await writeFile(join(root, 'NOTES.md'), `${note}\n`);
      git(root, 'add', 'NOTES.md');
      git(root, 'commit', '--quiet', '-m', note);
      return git(root, 'rev-parse', 'HEAD');
    };
    await withEmulator(async (_emulator, env) => {
      expect((await runOn(1, ['apply', 'manifests', '--auto-approve', '--ledger', ledger], env, root)).code).toBe(0);
      // A docs-only merge, then a pull request planned against it, merged and applied from its plan file.
      const docs1 = await docsOnly('how we name views');
      const change1 = await commitEdit(root, 'a change');
      expect((await runOn(2, ['plan', 'manifests', '--base', docs1, '--out', 'plan.json'], env, root)).code).toBe(0);
      const saved = await runOn(2, ['apply', '--plan', 'plan.json', '--ledger', ledger], env, root);
      expect(saved.code, saved.stderr).toBe(0);
      expect(saved.stderr).not.toContain('not advanced');
      expect((await memoryFile(ledger)).lastApplied?.commit).toBe(change1);
      // The same, applying the manifests from their own folder.
      const docs2 = await docsOnly('how we name tabs');
      const change2 = await commitEdit(root, 'another change');
      const scoped = await runOn(
        3,
        ['apply', '.', '--base', docs2, '--auto-approve', '--ledger', ledger],
        env,
        join(root, 'manifests'),
      );
      expect(scoped.code, scoped.stderr).toBe(0);
      expect(scoped.stderr).not.toContain('not advanced');
      expect((await memoryFile(ledger)).lastApplied?.commit).toBe(change2);
    });
  });

  it('remembers what an apply that failed part-way (exit 4) read and saw land, and does not advance the last applied commit', async () => {
    const root = await repository();
    const ledger = join(root, 'ledger.json');
    // Every write is carried out and its answer lost: the run stops part-way.
    await withEmulator(
      async (_emulator, env) => {
        const partial = await runOn(1, ['apply', 'manifests', '--auto-approve', '--ledger', ledger], env, root);
        expect(partial.code, partial.stdout + partial.stderr).toBe(4);
        const memory = await memoryFile(ledger);
        expect(memory.lastApplied).toBeUndefined();
        expect(memory.lists[MIA]?.lastRead).toBe(on(1));
        expect(Object.keys(memory.views).length).toBeGreaterThan(0);
      },
      { dropAfterCommitRate: 1 },
    );
  });

  it('advances on apply --plan only when HEAD holds the manifests the plan file records', async () => {
    const root = await repository();
    const ledger = join(root, 'ledger.json');
    await withEmulator(async (_emulator, env) => {
      expect((await runOn(1, ['apply', 'manifests', '--auto-approve'], env, root)).code).toBe(0);
      const commit1 = git(root, 'rev-parse', 'HEAD');
      expect((await runOn(1, ['plan', 'manifests', '--out', 'plan.json'], env, root)).code).toBe(0);
      const saved = JSON.parse(await readFile(join(root, 'plan.json'), 'utf8')) as {
        manifests?: { trees: Record<string, string> };
        digest: string;
      };
      expect(saved.manifests).toEqual({ trees: { manifests: git(root, 'rev-parse', 'HEAD:manifests') } });

      // Another commit to the manifests: the saved plan was not made from HEAD's.
      const commit2 = await commitEdit(root, 'later');
      const moved = await runOn(2, ['apply', '--plan', 'plan.json', '--ledger', ledger], env, root);
      expect(moved.code).toBe(0);
      expect(moved.stderr).toContain(
        `not advanced: the manifests at HEAD (${commit2.slice(0, 7)}) are not those the plan was made from`,
      );
      expect((await memoryFile(ledger)).lastApplied).toBeUndefined();

      // Back at the plan's commit, the same file advances it; its digest is unchanged by the record.
      git(root, 'checkout', '--quiet', commit1);
      const exact = await runOn(
        3,
        ['apply', '--plan', 'plan.json', '--ledger', ledger, '--expect-digest', saved.digest],
        env,
        root,
      );
      expect(exact.code).toBe(0);
      // What it records is what self-heal loads from these manifests on disk: the same digest, the same paths.
      const { desired } = await loadDesired(['manifests'], nodeManifestSource(root));
      expect((await memoryFile(ledger)).lastApplied).toEqual({
        commit: commit1,
        at: on(3),
        digest: desiredDigest(desired),
        paths: ['manifests'],
      });

      // A plan made from uncommitted manifests records none.
      await writeFile(
        join(root, 'manifests/workspace.yaml'),
        `${await readFile(join(root, 'manifests/workspace.yaml'), 'utf8')}# not committed\n`,
      );
      expect((await runOn(3, ['plan', 'manifests', '--out', 'dirty.json'], env, root)).code).toBe(0);
      expect(JSON.parse(await readFile(join(root, 'dirty.json'), 'utf8'))).not.toHaveProperty('manifests');
      git(root, 'checkout', '--quiet', '--', 'manifests');

      // A plan file without the record (an older viewctl's) still applies, and advances nothing.
      const { manifests: _manifests, ...older } = saved;
      await writeFile(join(root, 'older.json'), JSON.stringify(older));
      git(root, 'checkout', '--quiet', 'main');
      const old = await runOn(4, ['apply', '--plan', 'older.json', '--ledger', ledger], env, root);
      expect(old.code).toBe(0);
      expect(old.stderr).toContain('not advanced: the plan file does not record which manifests it was made from');
      expect((await memoryFile(ledger)).lastApplied?.commit).toBe(commit1);
    });
  });

  it('refuses a corrupt file and the memory of another workspace, without touching them, before any pinned list is read', async () => {
    const root = await repository();
    await withEmulator(async (emulator, env) => {
      const corrupt = join(root, 'corrupt.json');
      await writeFile(corrupt, 'kind: SavedView\nname: not a ledger\n');
      const bytes = await readFile(corrupt);
      const invalid = await runOn(1, ['plan', 'manifests', '--ledger', corrupt], env, root);
      expect(invalid.code).toBe(1);
      expect(invalid.stderr).toContain('error[ledger.invalid]');
      expect(invalid.stderr).toContain('hint: point --ledger at another file, or delete this one');
      expect(emulator.stats().requests).toBe(0);
      expect(await readFile(corrupt)).toEqual(bytes);

      const foreign = join(root, 'foreign.json');
      await writeFile(
        foreign,
        JSON.stringify({ formatVersion: 1, workspaceId: 'ws_elsewhere', lists: {}, views: {}, members: {} }, null, 2),
      );
      const foreignBytes = await readFile(foreign);
      expect((await runOn(1, ['plan', 'manifests', '--out', 'plan.json'], env, root)).code).toBe(0);
      for (const command of [
        ['plan', 'manifests'],
        ['apply', 'manifests', '--auto-approve'],
        ['apply', '--plan', 'plan.json'],
      ]) {
        emulator.resetStats();
        const other = await runOn(1, [...command, '--ledger', foreign], env, root);
        expect(other.code).toBe(1);
        expect(other.stderr).toContain('error[ledger.other-workspace]');
        expect(other.stderr).toContain('ws_elsewhere');
        // Only the workspace was read: no listing, no pinned list, no write.
        expect(emulator.stats().requests).toBe(1);
        expect(emulator.stats().writes).toBe(0);
        expect(await readFile(foreign)).toEqual(foreignBytes);
      }
    });
  });
});
