import { cp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDirs, withEmulator } from './harness.js';
import { inTheApp } from './in-the-app.js';
import { exampleRepository, git, simulatedDays } from './days.js';
import { memoryFile } from '../support/memory-file.js';

/**
 * Self-heal (`apply --budget N --ledger FILE --auto-approve`, README "Self-heal: `apply
 * --budget`") over simulated nights, through the built CLI against the emulator, in a
 * git repository: a reviewed apply records the last applied commit; on the nights
 * after, people re-order tabs and edit a view in the app, and each night puts back
 * what was reviewed, deleting nothing; once a new commit is merged and not applied,
 * each night only sweeps and reports (drift, and why a reviewed apply is due) until the
 * reviewed apply, writing nothing.
 */

const { dir, cleanupAll } = tempDirs();
afterEach(cleanupAll);

const days = simulatedDays('2026-03-01T03:00:00.000Z');
const runOn = days.run;
const LEDGER = '.viewctl/ledger.json';

async function repository(): Promise<string> {
  return exampleRepository(await dir({}));
}

const nightly = (budget: number): string[] => [
  'apply',
  'manifests',
  '--budget',
  String(budget),
  '--reserve',
  '0',
  '--ledger',
  LEDGER,
  '--auto-approve',
];
const MIA = 'mia.chen%40acme.test';

describe('viewctl apply --budget N --ledger FILE (self-heal)', () => {
  // A budget counts requests sent, retries included: a service failing 30 % of them cannot make a night send more.
  it.each([
    { budget: 25, seed: 1 },
    { budget: 25, seed: 2 },
    { budget: 40, seed: 3 },
  ])(
    'never sends more than --budget $budget, retries included, when the service fails 30 % of requests (seed $seed)',
    async ({ budget, seed }) => {
      const root = await repository();
      const state = join(await dir({}), 'workspace-state.json');
      await withEmulator(
        async (emulator, env) => {
          const reviewed = await runOn(1, ['apply', 'manifests', '--ledger', LEDGER, '--auto-approve'], env, root);
          expect(reviewed.code, reviewed.stderr).toBe(0);
          // In the app: Mia re-orders her tabs and an admin renames a view, so the night has repairs to write.
          await inTheApp(emulator, 'PUT', `/v1/recordings/views/pinned?userEmail=${MIA}`, {
            viewIds: ['rv_video_meetings', 'rv_mia_followups'],
          });
          await inTheApp(emulator, 'PATCH', '/v1/recordings/views/rv_budget_confirmed', { name: 'Budget OK' });
        },
        { statePath: state },
      );
      await withEmulator(
        async (emulator, env) => {
          const night = await runOn(2, nightly(budget), env, root);
          expect(emulator.stats().faultsInjected).toBeGreaterThan(0);
          expect(emulator.stats().requests, night.stdout + night.stderr).toBeLessThanOrEqual(budget);
        },
        { statePath: state, failRate: 0.3, seed },
      );
    },
  );

  it('repairs what people changed in the app on the nights after a reviewed apply, never deletes, and once a merge is not applied only sweeps and reports until its reviewed apply', async () => {
    const root = await repository();
    await withEmulator(async (emulator, env) => {
      // Before any apply recorded a commit: a reviewed apply is due; the night still sweeps, and writes nothing.
      emulator.resetStats();
      const early = await runOn(1, nightly(1000), env, root);
      expect(early.code, early.stderr).toBe(2);
      expect(early.stdout).toMatch(
        /^Self-heal \(apply --budget 1,000\): a reviewed apply is due, so this night only reads and reports/,
      );
      expect(early.stdout).toContain('A reviewed apply is due: the sweep memory records no apply yet');
      expect(emulator.stats().requests).toBeGreaterThan(0);
      expect(emulator.stats().writes).toBe(0);

      // Day 1: the reviewed apply; exit 0 records HEAD as the last applied commit.
      const reviewed = await runOn(1, ['apply', 'manifests', '--ledger', LEDGER, '--auto-approve'], env, root);
      expect(reviewed.code, reviewed.stderr).toBe(0);
      const head = git(root, 'rev-parse', 'HEAD');
      expect((await memoryFile(join(root, LEDGER))).lastApplied?.commit).toBe(head);

      // Day 2, in the app: Mia re-orders her recordings tabs; an admin renames a view and changes its icon.
      await inTheApp(emulator, 'PUT', `/v1/recordings/views/pinned?userEmail=${MIA}`, {
        viewIds: ['rv_video_meetings', 'rv_mia_followups'],
      });
      await inTheApp(emulator, 'PATCH', '/v1/recordings/views/rv_budget_confirmed', {
        name: 'Budget OK',
        icon: 'star',
      });
      emulator.resetStats();
      const night2 = await runOn(2, nightly(1000), env, root);
      expect(night2.code, night2.stderr).toBe(0);
      expect(night2.stdout).toMatch(/^Self-heal \(apply --budget 1,000, reads at most 800\)/);
      expect(night2.stdout).toMatch(/Repaired: .*1 view's attributes \("Budget confirmed"\)/);
      expect(night2.stdout).toMatch(/Repaired: .*pin lists? \(members? [^)]*mia\.chen@acme\.test/);
      expect(night2.stdout).toContain(' 0 deleted ');
      expect(emulator.stats().requests).toBeLessThanOrEqual(1000);
      // The next night finds nothing of it left to repair.
      const night3 = await runOn(3, nightly(1000), env, root);
      expect(night3.code, night3.stderr).toBe(0);
      expect(night3.stdout).not.toMatch(/Repaired: .*Budget confirmed/);
      expect(night3.stdout).not.toMatch(/Repaired: .*mia\.chen/);

      // Day 3, later: a merge that touches only the docs; Mia re-orders her tabs again. The manifests are still the applied ones: repaired.
      await writeFile(join(root, 'NOTES.md'), 'How we name views.\n');
      git(root, 'add', 'NOTES.md');
      git(root, 'commit', '--quiet', '-m', 'docs only');
      await inTheApp(emulator, 'PUT', `/v1/recordings/views/pinned?userEmail=${MIA}`, {
        viewIds: ['rv_video_meetings', 'rv_mia_followups'],
      });
      const night3b = await runOn(3, nightly(1000), env, root);
      expect(night3b.code, night3b.stderr).toBe(0);
      expect(night3b.stdout).toMatch(/Repaired: .*pin lists? \(members? [^)]*mia\.chen@acme\.test/);
      const docs = git(root, 'rev-parse', 'HEAD');
      expect((await memoryFile(join(root, LEDGER))).lastApplied?.commit).toBe(docs);

      // A checkout without the history (no fetch-depth: 0) of a later docs-only merge lacks the last applied commit: it cannot compare, and says to fetch the history.
      await writeFile(join(root, 'NOTES.md'), 'How we name views, and tabs.\n');
      git(root, 'commit', '--quiet', '-am', 'docs again');
      const shallow = join(await dir({}), 'shallow');
      git(root, 'clone', '--quiet', '--depth', '1', `file://${root}`, shallow);
      await cp(join(root, '.viewctl'), join(shallow, '.viewctl'), { recursive: true });
      emulator.resetStats();
      const cut = await runOn(3, nightly(1000), env, shallow);
      expect(cut.code, cut.stderr).toBe(2);
      expect(cut.stdout).toContain(
        `Self-heal cannot tell whether a reviewed apply is due: the checkout lacks the last applied commit (${docs.slice(0, 7)})`,
      );
      expect(cut.stdout).toContain('Way out: fetch the history and run again: actions/checkout with fetch-depth: 0');
      expect(emulator.stats().writes).toBe(0);

      // Day 4: a change is merged and not yet applied: the nights until its reviewed apply
      // repair nothing, yet still sweep: Mia's re-ordered tabs are found and reported, each night.
      const file = join(root, 'manifests/workspace.yaml');
      await writeFile(file, `${await readFile(file, 'utf8')}# merged, not applied\n`);
      git(root, 'commit', '--quiet', '-am', 'an unapplied change');
      await inTheApp(emulator, 'PUT', `/v1/recordings/views/pinned?userEmail=${MIA}`, {
        viewIds: ['rv_video_meetings', 'rv_mia_followups'],
      });
      for (const day of [4, 5]) {
        emulator.resetStats();
        const due = await runOn(day, nightly(1000), env, root);
        expect(due.code, due.stderr).toBe(2);
        expect(due.stdout).toContain(
          `A reviewed apply is due: the manifests at HEAD (${git(root, 'rev-parse', '--short=7', 'HEAD')}) are not the last applied (${docs.slice(0, 7)})`,
        );
        expect(due.stdout).toContain('mia.chen@acme.test');
        expect(due.stdout).not.toContain('Repaired');
        expect(emulator.stats().requests).toBeGreaterThan(0);
        expect(emulator.stats().writes).toBe(0);
      }
      // The memory knows what those nights read.
      const swept = await memoryFile(join(root, LEDGER));
      expect(swept.lists['recordings:mia.chen@acme.test']?.lastRead).toBe(days.on(5));

      // Day 6: the reviewed apply of the merge; the night after repairs again.
      const applied = await runOn(6, ['apply', 'manifests', '--ledger', LEDGER, '--auto-approve'], env, root);
      expect(applied.code, applied.stderr).toBe(0);
      await inTheApp(emulator, 'PUT', `/v1/recordings/views/pinned?userEmail=${MIA}`, {
        viewIds: ['rv_video_meetings', 'rv_mia_followups'],
      });
      const night6 = await runOn(6, nightly(1000), env, root);
      expect(night6.code, night6.stderr).toBe(0);
      expect(night6.stdout).toMatch(/Repaired: .*pin lists? \(members? [^)]*mia\.chen@acme\.test/);
    });
  });
});
