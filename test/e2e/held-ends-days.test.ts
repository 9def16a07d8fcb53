import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiView } from '../../src/domain/api-types.js';
import type { RunningEmulator } from '../../src/emulator/server.js';
import { memoryFile } from '../support/memory-file.js';
import { git, simulatedDays } from './days.js';
import { inTheApp, repositoryOf } from './in-the-app.js';
import { tempDirs, withEmulator } from './harness.js';

/**
 * A hold ends when its cause does (issue 33, item 5), over simulated days through the
 * built CLI against the emulator, in a git repository, with the sweep memory: day 1 a
 * reviewed apply; day 2 an admin deletes a declared view in the app and a pull request,
 * planned without the memory, is merged and applied, holding the view (its id is not
 * found); from day 3 the nightly self-heal either creates the view again (the memory
 * knows it was deleted in the app) or finds the one an admin made again by hand, and the
 * hold ends: nothing is left "for a reviewed apply" that no pull request would carry out.
 */

const { dir, cleanupAll } = tempDirs();
afterEach(cleanupAll);

const days = simulatedDays('2026-05-04T03:00:00.000Z');
// Four simulated days of several runs each: room for a loaded machine, never a measure of speed.
const DAYS_TIMEOUT = 90_000;
const LEDGER = '.viewctl/ledger.json';
const HELD_VIEW = 'view:recordings:id:rv_sdr_coaching';
const SDR = 'SDR coaching';

const FILES = {
  'manifests/workspace.yaml':
    'kind: Workspace\nworkspaceId: ws_acme\ncreatorEmail: adam.reyes@acme.test\nprune: false\n',
  'manifests/views/sdr-coaching.yaml':
    'kind: RecordingView\nname: SDR coaching\nviewId: rv_sdr_coaching\nicon: mortar_board\nfilters:\n  teamIdIn: [team_sdr]\n',
  'manifests/pins/mia.yaml':
    'kind: PinnedViews\nuserEmail: mia.chen@acme.test\nrecordings: [SDR coaching, All recordings]\n',
  'manifests/pins/noah.yaml':
    'kind: PinnedViews\nuserEmail: noah.patel@acme.test\nrecordings:\n  - viewId: rv_sdr_coaching\n  - All recordings\n',
};

async function repository(): Promise<string> {
  return repositoryOf(await dir({}), FILES);
}

async function sdrViews(emulator: RunningEmulator): Promise<ApiView[]> {
  return (emulator.snapshot().views.recordings ?? []).filter((view) => view.name === SDR && !view.isDefault);
}

async function pinnedNames(emulator: RunningEmulator, email: string): Promise<string[]> {
  const response = await fetch(`${emulator.url}/v1/recordings/views/pinned?userEmail=${encodeURIComponent(email)}`, {
    headers: { 'x-service-key': emulator.apiKey },
  });
  return ((await response.json()) as { result: ApiView[] }).result.map((view) => view.name);
}

const nightly = ['apply', 'manifests', '--budget', '1000', '--reserve', '0', '--ledger', LEDGER, '--auto-approve'];

/**
 * reviewedThenHeld runs days 1 and 2: the reviewed apply with the memory; then an admin
 * deletes SDR coaching in the app (the service unpins it everywhere), and a pull request
 * adding a view is merged, planned `--base` the last applied commit without the memory
 * (the pull-request job's plan) and applied with it: the view is held, and the memory
 * records it as held.
 */
async function reviewedThenHeld(emulator: RunningEmulator, env: Record<string, string>, root: string): Promise<void> {
  const reviewed = await days.run(1, ['apply', 'manifests', '--ledger', LEDGER, '--auto-approve'], env, root);
  expect(reviewed.code, reviewed.stderr).toBe(0);
  expect((await memoryFile(join(root, LEDGER))).views[HELD_VIEW]?.name).toBe(SDR);

  await inTheApp(emulator, 'DELETE', '/v1/recordings/views/rv_sdr_coaching');
  await writeFile(join(root, 'manifests/views/demos.yaml'), 'kind: RecordingView\nname: Demos\nfilters: {}\n');
  git(root, 'add', '.');
  git(root, 'commit', '--quiet', '-m', 'Add the Demos view');
  const planned = await days.run(
    2,
    ['plan', 'manifests', '--base', 'HEAD~1', '--out', 'plan.json', '--format', 'json'],
    env,
    root,
  );
  expect(planned.code, planned.stderr).toBe(0);
  const plan = JSON.parse(planned.stdout) as { held?: { target: string; code: string }[] };
  expect(plan.held?.map((held) => [held.target, held.code])).toEqual([[HELD_VIEW, 'view.id-not-found']]);
  const applied = await days.run(2, ['apply', '--plan', 'plan.json', '--ledger', LEDGER, '--auto-approve'], env, root);
  expect(applied.code, applied.stderr).toBe(0);
  expect((await memoryFile(join(root, LEDGER))).lastApplied?.held).toEqual([HELD_VIEW]);
}

describe('a hold ends when its cause does (issue 33, item 5)', () => {
  it(
    'a view deleted in the app and held by a merged pull request is created again by the next self-heal, which ends the hold; the night after has nothing left',
    async () => {
      const root = await repository();
      await withEmulator(async (emulator, env) => {
        await reviewedThenHeld(emulator, env, root);

        // Day 3: the memory knows the view was deleted in the app: its create again is what the
        // last full apply would have done, and the lists naming it wait for it, not for a review.
        const night = await days.run(3, nightly, env, root);
        expect(night.code, night.stderr).toBe(0);
        expect(night.stdout).toContain('1 view re-created ("SDR coaching")');
        expect(night.stdout).toMatch(/2 pin lists \(members mia\.chen@acme\.test, noah\.patel@acme\.test\)/);
        expect(night.stdout).not.toContain('Left for');
        expect(await sdrViews(emulator)).toHaveLength(1);
        const [created] = await sdrViews(emulator);
        expect(created?.viewId).not.toBe('rv_sdr_coaching');
        expect(created?.ownerId).toBe('u_adam');
        expect(await pinnedNames(emulator, 'noah.patel@acme.test')).toEqual([SDR, 'All recordings']);
        const memory = await memoryFile(join(root, LEDGER));
        expect(memory.lastApplied?.held).toBeUndefined();
        expect(memory.lastApplied?.commit).toBe(git(root, 'rev-parse', 'HEAD'));

        // Day 4: nothing is left, and nothing is written.
        emulator.resetStats();
        const after = await days.run(4, nightly, env, root);
        expect(after.code, after.stderr).toBe(0);
        expect(after.stdout).toContain('Repaired: nothing.');
        expect(after.stdout).not.toContain('Left for');
        expect(emulator.stats().writes).toBe(0);
        expect(await sdrViews(emulator)).toHaveLength(1);
      });
    },
    DAYS_TIMEOUT,
  );

  it(
    'a held view an admin creates again by hand ends its hold: no second create, the lists pin the one made by hand',
    async () => {
      const root = await repository();
      await withEmulator(async (emulator, env) => {
        await reviewedThenHeld(emulator, env, root);

        // Day 3: an admin makes the view again by hand, before the night.
        await inTheApp(emulator, 'POST', '/v1/recordings/views', {
          creatorEmail: 'mia.chen@acme.test',
          name: SDR,
          icon: 'mortar_board',
          filters: { teamIdIn: ['team_sdr'] },
        });
        const [byHand] = await sdrViews(emulator);
        const night = await days.run(3, nightly, env, root);
        expect(night.code, night.stderr).toBe(0);
        expect(night.stdout).not.toContain('re-created');
        expect(night.stdout).not.toContain('Left for');
        expect((await sdrViews(emulator)).map((view) => view.viewId)).toEqual([byHand?.viewId]);
        expect(await pinnedNames(emulator, 'mia.chen@acme.test')).toEqual(["Mia's follow-ups", SDR, 'All recordings']);
        expect((await memoryFile(join(root, LEDGER))).lastApplied?.held).toBeUndefined();

        emulator.resetStats();
        const after = await days.run(4, nightly, env, root);
        expect(after.code, after.stderr).toBe(0);
        expect(after.stdout).not.toContain('Left for');
        expect(emulator.stats().writes).toBe(0);
      });
    },
    DAYS_TIMEOUT,
  );

  it('a --base plan given the memory reads and plans a pinned list it records as held, which the pull request does not touch', async () => {
    const root = await repository();
    await withEmulator(async (emulator, env) => {
      const reviewed = await days.run(1, ['apply', 'manifests', '--ledger', LEDGER, '--auto-approve'], env, root);
      expect(reviewed.code, reviewed.stderr).toBe(0);
      // The last apply held Noah's list (a saved plan's stale target, say); he re-orders his tabs since.
      const file = join(root, LEDGER);
      const memory = await memoryFile(file);
      if (memory.lastApplied === undefined) throw new Error('the reviewed apply recorded nothing');
      memory.lastApplied.held = ['pins:recordings:noah.patel@acme.test'];
      await writeFile(file, `${JSON.stringify(memory, null, 2)}\n`);
      await inTheApp(emulator, 'PUT', '/v1/recordings/views/pinned?userEmail=noah.patel%40acme.test', {
        viewIds: ['rv_default_all', 'rv_sdr_coaching'],
      });
      // A pull request that touches no list.
      await writeFile(join(root, 'manifests/views/demos.yaml'), 'kind: RecordingView\nname: Demos\nfilters: {}\n');
      const plan = (ledger: string[]) =>
        days.run(2, ['plan', 'manifests', '--base', 'HEAD', '--format', 'json', ...ledger], env, root);
      const targets = async (ledger: string[]): Promise<string[]> => {
        const planned = await plan(ledger);
        expect(planned.code, planned.stderr).toBe(0);
        return (JSON.parse(planned.stdout) as { changes: { target: string }[] }).changes.map((change) => change.target);
      };
      expect(await targets([])).toEqual(['view:recordings:name:Demos']);
      expect(await targets(['--ledger', LEDGER])).toEqual([
        'view:recordings:name:Demos',
        'pins:recordings:noah.patel@acme.test',
      ]);
    });
  });
});
