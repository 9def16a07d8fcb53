import { copyFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiView } from '../../src/domain/api-types.js';
import type { Plan } from '../../src/plan/types.js';
import { memoryFile } from '../support/memory-file.js';
import { LiveWorkspace } from '../support/org-life.js';
import { cloneData, tempDirs } from './harness.js';
import { exampleRepository, git, simulatedDays } from './days.js';

/**
 * Joiners in an organisation whose nightly only reports (README, "Drift: who, what,
 * when"), over simulated days: the report-only night finds a group's new member and the
 * memory marks their list pending; the next pull request's plan (`--base`, given the
 * memory) carries that list though the pull request never touches it, and the merge's
 * apply writes it: the joiner has the group's tabs the day after.
 */

const { dir, cleanupAll } = tempDirs();
afterEach(cleanupAll);

const days = simulatedDays('2026-12-01T06:00:00.000Z');
const LEDGER = '.viewctl/ledger.json';
const JO = 'jo.new@acme.test';
const JO_LIST = `pins:companies:${JO}`;

async function edit(file: string, change: (text: string) => string): Promise<void> {
  await writeFile(file, change(await readFile(file, 'utf8')));
}

describe('a joiner while the nightly only reports', () => {
  it('is pending at night, carried by the next pull request plan given the memory, and written by its merge', async () => {
    const root = await exampleRepository(await dir({}));
    await edit(join(root, 'manifests/pins/member-company-tabs.yaml'), (text) =>
      text.replace('companies: [All companies', 'companies: [Customers, All companies'),
    );
    git(root, 'commit', '--quiet', '-am', 'Members get the Customers tab');
    const live = new LiveWorkspace(cloneData());
    await live.start();
    try {
      expect(
        (await days.run(1, ['apply', 'manifests', '--auto-approve', '--ledger', LEDGER], live.env, root)).code,
      ).toBe(0);

      // Day 2: Jo joins; the report-only night lists Jo's companies tabs as pending and writes nothing.
      await live.edit((data) => {
        data.users.push({
          id: 'u_jo',
          email: JO,
          name: 'Jo New',
          license: 'Full',
          role: 'Member',
          state: 'Active',
          isDesktopAppInstalled: false,
          isMobileAppInstalled: false,
        });
      });
      const night = JSON.parse(
        (
          await days.run(
            2,
            ['plan', 'manifests', '--budget', '1000', '--ledger', LEDGER, '--format', 'json'],
            live.env,
            root,
          )
        ).stdout,
      ) as Plan;
      expect(night.changes.find((change) => change.target === JO_LIST)?.origin).toBe('membership');
      expect((await memoryFile(join(root, LEDGER))).lists[`companies:${JO}`]?.pending).toBe('membership');

      // Day 3: a pull request that never touches Jo's list; its plan, given a copy of the memory (the job restores it), carries it.
      await copyFile(join(root, LEDGER), join(root, '.viewctl/restored.json'));
      git(root, 'checkout', '--quiet', '-b', 'noah-tab');
      await edit(join(root, 'manifests/pins/noah.yaml'), (text) =>
        text.replace('  - All deals\n', '  - All deals\n  - Big renewals\n'),
      );
      git(root, 'commit', '--quiet', '-am', 'Noah pins Big renewals');
      const planned = await days.run(
        3,
        ['plan', 'manifests', '--base', 'main', '--ledger', '.viewctl/restored.json', '--format', 'json'],
        live.env,
        root,
      );
      const plan = JSON.parse(planned.stdout) as Plan;
      expect(
        plan.changes
          .filter((change) => change.action === 'pin')
          .map((change) => [change.target, change.origin ?? 'own']),
      ).toEqual([
        ['pins:deals:noah.patel@acme.test', 'own'],
        ['pins:companies:jo.new@acme.test', 'membership'],
      ]);

      // The merge's apply (of what changed since the parent, with the memory) writes it.
      git(root, 'checkout', '--quiet', 'main');
      git(root, 'merge', '--quiet', '--no-ff', '-m', 'Merge noah-tab', 'noah-tab');
      const applied = await days.run(
        3,
        ['apply', 'manifests', '--base', 'HEAD^1', '--ledger', LEDGER, '--auto-approve'],
        live.env,
        root,
      );
      expect(applied.code, applied.stderr).toBe(0);
      const tabs = (await live.api(
        'GET',
        `/v1/companies/views/pinned?userEmail=${encodeURIComponent(JO)}`,
      )) as ApiView[];
      expect(tabs.map((tab) => tab.name)).toEqual(['Customers', 'All companies', 'Companies with interactions']);
      expect((await memoryFile(join(root, LEDGER))).lists[`companies:${JO}`]?.pending).toBeUndefined();

      // Night 4: nothing pending, nothing to write for Jo.
      const after = JSON.parse(
        (
          await days.run(
            4,
            ['plan', 'manifests', '--budget', '1000', '--ledger', LEDGER, '--format', 'json'],
            live.env,
            root,
          )
        ).stdout,
      ) as Plan;
      expect(after.changes.filter((change) => change.target === JO_LIST)).toEqual([]);
    } finally {
      await live.close();
    }
  });
});
