import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cloneData, runBuilt, tempDirs, withEmulator } from './harness.js';

const { dir, cleanupAll } = tempDirs();
afterEach(cleanupAll);

/**
 * The demo workspace with a team's tabs: every Member shares the recordings tabs (Mia
 * keeps her private view first), Noah and Lena share their deals tabs, Sam has deals tabs
 * of his own, and the Owner and the Admin are on the built-in default recordings tabs.
 */
function teamWorkspace() {
  const data = cloneData();
  const team = ['rv_customer_calls', 'rv_sdr_coaching', 'rv_default_all'];
  data.pinned.recordings = {
    u_mia: ['rv_mia_followups', ...team],
    u_noah: team,
    u_lena: team,
    u_sam: team,
    u_ines: team,
  };
  data.pinned.deals = {
    u_noah: ['dv_pipeline_review', 'dv_default_all'],
    u_lena: ['dv_pipeline_review', 'dv_default_all'],
    u_sam: ['dv_big_renewals'],
  };
  data.pinned.companies = {};
  data.pinned.contacts = {};
  return data;
}

describe('export --all-users writes the group documents a person would write', () => {
  it('shares a list in one group document, gives a lone list its own, and plans no change', async () => {
    const root = await dir({});
    await withEmulator(
      async (emulator, env) => {
        const exported = await runBuilt(['export', '--all-users', '--out', 'manifests'], { env, cwd: root });
        expect(exported.code, exported.stderr).toBe(0);
        expect(exported.stdout).toContain(
          'pins/: pinned views of 7 members in 2 group documents and 1 member document',
        );
        const pins = join(root, 'manifests', 'pins');
        expect((await readdir(pins)).sort()).toEqual([
          'lena-fischer-acme-test-and-noah-patel-acme-test.yaml',
          'role-member.yaml',
          'sam-okafor-acme-test.yaml',
        ]);
        const role = await readFile(join(pins, 'role-member.yaml'), 'utf8');
        expect(role).toContain(
          'name: Role Member\nroles: [Member]\nrecordings:\n  - Customer calls\n  - SDR coaching\n',
        );
        const pair = await readFile(join(pins, 'lena-fischer-acme-test-and-noah-patel-acme-test.yaml'), 'utf8');
        expect(pair).toContain('users:\n  - lena.fischer@acme.test\n  - noah.patel@acme.test\ndeals:\n');

        emulator.resetStats();
        const plan = await runBuilt(['plan', 'manifests', '--detailed-exitcode'], { env, cwd: root });
        expect(plan.code, plan.stdout + plan.stderr).toBe(0);
        expect(plan.stdout).toContain('No changes.');
        expect(emulator.stats().writes).toBe(0);

        const perMember = await runBuilt(['export', '--all-users', '--pins', 'per-member', '--out', 'one-each'], {
          env,
          cwd: root,
        });
        expect(perMember.code, perMember.stderr).toBe(0);
        expect(await readdir(join(root, 'one-each', 'pins'))).toHaveLength(7);
        const again = await runBuilt(['plan', 'one-each', '--detailed-exitcode'], { env, cwd: root });
        expect(again.code, again.stdout + again.stderr).toBe(0);
      },
      { data: teamWorkspace() },
    );
  });

  it('refuses --pins groups with --merge before any request: a merge never rewrites a file', async () => {
    const root = await dir({});
    await withEmulator(async (emulator, env) => {
      const run = await runBuilt(['export', '--all-users', '--merge', '--pins', 'groups', '--out', '.'], {
        env,
        cwd: root,
      });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain('usage.conflicting-options');
      expect(emulator.stats().requests).toBe(0);
    });
  });
});
