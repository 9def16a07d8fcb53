import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApplyReport } from '../../src/domain/apply-report.js';
import { memoryFile } from '../support/memory-file.js';
import { simulatedDays } from './days.js';
import type { RunningEmulator } from '../../src/emulator/server.js';
import { tempDirs, withEmulator } from './harness.js';
import { example, git } from './pull-requests.js';

const { dir, cleanupAll } = tempDirs();
afterEach(cleanupAll);

const MEMBERS = ['adam.reyes', 'noah.patel', 'lena.fischer', 'sam.okafor'] as const;
const NOAH = 'pins:recordings:noah.patel@acme.test';

/** pins is a member's recordings document listing `tabs`. */
const pins = (member: string, tabs: string): string =>
  `kind: PinnedViews\nuserEmail: ${member}@acme.test\nrecordings: [${tabs}]\n`;

/** pinnedIds is the member's recordings tabs in the emulator (by user id), as ids in tab order. */
function pinnedIds(emulator: RunningEmulator, userId: string): string[] | undefined {
  return emulator.snapshot().pinned.recordings[userId];
}

/**
 * Stale targets are held, not the plan (README, "Fail-safe rules"): over simulated days,
 * a pull request's reviewed plan changes four members' tabs and a view; one member
 * re-orders their tabs in the app before the merge. The apply of the reviewed plan
 * carries out the three other lists and the view, holds that one list, exits 0, names
 * it with what the plan expected and what the app has, and the sweep memory records it
 * as held; the same plan applied again sends nothing.
 */
describe('a reviewed plan one of whose targets changed in the app before the merge', () => {
  it('is carried out but for that target, which is held, named and recorded as held', async () => {
    const days = simulatedDays('2026-11-02T06:00:00.000Z');
    const root = await dir({
      'manifests/workspace.yaml':
        'kind: Workspace\nworkspaceId: ws_acme\ncreatorEmail: adam.reyes@acme.test\nprune: false\n',
      'manifests/views/customer-calls.yaml': await example('views/recordings/customer-calls.yaml'),
      ...Object.fromEntries(
        MEMBERS.map((member) => [`manifests/pins/${member}.yaml`, pins(member, 'All recordings, Customer calls')]),
      ),
    });
    await git(root, 'init', '-q');
    await git(root, 'add', '-A');
    await git(root, 'commit', '-qm', 'day 1');
    const ledger = 'ledger.json';
    await withEmulator(async (emulator, env) => {
      // Day 1: the manifests applied, with the memory.
      const first = await days.run(1, ['apply', 'manifests', '--auto-approve', '--ledger', ledger], env, root);
      expect(first.code, first.stdout + first.stderr).toBe(0);
      const day1 = (await memoryFile(join(root, ledger))).lastApplied?.commit;
      expect(day1).toBe(await git(root, 'rev-parse', 'HEAD'));

      // Day 2: a pull request changes the four lists and the view; its plan is reviewed.
      await git(root, 'checkout', '-qb', 'tabs');
      for (const member of MEMBERS)
        await writeFile(
          join(root, `manifests/pins/${member}.yaml`),
          pins(member, 'Customer calls, Zoom and Meet calls, All recordings'),
        );
      const view = join(root, 'manifests/views/customer-calls.yaml');
      await writeFile(view, (await readFile(view, 'utf8')).replace('order: Desc', 'order: Asc'));
      await git(root, 'commit', '-qam', 'tabs for calls');
      const reviewed = await days.run(2, ['plan', 'manifests', '--base', 'main', '--out', 'plan.json'], env, root);
      expect(reviewed.code, reviewed.stderr).toBe(0);
      expect(reviewed.stdout).toContain('Plan: 0 to create, 1 to update, 0 to delete, 4 pin lists');

      // Before the merge, Noah re-orders his tabs in the app.
      const reordered = await fetch(`${emulator.url}/v1/recordings/views/pinned?userEmail=noah.patel@acme.test`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json', 'x-service-key': emulator.apiKey },
        body: JSON.stringify({ viewIds: ['rv_customer_calls', 'rv_default_all'] }),
      });
      expect(reordered.status).toBe(200);
      await git(root, 'checkout', '-q', 'main');
      await git(root, 'merge', '-q', '--no-ff', '-m', 'merge tabs', 'tabs');
      const merged = await git(root, 'rev-parse', 'HEAD');

      // The apply of the reviewed plan: three lists and the view carried out, Noah's list held, exit 0.
      emulator.resetStats();
      const applied = await days.run(2, ['apply', '--plan', 'plan.json', '--ledger', ledger], env, root);
      expect(applied.code, applied.stdout + applied.stderr).toBe(0);
      expect(applied.stdout).toContain('Applied: 0 created, 1 updated, 3 pin lists, 0 deleted');
      expect(applied.stdout).toContain(
        'Held, not written: 1 target changed since the plan was reviewed (the rest of the plan was carried out, as reviewed):',
      );
      expect(applied.stdout).toContain('⏸ held  pinned recordings tabs of noah.patel@acme.test  [apply.stale-target]');
      expect(applied.stdout).toContain(
        'changed since the plan was reviewed (in the app, or by another apply): the tabs are now "Customer calls", "All recordings"; the plan expected "All recordings", "Customer calls"',
      );
      // The way on: a plan of the merged manifests from the commit the memory now records, with the memory.
      const advised = applied.stdout.match(/run `viewctl (plan <manifests> [^`]*)`/)?.[1];
      expect(advised).toBe(`plan <manifests> --since-applied --ledger ${ledger} --out plan.json`);
      expect(applied.stdout).toContain(
        `then \`viewctl apply --plan plan.json --expect-digest <digest printed by plan> --ledger ${ledger}\``,
      );
      expect(emulator.stats().writes).toBe(4);
      for (const member of ['u_adam', 'u_lena', 'u_sam'])
        expect(pinnedIds(emulator, member), member).toEqual([
          'rv_customer_calls',
          'rv_video_meetings',
          'rv_default_all',
        ]);
      expect(pinnedIds(emulator, 'u_noah')).toEqual(['rv_customer_calls', 'rv_default_all']);
      const memory = await memoryFile(join(root, ledger));
      expect(memory.lastApplied?.commit).toBe(merged);
      expect(memory.lastApplied?.held).toEqual([NOAH]);

      // The job run again (a retry): what landed is skipped, Noah's list still held; nothing sent, exit 0, as JSON.
      emulator.resetStats();
      const again = await days.run(
        2,
        ['apply', '--plan', 'plan.json', '--ledger', ledger, '--format', 'json'],
        env,
        root,
      );
      expect(again.code, again.stderr).toBe(0);
      const report = JSON.parse(again.stdout) as ApplyReport;
      expect(report.status).toBe('held');
      expect(report.alreadyApplied).toHaveLength(4);
      expect(report.held?.targets).toEqual([
        {
          target: NOAH,
          code: 'apply.stale-target',
          change: 'pinned recordings tabs of noah.patel@acme.test',
          reason:
            'changed since the plan was reviewed (in the app, or by another apply): the tabs are now "Customer calls", "All recordings"; the plan expected "All recordings", "Customer calls"',
        },
      ]);
      expect(emulator.stats().writes).toBe(0);
      expect((await memoryFile(join(root, ledger))).lastApplied?.held).toEqual([NOAH]);

      // Day 3, the advice followed as printed: the plan from the last applied commit takes
      // Noah's held list again (nothing else changed since), its apply writes it and ends the hold.
      const words = (advised ?? '').replace('<manifests>', 'manifests').split(' ');
      const recovery = await days.run(3, words, env, root);
      expect(recovery.code, recovery.stdout + recovery.stderr).toBe(0);
      expect(recovery.stdout).toContain('noah.patel@acme.test');
      expect(recovery.stdout).toContain('Plan: 0 to create, 0 to update, 0 to delete, 1 pin list');
      const digest = recovery.stdout.match(/--expect-digest ([0-9a-f]{64})/)?.[1] ?? 'no digest printed';
      const recovered = await days.run(
        3,
        ['apply', '--plan', 'plan.json', '--expect-digest', digest, '--ledger', ledger],
        env,
        root,
      );
      expect(recovered.code, recovered.stdout + recovered.stderr).toBe(0);
      expect(pinnedIds(emulator, 'u_noah')).toEqual(['rv_customer_calls', 'rv_video_meetings', 'rv_default_all']);
      const after = await memoryFile(join(root, ledger));
      expect(after.lastApplied?.commit).toBe(merged);
      expect(after.lastApplied?.held ?? []).toEqual([]);
    });
  });
});
