import { copyFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiView } from '../../src/domain/api-types.js';
import type { RunningEmulator } from '../../src/emulator/server.js';
import type { Plan } from '../../src/plan/types.js';
import { memoryFile } from '../support/memory-file.js';
import { git, simulatedDays } from './days.js';
import { inTheApp, repositoryOf } from './in-the-app.js';
import { tempDirs, withEmulator } from './harness.js';

/**
 * What ends a hold, over simulated days through the built CLI against the emulator, in a
 * git repository, with the sweep memory (issue 33): a view deleted in the app while the
 * Workspace names no `creatorEmail` stays held, with the lists naming it, until a pull
 * request names the creator, whose apply creates it again, writes the lists and ends
 * the holds (the next pull request's plan reads no list again); a saved plan's stale
 * list stays held although a view it names was deleted in the app (its cause is not the
 * view's); and holds are never judged against manifests not applied.
 */

const { dir, cleanupAll } = tempDirs();
afterEach(cleanupAll);

const days = simulatedDays('2026-06-01T03:00:00.000Z');
// Several simulated days of several runs each: room for a loaded machine, never a measure of speed.
const DAYS_TIMEOUT = 90_000;
const LEDGER = '.viewctl/ledger.json';
const SDR = 'SDR coaching';
const MIA = 'pins:recordings:mia.chen@acme.test';
const NOAH = 'pins:recordings:noah.patel@acme.test';
const CREATOR = 'creatorEmail: adam.reyes@acme.test';

const FILES = {
  'manifests/workspace.yaml': `kind: Workspace\nworkspaceId: ws_acme\n${CREATOR}\nprune: false\n`,
  'manifests/views/sdr-coaching.yaml':
    'kind: RecordingView\nname: SDR coaching\nviewId: rv_sdr_coaching\nicon: mortar_board\nfilters:\n  teamIdIn: [team_sdr]\n',
  'manifests/views/demos.yaml': 'kind: RecordingView\nname: Demos\nicon: star\nfilters: {}\n',
  'manifests/pins/mia.yaml':
    'kind: PinnedViews\nuserEmail: mia.chen@acme.test\nrecordings: [SDR coaching, All recordings]\n',
  'manifests/pins/noah.yaml':
    'kind: PinnedViews\nuserEmail: noah.patel@acme.test\nrecordings: [SDR coaching, All recordings]\n',
};

async function repository(): Promise<string> {
  return repositoryOf(await dir({}), FILES);
}

function sdrViews(emulator: RunningEmulator): ApiView[] {
  return (emulator.snapshot().views.recordings ?? []).filter((view) => view.name === SDR && !view.isDefault);
}

/**
 * appliedWithMiaHeld is day 1's reviewed apply, after which the memory records Mia's list
 * held as a saved plan's stale target (as `apply --plan` records it); answers the memory file.
 */
async function appliedWithMiaHeld(root: string, env: Record<string, string>): Promise<string> {
  const reviewed = await days.run(1, ['apply', 'manifests', '--ledger', LEDGER, '--auto-approve'], env, root);
  expect(reviewed.code, reviewed.stderr).toBe(0);
  const file = join(root, LEDGER);
  const memory = await memoryFile(file);
  if (memory.lastApplied === undefined) throw new Error('the reviewed apply recorded nothing');
  Object.assign(memory.lastApplied, { held: [MIA], heldCodes: { [MIA]: 'apply.stale-target' } });
  await writeFile(file, `${JSON.stringify(memory, null, 2)}\n`);
  return file;
}

/** pinnedIds are a member's recordings tabs in the emulator (by user id), in tab order. */
function pinnedIds(emulator: RunningEmulator, userId: string): string[] | undefined {
  return emulator.snapshot().pinned.recordings[userId];
}

/** edit rewrites a manifest file of `root` with `change`. */
async function edit(root: string, file: string, change: (text: string) => string): Promise<void> {
  const path = join(root, 'manifests', file);
  await writeFile(path, change(await readFile(path, 'utf8')));
}

/**
 * pullRequest makes `change` on a branch, plans it `--base main` given a copy of the memory
 * (the pull-request job's plan), merges it and applies it `--base HEAD^1` with the memory,
 * as the apply workflow does; it answers the plan.
 */
async function pullRequest(
  root: string,
  env: Record<string, string>,
  day: number,
  name: string,
  change: () => Promise<void>,
  refusedAt?: number,
): Promise<Plan> {
  git(root, 'checkout', '--quiet', '-b', name, 'main');
  await change();
  git(root, 'commit', '--quiet', '-am', name);
  await copyFile(join(root, LEDGER), join(root, '.viewctl/restored.json'));
  const planned = await days.run(
    day,
    ['plan', 'manifests', '--base', 'main', '--ledger', '.viewctl/restored.json', '--format', 'json'],
    env,
    root,
  );
  expect(planned.code, planned.stderr).toBe(0);
  git(root, 'checkout', '--quiet', 'main');
  git(root, 'merge', '--quiet', '--no-ff', '-m', `Merge ${name}`, name);
  const apply = ['apply', 'manifests', '--base', 'HEAD^1', '--ledger', LEDGER, '--auto-approve'];
  if (refusedAt !== undefined) {
    // Past --max-pin-changes the apply is refused, nothing written, and says the limit that would pass.
    const memory = await readFile(join(root, LEDGER), 'utf8');
    const refused = await days.run(day, [...apply, '--max-pin-changes', String(refusedAt)], env, root);
    expect(refused.code, refused.stderr).toBe(3);
    expect(refused.stderr).toContain('error[apply.max-pin-changes]');
    expect(refused.stderr).toContain(`pass --max-pin-changes ${String(refusedAt + 1)}`);
    expect(JSON.parse(await readFile(join(root, LEDGER), 'utf8')).lastApplied).toEqual(JSON.parse(memory).lastApplied);
  }
  const applied = await days.run(day, apply, env, root);
  expect(applied.code, applied.stderr).toBe(0);
  expect(applied.stderr).not.toContain('not advanced');
  return JSON.parse(planned.stdout) as Plan;
}

/** adopted runs day 1: the reviewed apply, then `creatorEmail` commented out as export writes it, applied too. */
async function adopted(root: string, env: Record<string, string>): Promise<void> {
  const reviewed = await days.run(1, ['apply', 'manifests', '--ledger', LEDGER, '--auto-approve'], env, root);
  expect(reviewed.code, reviewed.stderr).toBe(0);
  await edit(root, 'workspace.yaml', (text) => text.replace(CREATOR, `# ${CREATOR}`));
  git(root, 'commit', '--quiet', '-am', 'creatorEmail as export writes it');
  const again = await days.run(1, ['apply', 'manifests', '--ledger', LEDGER, '--auto-approve'], env, root);
  expect(again.code, again.stderr).toBe(0);
}

const nightly = ['apply', 'manifests', '--budget', '1000', '--reserve', '0', '--ledger', LEDGER, '--auto-approve'];

describe('what ends a hold, and what does not (issue 33)', () => {
  it(
    'a view deleted in the app without creatorEmail stays held with its lists until a pull request names the creator: its apply creates it again, writes the lists and ends the holds, and the next plan reads no list',
    async () => {
      const root = await repository();
      await withEmulator(async (emulator, env) => {
        await adopted(root, env);

        // Day 2: an admin deletes SDR coaching in the app (the service unpins it everywhere); a
        // pull request edits another view. Its create again needs a creator: held, with the lists.
        await inTheApp(emulator, 'DELETE', '/v1/recordings/views/rv_sdr_coaching');
        await pullRequest(root, env, 2, 'icon-2', () =>
          edit(root, 'views/demos.yaml', (text) => text.replace('icon: star', 'icon: rocket')),
        );
        const held = await memoryFile(join(root, LEDGER));
        expect(held.lastApplied?.commit).toBe(git(root, 'rev-parse', 'HEAD'));
        expect(held.lastApplied?.held).toEqual(['view:recordings:name:SDR coaching']);
        expect(held.lastApplied?.heldCodes).toEqual({
          'view:recordings:name:SDR coaching': 'view.create-needs-creator',
        });
        expect(sdrViews(emulator)).toEqual([]);

        // Day 3: a pull request names the creator. Its apply creates the view again and pins it
        // on every list naming it: refused past --max-pin-changes (the simulated month's 755
        // lists against the default 100), carried out within it.
        const named = await pullRequest(
          root,
          env,
          3,
          'creator',
          () => edit(root, 'workspace.yaml', (text) => text.replace(`# ${CREATOR}`, CREATOR)),
          1,
        );
        expect(named.changes.map((change) => change.target)).toEqual(
          expect.arrayContaining(['view:recordings:name:SDR coaching', MIA, NOAH]),
        );
        const [created] = sdrViews(emulator);
        expect(created?.viewId).toBeDefined();
        expect(created?.viewId).not.toBe('rv_sdr_coaching');
        // (Mia's private follow-ups tab stays in front: a private tab is hers.)
        for (const member of ['u_mia', 'u_noah'])
          expect(pinnedIds(emulator, member)?.slice(-2), member).toEqual([created?.viewId, 'rv_default_all']);
        const ended = await memoryFile(join(root, LEDGER));
        expect(ended.lastApplied?.held).toBeUndefined();
        expect(ended.lastApplied?.heldCodes).toBeUndefined();

        // Day 4: the next pull request touches no list, and its plan reads none.
        const next = await pullRequest(root, env, 4, 'icon-4', () =>
          edit(root, 'views/demos.yaml', (text) => text.replace('icon: rocket', 'icon: bolt')),
        );
        expect(next.changes.map((change) => [change.action, change.name])).toEqual([['update', 'Demos']]);
        expect(next.scope?.unread).toBe(next.scope?.lists);
        expect(next.held ?? []).toEqual([]);
      });
    },
    DAYS_TIMEOUT,
  );

  it(
    "a saved plan's stale list stays held when a view it names is deleted in the app: self-heal creates the view again and pins it for the others, never on that list",
    async () => {
      const root = await repository();
      await withEmulator(async (emulator, env) => {
        // The last apply held Mia's list as a saved plan's stale target (as apply --plan records it).
        const file = await appliedWithMiaHeld(root, env);

        // Day 2: an admin deletes SDR coaching in the app; the night re-creates it.
        await inTheApp(emulator, 'DELETE', '/v1/recordings/views/rv_sdr_coaching');
        const night = await days.run(2, nightly, env, root);
        expect(night.code, night.stderr).toBe(0);
        expect(night.stdout).toContain('1 view re-created ("SDR coaching")');
        const [created] = sdrViews(emulator);
        expect(pinnedIds(emulator, 'u_noah')).toEqual([created?.viewId, 'rv_default_all']);
        // Mia's list was held for another cause than the view: no reviewer saw its change carried out.
        expect(pinnedIds(emulator, 'u_mia')).toEqual(['rv_mia_followups', 'rv_default_all']);
        const after = await memoryFile(file);
        expect(after.lastApplied?.held).toEqual([MIA]);
        expect(after.lastApplied?.heldCodes).toEqual({ [MIA]: 'apply.stale-target' });
      });
    },
    DAYS_TIMEOUT,
  );

  it(
    'a hold is not judged against manifests not applied: a merge that asks for the list as it is, reverted before any apply, leaves it held',
    async () => {
      const root = await repository();
      await withEmulator(async (emulator, env) => {
        const file = await appliedWithMiaHeld(root, env);
        // Mia re-orders her tabs in the app; a merge asks for them so, and is not applied.
        await inTheApp(emulator, 'PUT', '/v1/recordings/views/pinned?userEmail=mia.chen%40acme.test', {
          viewIds: ['rv_mia_followups', 'rv_default_all', 'rv_sdr_coaching'],
        });
        await edit(
          root,
          'pins/mia.yaml',
          () => 'kind: PinnedViews\nuserEmail: mia.chen@acme.test\nrecordings: [All recordings, SDR coaching]\n',
        );
        git(root, 'commit', '--quiet', '-am', 'Mia as she has it');

        // Day 2: a reviewed apply is due; the night sweeps, and the hold stays.
        const due = await days.run(2, nightly, env, root);
        expect(due.code, due.stderr).toBe(2);
        expect((await memoryFile(file)).lastApplied?.held).toEqual([MIA]);

        // Day 3: the merge is reverted; self-heal leaves Mia's list for a reviewed apply.
        git(root, 'revert', '--quiet', '--no-edit', 'HEAD');
        const night = await days.run(3, nightly, env, root);
        expect(night.code, night.stderr).toBe(0);
        expect(pinnedIds(emulator, 'u_mia')).toEqual(['rv_mia_followups', 'rv_default_all', 'rv_sdr_coaching']);
        expect((await memoryFile(file)).lastApplied?.held).toEqual([MIA]);
      });
    },
    DAYS_TIMEOUT,
  );
});
