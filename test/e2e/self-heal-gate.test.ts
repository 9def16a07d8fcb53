import { cp, mkdir, readFile, symlink, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/server.js';
import { tempDirs, withEmulator } from './harness.js';
import { exampleRepository, git, simulatedDays } from './days.js';
import { memoryFile } from '../support/memory-file.js';

/**
 * Self-heal's review gate (README, "Self-heal: `apply --budget`"), over simulated days
 * through the built CLI against the emulator, in a git repository: self-heal repairs
 * only when the desired state it loads is the one a complete, reviewed apply last
 * carried out. Each case is a way the gate was once passed by manifests no reviewer saw
 * applied: an apply of part of the manifests, another folder, a file git ignores, a
 * link out of the repository, a memory file edited by hand.
 */

const { dir, cleanupAll } = tempDirs();
afterEach(cleanupAll);

const days = simulatedDays('2026-03-01T03:00:00.000Z');
const runOn = days.run;
const LEDGER = '.viewctl/ledger.json';
const VIEW = 'manifests/views/recordings/budget-confirmed.yaml';

const nightly = (folder = 'manifests'): string[] => [
  'apply',
  folder,
  '--budget',
  '1000',
  '--reserve',
  '0',
  '--ledger',
  LEDGER,
  '--auto-approve',
];
const reviewed = (...paths: string[]): string[] => [
  'apply',
  ...(paths.length === 0 ? ['manifests'] : paths),
  '--ledger',
  LEDGER,
  '--auto-approve',
];

/** liveName is the name the emulator holds for a recordings view now. */
async function liveName(emulator: RunningEmulator, id: string): Promise<string | undefined> {
  const response = await fetch(`${emulator.url}/v1/recordings/views`, {
    headers: { 'x-service-key': emulator.apiKey },
  });
  const body = (await response.json()) as { result: { viewId: string; name: string }[] };
  return body.result.find((view) => view.viewId === id)?.name;
}

/** renameIn renames the "Budget confirmed" view in the manifest at `file` (below `root`). */
async function renameIn(root: string, file: string, name: string): Promise<void> {
  const path = join(root, file);
  await writeFile(path, (await readFile(path, 'utf8')).replace('name: Budget confirmed', `name: ${name}`));
}

async function repository(): Promise<string> {
  return exampleRepository(await dir({}));
}

describe('self-heal repairs only the desired state a complete, reviewed apply carried out', () => {
  it('an apply of one manifest does not record the rest as applied: the nightly refuses and renames nothing', async () => {
    const root = await repository();
    await withEmulator(async (emulator, env) => {
      const first = await runOn(1, reviewed(), env, root);
      expect(first.code, first.stderr).toBe(0);
      const applied = (await memoryFile(join(root, LEDGER))).lastApplied;
      expect(applied?.paths).toEqual(['manifests']);
      expect(applied?.digest).toMatch(/^[0-9a-f]{64}$/);

      // Day 2: a rename is merged; only Mia's pins are applied.
      await renameIn(root, VIEW, 'Budget OK');
      git(root, 'commit', '--quiet', '-am', 'rename a view');
      const part = await runOn(2, reviewed('manifests/pins/mia.yaml'), env, root);
      expect(part.code, part.stderr).toBe(0);
      expect(part.stderr).toContain(
        "note: the sweep memory's last applied commit was not advanced: the apply read only part of the manifests last applied (manifests/pins/mia.yaml of manifests)",
      );
      expect((await memoryFile(join(root, LEDGER))).lastApplied?.commit).toBe(applied?.commit);

      emulator.resetStats();
      const night = await runOn(2, nightly(), env, root);
      expect(night.code, night.stderr).toBe(2);
      expect(night.stdout).toContain('A reviewed apply is due: ');
      expect(emulator.stats().writes).toBe(0);
      expect(await liveName(emulator, 'rv_budget_confirmed')).toBe('Budget confirmed');
    });
  });

  it('self-heal of another folder than the one applied refuses', async () => {
    const root = await repository();
    await cp(join(root, 'manifests'), join(root, 'draft'), { recursive: true });
    await renameIn(root, 'draft/views/recordings/budget-confirmed.yaml', 'Budget OK');
    git(root, 'add', '.');
    git(root, 'commit', '--quiet', '-m', 'a draft beside the manifests');
    await withEmulator(async (emulator, env) => {
      const first = await runOn(1, reviewed(), env, root);
      expect(first.code, first.stderr).toBe(0);
      emulator.resetStats();
      const night = await runOn(2, nightly('draft'), env, root);
      expect(night.code, night.stderr).toBe(2);
      expect(night.stdout).toContain(
        'A reviewed apply is due: self-heal loaded the manifests at draft, but the last reviewed apply carried out those at manifests',
      );
      expect(emulator.stats().writes).toBe(0);
      expect(await liveName(emulator, 'rv_budget_confirmed')).toBe('Budget confirmed');
    });
  });

  it('a manifest git ignores is never repaired, though git status is clean', async () => {
    const root = await repository();
    await writeFile(join(root, '.gitignore'), 'manifests/**/*.local.yaml\n');
    git(root, 'add', '.gitignore');
    git(root, 'commit', '--quiet', '-m', 'ignore local manifests');
    await withEmulator(async (emulator, env) => {
      const first = await runOn(1, reviewed(), env, root);
      expect(first.code, first.stderr).toBe(0);
      await writeFile(
        join(root, 'manifests/views/recordings/mine.local.yaml'),
        'kind: RecordingView\nname: Only mine\ncolumns:\n  - {type: Default, columnId: title}\n',
      );
      expect(git(root, 'status', '--porcelain', '--', 'manifests')).toBe('');
      emulator.resetStats();
      const night = await runOn(2, nightly(), env, root);
      expect(night.code, night.stderr).toBe(2);
      expect(night.stdout).toContain(
        'manifests/views/recordings/mine.local.yaml is not a file git tracks at HEAD (git ignores it)',
      );
      expect(night.stdout).not.toContain('Repaired');
      expect(emulator.stats().writes).toBe(0);
    });
  });

  it('a manifest read through a committed link out of the repository is never repaired', async () => {
    const root = await repository();
    const outside = await dir({});
    await mkdir(join(outside, 'shared'));
    const target = join(outside, 'shared', 'budget.yaml');
    await writeFile(target, await readFile(join(root, VIEW), 'utf8'));
    await unlink(join(root, VIEW));
    await symlink(target, join(root, VIEW));
    git(root, 'add', VIEW);
    git(root, 'commit', '--quiet', '-m', 'a view shared through a link');
    await withEmulator(async (emulator, env) => {
      // A reviewed apply of content no commit holds records nothing as applied.
      const first = await runOn(1, reviewed(), env, root);
      expect(first.code, first.stderr).toBe(0);
      expect(first.stderr).toContain(
        `not advanced: ${VIEW} is not a file git tracks at HEAD (read through a link out of the repository)`,
      );
      // The file the link leads to is edited outside git: git status stays clean.
      await writeFile(target, (await readFile(target, 'utf8')).replace('name: Budget confirmed', 'name: Budget OK'));
      expect(git(root, 'status', '--porcelain', '--', 'manifests')).toBe('');
      emulator.resetStats();
      const night = await runOn(2, nightly(), env, root);
      expect(night.code, night.stderr).toBe(2);
      expect(night.stdout).toContain('A reviewed apply is due: the sweep memory records no apply yet');
      expect(emulator.stats().writes).toBe(0);
      expect(await liveName(emulator, 'rv_budget_confirmed')).toBe('Budget confirmed');
    });
  });

  it('a memory file edited by hand can only make self-heal refuse, never write what no reviewed apply carried out', async () => {
    const root = await repository();
    await withEmulator(async (emulator, env) => {
      const first = await runOn(1, reviewed(), env, root);
      expect(first.code, first.stderr).toBe(0);
      const memoryPath = join(root, LEDGER);
      const memory = await memoryFile(memoryPath);
      const applied = memory.lastApplied;
      if (applied === undefined) throw new Error('the reviewed apply recorded nothing');

      // A rename is merged, not applied; the file is set to claim HEAD was applied.
      await renameIn(root, VIEW, 'Budget OK');
      git(root, 'commit', '--quiet', '-am', 'rename a view');
      const head = git(root, 'rev-parse', 'HEAD');
      await writeFile(memoryPath, JSON.stringify({ ...memory, lastApplied: { ...applied, commit: head } }));
      emulator.resetStats();
      const forged = await runOn(2, nightly(), env, root);
      expect(forged.code, forged.stderr).toBe(2);
      expect(forged.stdout).toContain(
        'A reviewed apply is due: the desired state loaded now is not the one the last reviewed apply carried out',
      );
      expect(emulator.stats().writes).toBe(0);

      // A commit off HEAD's history whose manifests equal HEAD's: not an apply of this branch.
      git(root, 'checkout', '--quiet', '-b', 'side', 'HEAD~1');
      git(root, 'commit', '--quiet', '--allow-empty', '-m', 'elsewhere');
      const side = git(root, 'rev-parse', 'HEAD');
      git(root, 'checkout', '--quiet', 'main');
      git(root, 'revert', '--no-edit', '--quiet', 'HEAD');
      await writeFile(memoryPath, JSON.stringify({ ...memory, lastApplied: { ...applied, commit: side } }));
      const foreign = await runOn(2, nightly(), env, root);
      expect(foreign.code, foreign.stderr).toBe(2);
      expect(foreign.stdout).toContain(`is not the last applied (${side.slice(0, 7)}) nor a commit after it`);

      // A memory written before the digest was recorded: self-heal refuses and says what records it.
      const { digest: _digest, paths: _paths, ...old } = applied;
      await writeFile(
        memoryPath,
        JSON.stringify({ ...memory, lastApplied: { ...old, commit: git(root, 'rev-parse', 'HEAD') } }),
      );
      const older = await runOn(2, nightly(), env, root);
      expect(older.code, older.stderr).toBe(2);
      expect(older.stdout).toContain('does not record which desired state was applied');
      expect(older.stdout).toContain('a full reviewed apply records it');
      expect(emulator.stats().writes).toBe(0);
      expect(await liveName(emulator, 'rv_budget_confirmed')).toBe('Budget confirmed');
    });
  });
});
