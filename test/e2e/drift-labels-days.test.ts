import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Plan } from '../../src/plan/types.js';
import { memoryFile } from '../support/memory-file.js';
import { cloneData, tempDirs, withEmulator } from './harness.js';
import { exampleRepository, git, simulatedDays } from './days.js';

/**
 * Who did it, over simulated nights with the sweep memory (README, "Drift: who, what,
 * when"): a member's tab that went with a view an admin deleted is labelled by the
 * deletion, not as the member's removal; a joiner the memory's first users read saw,
 * whose list it never read, holding only the built-in defaults, is membership (pending),
 * not tabs "added and removed in the app".
 */

const { dir, cleanupAll } = tempDirs();
afterEach(cleanupAll);

const days = simulatedDays('2026-05-04T06:00:00.000Z');
const LEDGER = '.viewctl/ledger.json';
const JO = 'jo.new@acme.test';

async function api(env: Record<string, string>, method: string, path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${env.VIEWCTL_BASE_URL ?? ''}${path}`, {
    method,
    headers: { 'X-Service-Key': env.VIEWCTL_API_KEY ?? '', 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  expect(response.status, `${method} ${path}`).toBe(200);
  return ((await response.json()) as { result: unknown }).result;
}

describe('drift labels over simulated nights', () => {
  it("labels a joiner's never-read default tabs membership and a tab lost with a deleted view by the deletion", async () => {
    const root = await exampleRepository(await dir({}));
    const group = join(root, 'manifests/pins/member-company-tabs.yaml');
    await writeFile(
      group,
      (await readFile(group, 'utf8')).replace('companies: [All companies', 'companies: [Customers, All companies'),
    );
    git(root, 'commit', '--quiet', '-am', 'Members get the Customers tab');
    const data = cloneData();
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
    await withEmulator(
      async (_emulator, env) => {
        const joPath = `/v1/companies/views/pinned?userEmail=${encodeURIComponent(JO)}`;
        const joDefaults = ((await api(env, 'GET', joPath)) as { viewId: string }[]).map((view) => view.viewId);
        // Day 1: an apply whose users read is the memory's first; it did not read Jo's list, which holds the defaults.
        expect((await days.run(1, ['apply', 'manifests', '--auto-approve', '--ledger', LEDGER], env, root)).code).toBe(
          0,
        );
        await api(env, 'PUT', joPath, { viewIds: joDefaults });
        const memory = await memoryFile(join(root, LEDGER));
        delete memory.lists[`companies:${JO}`];
        expect(memory.members[JO]?.since).toBeUndefined();
        await writeFile(join(root, LEDGER), JSON.stringify(memory));

        // Night 2 and 3: Jo's list is the group's new member's, pending, not an edit in the app.
        for (const night of [2, 3]) {
          const plan = JSON.parse(
            (
              await days.run(
                night,
                ['plan', 'manifests', '--budget', '1000', '--ledger', LEDGER, '--format', 'json'],
                env,
                root,
              )
            ).stdout,
          ) as Plan;
          expect(
            plan.changes.find((change) => change.target === `pins:companies:${JO}`)?.origin,
            `night ${String(night)}`,
          ).toBe('membership');
        }
        const text = await days.run(3, ['plan', 'manifests', '--budget', '1000', '--ledger', LEDGER], env, root);
        expect(text.stdout).toContain('1 member newly reached by group "Member company tabs"');
        expect(text.stdout).not.toContain('companies tabs in the app');

        // Day 4: an admin deletes "Customer calls"; Adam's recordings tab went with it.
        await api(env, 'DELETE', '/v1/recordings/views/rv_customer_calls');
        const night = await days.run(4, ['plan', 'manifests', '--budget', '1000', '--ledger', LEDGER], env, root);
        expect(night.stdout).toContain('1 RecordingView deleted in the app');
        expect(night.stdout).toContain(
          '1 member lost a recordings tab when its view was deleted in the app (the service unpins a deleted view)',
        );
        expect(night.stdout).not.toContain('removed recordings tabs in the app');
        expect(night.stdout).toContain('apply creates the view again and pins it back');
      },
      { data },
    );
  });
});
