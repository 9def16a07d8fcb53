import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import type { ApiUser, ApiView } from '../../src/domain/api-types.js';
import { cloneData, runCli, tempDirs, withEmulator, type CliRun } from './harness.js';

// Issue 24: a glob with many stars against a long name a member chose (an address, a
// view named in the app) took minutes of CPU per match. Here `plan` runs in a child
// process against the emulator, so under the old matcher the test's own timeout ends
// it; with the linear matcher the plan finishes and is right.

const { dir, cleanupAll } = tempDirs();
afterEach(cleanupAll);

const HOSTILE = '*a*a*a*a*a*a*a*a*a*a*a*a*z';
const FORTY = 'a'.repeat(40);
const WORKSPACE = 'kind: Workspace\nworkspaceId: ws_acme\ncreatorEmail: adam.reyes@acme.test\n';

/** plan runs `plan --format json` in a child process that the end of the test kills, whatever happened. */
async function plan(manifests: string, env: Record<string, string>): Promise<CliRun> {
  const controller = new AbortController();
  onTestFinished(() => controller.abort());
  return runCli(['plan', '.', '--rate', '1000', '--format', 'json'], {
    env,
    cwd: manifests,
    signal: controller.signal,
  });
}

function member(id: string, email: string): ApiUser {
  return {
    id,
    email,
    name: email,
    license: 'Full',
    role: 'Member',
    state: 'Active',
    isDesktopAppInstalled: false,
    isMobileAppInstalled: false,
  };
}

describe('hostile globs (issue 24)', () => {
  it("a group whose users glob has twelve stars, against a member whose address is forty a's, plans the one member it reaches", async () => {
    const data = cloneData();
    data.users.push(member('u_forty', `${FORTY}@acme.test`), member('u_forty_z', `${FORTY}@acme.biz`));
    const manifests = await dir({
      'workspace.yaml': WORKSPACE,
      'pins/hostile.yaml': `kind: PinnedViews\nname: Hostile\nusers: ["${HOSTILE}"]\nrecordings: [All recordings]\n`,
    });
    await withEmulator(
      async (emulator, env) => {
        const run = await plan(manifests, env);
        expect(run.stderr).toBe('');
        expect(run.code).toBe(0);
        const changes = (
          JSON.parse(run.stdout) as { changes: { userEmail?: string; group?: string; after: { viewId: string }[] }[] }
        ).changes;
        // Only the address ending in z matches; the forty a's at acme.test do not.
        expect(
          changes.map((change) => [change.userEmail, change.group, change.after.map((tab) => tab.viewId)]),
        ).toEqual([[`${FORTY}@acme.biz`, 'Hostile', ['rv_default_all']]]);
        expect(emulator.stats().writes).toBe(0);
      },
      { data },
    );
  });

  it("the same glob in the Workspace ignore, against a view named forty a's in the app, prunes that view and keeps the one it matches", async () => {
    const data = cloneData();
    const model = data.views.recordings.find((view) => view.viewId === 'rv_customer_calls') as ApiView;
    data.views.recordings.push(
      { ...structuredClone(model), viewId: 'rv_forty', name: FORTY, ownerId: 'u_mia' },
      { ...structuredClone(model), viewId: 'rv_forty_z', name: `${FORTY}z`, ownerId: 'u_mia' },
    );
    const manifests = await dir({
      'workspace.yaml': `${WORKSPACE}prune: true\nignore: ["${HOSTILE}"]\n`,
      'views.yaml': 'kind: RecordingView\nname: Customer calls\n',
    });
    await withEmulator(
      async (emulator, env) => {
        const run = await plan(manifests, env);
        expect(run.stderr).toBe('');
        expect(run.code).toBe(0);
        const changes = (JSON.parse(run.stdout) as { changes: { action: string; name: string }[] }).changes;
        const deletes = changes
          .filter((change) => change.action === 'delete')
          .map((change) => change.name)
          .sort();
        expect(deletes).toEqual([
          'Budget confirmed',
          'Competitor mentions',
          'Deals at risk',
          'SDR coaching',
          'Zoom and Meet calls',
          FORTY,
        ]);
        expect(emulator.stats().writes).toBe(0);
      },
      { data },
    );
  });
});
