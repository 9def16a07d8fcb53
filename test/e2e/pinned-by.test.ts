import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cloneData, runBuilt, tempDirs, withEmulator } from './harness.js';
import { zoomDeletingPullRequest } from './pull-requests.js';

/**
 * `plan --pinned-by` through the built CLI against the emulator: a pull request's plan
 * that deletes a view counts every member who pins it, those without a document too,
 * where the plan without the flag counts only the lists it read.
 */

const { dir, cleanupAll } = tempDirs();
afterEach(cleanupAll);

interface DeleteJson {
  action: string;
  pinnedBy: string[];
  pinLists?: { read: number; unread: number; members?: true };
}

describe('plan --pinned-by on a pull request that deletes a view', () => {
  it('counts every member who pins it (a member without a document too) with the flag, and only the lists read without it', async () => {
    // The pull request deletes the Zoom view (prune) and edits Mia's tabs.
    const root = await zoomDeletingPullRequest(dir);
    // In the app, Adam (a document the plan does not read) and Noah (no document at all) pinned the Zoom view.
    const data = cloneData();
    data.pinned.recordings.u_adam = [...(data.pinned.recordings.u_adam ?? []), 'rv_video_meetings'];
    data.pinned.recordings.u_noah = [...(data.pinned.recordings.u_noah ?? []), 'rv_video_meetings'];
    const active = data.users.filter((user) => user.state === 'Active').length;
    await withEmulator(
      async (emulator, env) => {
        const deletion = async (args: string[]): Promise<{ change: DeleteJson; stdout: string; stderr: string }> => {
          const planned = await runBuilt(['plan', 'manifests', '--base', 'HEAD', '--out', 'plan.json', ...args], {
            env,
            cwd: root,
          });
          expect(planned.code).toBe(0);
          const plan = JSON.parse(await readFile(join(root, 'plan.json'), 'utf8')) as { changes: DeleteJson[] };
          const change = plan.changes.find((entry) => entry.action === 'delete');
          if (change === undefined) throw new Error('the plan deletes no view');
          return { change, stdout: planned.stdout, stderr: planned.stderr };
        };

        // Without the flag: Mia only, and the one declared list unread; Noah is nowhere.
        const partial = await deletion([]);
        expect(partial.change.pinnedBy).toEqual(['mia.chen@acme.test']);
        expect(partial.change.pinLists).toEqual({ read: 1, unread: 1 });
        expect(partial.stdout).toContain('pinned by 1 of the 1 recordings list read; 1 list not read');

        // With it: every active member's recordings list is read, after its cost is said.
        emulator.resetStats();
        const complete = await deletion(['--pinned-by']);
        expect(complete.change.pinnedBy).toEqual([
          'adam.reyes@acme.test',
          'mia.chen@acme.test',
          'noah.patel@acme.test',
        ]);
        expect(complete.change.pinLists).toEqual({ read: active, unread: 0, members: true });
        expect(complete.stdout).toContain('pinned by 3 members (read today)');
        expect(complete.stderr).toContain(
          `note: --pinned-by: reading ${active - 1} more pinned lists (${active - 1} requests) to count who pins the views this plan deletes in recordings\n`,
        );
        expect(emulator.stats().byEndpoint['GET /v1/recordings/views/pinned']).toBe(active);

        // A budget that leaves room for only some of them: the rest are counted as unread, never as not pinning.
        const plain = await deletion(['--verbose']);
        const spent = [...plain.stderr.matchAll(/^GET .* 200/gm)].length;
        const budgeted = await deletion(['--pinned-by', '--budget', String(spent + 2)]);
        expect(budgeted.change.pinLists).toMatchObject({ read: 3, unread: active - 3, members: true });
        expect(budgeted.stderr).toContain(`${active - 3} not read (--budget ${spent + 2} has no room for them)`);
      },
      { data },
    );
  });
});
