import { afterEach, describe, expect, it } from 'vitest';
import { cloneData, runBuilt, tempDirs, withEmulator } from './harness.js';

// Group pin documents and private tabs, through the built CLI against the emulator's demo
// workspace: five active Members (Lena pins her private company view first), Tom
// deactivated and Zoe invited.

const { dir, cleanupAll } = tempDirs();
afterEach(cleanupAll);

/** The CLI's own pace, raised as the emulator's limits are: these tests are not about the limit. */
const FAST = ['--rate', '1000'];

const WORKSPACE = 'kind: Workspace\nworkspaceId: ws_acme\ncreatorEmail: adam.reyes@acme.test\n';

describe('group PinnedViews documents', () => {
  it('refuses two groups that reach one member in one domain, naming both and the member, before reading any list of theirs', async () => {
    const manifests = await dir({
      'workspace.yaml': WORKSPACE,
      'pins/members.yaml': 'kind: PinnedViews\nname: Members\nroles: [Member]\nrecordings: [All recordings]\n',
      'pins/aes.yaml':
        'kind: PinnedViews\nname: Account executives\nusers: ["mia.chen@acme.test", "noah.*@acme.test"]\nrecordings: [Customer calls]\n',
      // Lena's own document wins over both groups: no overlap for her.
      'pins/lena.yaml': 'kind: PinnedViews\nuserEmail: lena.fischer@acme.test\nrecordings: [Customer calls]\n',
    });
    await withEmulator(async (emulator, env) => {
      emulator.resetStats();
      const run = await runBuilt(['plan', '.'], { env, cwd: manifests });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(
        'error[pins.group-overlap]: pins/members.yaml:4:13: the recordings tabs of mia.chen@acme.test (and 1 more member) are managed by two groups: "Account executives" (pins/aes.yaml:4:13) and "Members" (pins/members.yaml:4:13)',
      );
      expect(run.stderr).not.toContain('lena');
      // The members are settled before the second phase: no pinned list is read, not even Lena's own.
      expect(emulator.stats().byEndpoint['GET /v1/recordings/views/pinned']).toBeUndefined();
      expect(emulator.stats().writes).toBe(0);
    });
  });

  it("keeps each member's private tabs ahead of the group's, counts inactive members, and converges", async () => {
    const manifests = await dir({
      'workspace.yaml': WORKSPACE,
      'pins/members.yaml':
        'kind: PinnedViews\nname: Member company tabs\nroles: [Member]\ncompanies: [Customers, All companies]\n',
    });
    await withEmulator(async (emulator, env) => {
      emulator.resetStats();
      const planned = await runBuilt(['plan', '.', ...FAST, '--format', 'json'], { env, cwd: manifests });
      expect(planned.code).toBe(0);
      // Users first (one page), then one companies list per active member: Mia, Noah, Lena, Sam, Ines.
      expect(emulator.stats().byEndpoint).toMatchObject({ 'GET /v1/users': 1, 'GET /v1/companies/views/pinned': 5 });
      const plan = JSON.parse(planned.stdout) as {
        skippedMembers: number;
        changes: { userEmail: string; group: string; after: { viewId: string }[] }[];
      };
      expect(plan.skippedMembers).toBe(2);
      const lena = plan.changes.find((change) => change.userEmail === 'lena.fischer@acme.test');
      expect(lena?.group).toBe('Member company tabs');
      expect(lena?.after.map((tab) => tab.viewId)).toEqual(['cv_lena_accounts', 'cv_customers', 'cv_default_all']);

      const text = await runBuilt(['plan', '.', ...FAST], { env, cwd: manifests });
      // One block for the group, the private tab it keeps for Lena apart.
      expect(text.stdout).toContain('group "Member company tabs"  companies · 5 members  pins/members.yaml:4');
      expect(text.stdout).toContain(
        "    kept first for 1 member: their private tabs (lena.fischer@acme.test: Lena's accounts)",
      );
      expect(text.stdout).toContain(
        'Group pins skip 2 members a glob or a role reaches who are not active (deactivated or invited).',
      );

      // A saved plan with group changes fits the plan schema and passes apply's re-checks.
      const saved = await runBuilt(['plan', '.', ...FAST, '--out', 'plan.json', '--format', 'json'], {
        env,
        cwd: manifests,
      });
      const { digest } = JSON.parse(saved.stdout) as { digest: string };
      const applied = await runBuilt(['apply', ...FAST, '--plan', 'plan.json', '--expect-digest', digest], {
        env,
        cwd: manifests,
      });
      expect(applied.stderr).toBe('');
      expect(applied.code).toBe(0);
      expect(emulator.stats().writes).toBe(5);
      const again = await runBuilt(['plan', '.', ...FAST, '--detailed-exitcode'], { env, cwd: manifests });
      expect(again.code).toBe(0);
      expect(again.stdout).toContain('No changes.');
    });
  });
});

describe("private tabs are the member's", () => {
  it('a {viewId} the member unpinned in the app is left out with a warning; the plan does not fail', async () => {
    const data = cloneData();
    // Mia unpinned her private follow-ups view in the app after pins/mia.yaml was written.
    data.pinned.recordings.u_mia = ['rv_video_meetings', 'rv_default_all'];
    const manifests = await dir({
      'workspace.yaml': WORKSPACE,
      'pins/mia.yaml':
        'kind: PinnedViews\nuserEmail: mia.chen@acme.test\nrecordings:\n  - {viewId: rv_mia_followups}\n  - All recordings\n  - Zoom and Meet calls\n',
    });
    await withEmulator(
      async (emulator, env) => {
        const run = await runBuilt(['plan', '.'], { env, cwd: manifests });
        expect(run.stderr).toBe('');
        expect(run.code).toBe(0);
        expect(run.stdout).toContain(
          'warning: pins/mia.yaml:4:5: rv_mia_followups is left out of the recordings tabs of mia.chen@acme.test: they no longer pin it',
        );
        expect(run.stdout).toContain('after: All recordings · Zoom and Meet calls');
        expect(emulator.stats().writes).toBe(0);
      },
      { data },
    );
  });
});
