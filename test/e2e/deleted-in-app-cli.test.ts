import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDirs, withEmulator } from './harness.js';
import { simulatedDays } from './days.js';
import { memoryFile } from '../support/memory-file.js';

/**
 * A declared view deleted in the app, through the built CLI with `--ledger FILE` over
 * simulated days (README, "A declared view deleted in the app"): the memory the CLI
 * keeps saw the view live and public, an admin deletes it, the next plan creates it
 * again, apply does, and the plan after is in sync with the warning naming the fix.
 */

const { dir, cleanupAll } = tempDirs();
afterEach(cleanupAll);

const days = simulatedDays('2026-11-20T03:00:00.000Z');
const runOn = days.run;

const FILES = {
  'manifests/workspace.yaml':
    'kind: Workspace\nworkspaceId: ws_acme\ncreatorEmail: adam.reyes@acme.test\nprune: false\n',
  'manifests/views/sdr-coaching.yaml':
    'kind: RecordingView\nname: SDR coaching\nviewId: rv_sdr_coaching\nicon: mortar_board\nfilters:\n  teamIdIn: [team_sdr]\n',
  'manifests/pins/mia.yaml':
    'kind: PinnedViews\nuserEmail: mia.chen@acme.test\nrecordings: [SDR coaching, All recordings]\n',
};

describe('viewctl plan and apply --ledger: a declared view deleted in the app (issue 25)', () => {
  it('creates it again, labelled, then the stale viewId resolves by name, in sync', async () => {
    const root = await dir(FILES);
    const ledger = join(root, 'ledger.json');
    await withEmulator(async (emulator, env) => {
      const day1 = await runOn(1, ['apply', 'manifests', '--auto-approve', '--ledger', ledger], env, root);
      expect(day1.stderr).not.toContain('error');
      expect(day1.code).toBe(0);
      const memory = await memoryFile(ledger);
      expect(memory.views['view:recordings:id:rv_sdr_coaching']).toMatchObject({
        name: 'SDR coaching',
        lastSeen: '2026-11-20T03:00:00.000Z',
      });

      const deleted = await fetch(`${emulator.url}/v1/recordings/views/rv_sdr_coaching`, {
        method: 'DELETE',
        headers: { 'X-Service-Key': emulator.apiKey },
      });
      expect(deleted.status).toBe(200);

      // Without the memory: held. With it: created again, labelled, and Mia's list pins it.
      const blind = await runOn(2, ['plan', 'manifests', '--detailed-exitcode'], env, root);
      expect(blind.code).toBe(2);
      expect(blind.stdout).toMatch(/\[view\.id-not-found\]/);
      const plan = await runOn(2, ['plan', 'manifests', '--ledger', ledger, '--format', 'json'], env, root);
      expect(plan.code).toBe(0);
      const parsed = JSON.parse(plan.stdout) as {
        changes: { action: string; origin?: string; deletedOutside?: { id: string } }[];
        held?: unknown;
      };
      expect(parsed.held).toBeUndefined();
      expect(
        parsed.changes.map((change) => [change.action, change.origin ?? null, change.deletedOutside?.id ?? null]),
      ).toEqual([
        // No apply recorded in the memory yet: the list's difference is hedged drift.
        ['create', 'outside', 'rv_sdr_coaching'],
        ['pin', 'unapplied-or-outside', null],
      ]);
      const text = await runOn(2, ['plan', 'manifests', '--ledger', ledger], env, root);
      expect(text.stdout).toContain('deleted in the app (rv_sdr_coaching, last seen 2026-11-20): created again');

      const applied = await runOn(2, ['apply', 'manifests', '--auto-approve', '--ledger', ledger], env, root);
      expect(applied.stderr).not.toContain('error');
      expect(applied.code).toBe(0);
      const listing = (await (
        await fetch(`${emulator.url}/v1/recordings/views`, { headers: { 'X-Service-Key': emulator.apiKey } })
      ).json()) as { result: { viewId: string; name: string }[] };
      const created = listing.result.filter((view) => view.name === 'SDR coaching');
      expect(created).toHaveLength(1);
      const newId = created[0]?.viewId ?? '';

      // Day 3: in sync, with the warning naming the file:line of viewId, both ids and the fix.
      const next = await runOn(3, ['plan', 'manifests', '--ledger', ledger, '--detailed-exitcode'], env, root);
      expect(next.code).toBe(0);
      expect(next.stdout).toContain('No changes.');
      expect(next.stdout).toContain(
        `warning: manifests/views/sdr-coaching.yaml:3:9: RecordingView "SDR coaching" binds to rv_sdr_coaching, which was deleted in the app; it resolves by name to ${newId}`,
      );
      emulator.resetStats();
      const again = await runOn(3, ['apply', 'manifests', '--auto-approve', '--ledger', ledger], env, root);
      expect(again.code).toBe(0);
      expect(emulator.stats().writes).toBe(0);
    });
  });
});
