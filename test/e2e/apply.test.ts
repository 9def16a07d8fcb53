import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { EmulatorData } from '../../src/emulator/model.js';
import { EXAMPLES, tempDirs, runBuilt, runCli, withEmulator } from './harness.js';

const { dir, cleanupAll } = tempDirs();
afterEach(cleanupAll);

/** publicSavedNames lists the public saved views of a domain, by name, sorted. */
function publicSavedNames(data: EmulatorData, domain: keyof EmulatorData['views']): string[] {
  return data.views[domain]
    .filter((view) => view.visibility === 'Public' && !view.isDefault)
    .map((view) => view.name)
    .sort();
}

// runCli spawns the built CLI: the end-to-end run, and stdin as a process sees a pipe.
// The other tests run the built run() in this process (runBuilt), without the spawn.
describe('viewctl apply against the emulator', () => {
  it('applies the examples, and a second plan has nothing to do', async () => {
    await withEmulator(async (emulator, env) => {
      const applied = await runCli(['apply', '--rate', '1000', EXAMPLES, '--auto-approve'], { env });
      expect(applied.code).toBe(0);
      expect(applied.stdout).toMatch(/Applied: 1 created, 1 updated, 3 pin lists, 0 deleted/);
      expect(emulator.stats().writes).toBe(5);
      const again = await runCli(['plan', '--rate', '1000', EXAMPLES, '--detailed-exitcode'], { env });
      // Only the drift remains: it is reported, never applied.
      expect(again.code).toBe(2);
      expect(
        JSON.parse((await runCli(['plan', '--rate', '1000', EXAMPLES, '--format', 'json'], { env })).stdout).summary,
      ).toEqual({
        create: 0,
        update: 0,
        delete: 0,
        pin: 0,
        drift: 1,
      });
      expect(emulator.stats().writes).toBe(5);
    });
  });

  it('carries out a saved plan with --expect-digest', async () => {
    const out = await dir({});
    const planFile = join(out, 'plan.json');
    await withEmulator(async (emulator, env) => {
      await runBuilt(['plan', '--rate', '1000', EXAMPLES, '--out', planFile], { env });
      const { digest } = JSON.parse(await readFile(planFile, 'utf8')) as { digest: string };
      const applied = await runBuilt(['apply', '--rate', '1000', '--plan', planFile, '--expect-digest', digest], {
        env,
      });
      expect(applied.code).toBe(0);
      expect(emulator.stats().writes).toBe(5);
    });
  });

  it('gives two plans of the same changes one digest, so apply PATHS --expect-digest can insist on it', async () => {
    await withEmulator(async (emulator, env) => {
      const digestOf = async (): Promise<string> =>
        (
          JSON.parse((await runBuilt(['plan', '--rate', '1000', EXAMPLES, '--format', 'json'], { env })).stdout) as {
            digest: string;
          }
        ).digest;
      const first = await digestOf();
      expect(await digestOf()).toBe(first);
      const refused = await runBuilt(
        ['apply', '--rate', '1000', EXAMPLES, '--auto-approve', '--expect-digest', 'abc'],
        { env },
      );
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('usage.bad-digest');
      const applied = await runBuilt(
        ['apply', '--rate', '1000', EXAMPLES, '--auto-approve', '--expect-digest', first],
        { env },
      );
      expect(applied.code).toBe(0);
      expect(emulator.stats().writes).toBe(5);
    });
  });

  it('refuses without approval when stdin is not a terminal, writing nothing', async () => {
    await withEmulator(async (emulator, env) => {
      emulator.resetStats();
      const run = await runCli(['apply', '--rate', '1000', EXAMPLES], { env });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain('--auto-approve');
      expect(emulator.stats().requests).toBe(0);
    });
  });

  it('refuses a tampered plan (exit 3), writing nothing, and holds the changed target of a stale one, applying the rest (exit 0)', async () => {
    const out = await dir({});
    const planFile = join(out, 'plan.json');
    await withEmulator(async (emulator, env) => {
      await runBuilt(['plan', '--rate', '1000', EXAMPLES, '--out', planFile], { env });
      // Tampered: a change edited by hand, digest kept.
      const text = await readFile(planFile, 'utf8');
      const tamperedFile = join(out, 'tampered.json');
      await writeFile(tamperedFile, text.replace('"MsTeams"', '"Loom"'));
      const tampered = await runBuilt(['apply', '--rate', '1000', '--plan', tamperedFile], { env });
      expect(tampered.code).toBe(3);
      expect(tampered.stderr).toContain('plan.digest-mismatch');
      // A digest other than the reviewed one.
      const other = await runBuilt(['apply', '--rate', '1000', '--plan', planFile, '--expect-digest', 'f'.repeat(64)], {
        env,
      });
      expect(other.code).toBe(3);
      // Stale: someone changes a target view in the app between plan and apply.
      const changed = await fetch(`${emulator.url}/v1/recordings/views/rv_video_meetings`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json', 'x-service-key': emulator.apiKey },
        body: JSON.stringify({ icon: 'tv' }),
      });
      expect(changed.status).toBe(200);
      const stale = await runBuilt(['apply', '--rate', '1000', '--plan', planFile], { env });
      expect(stale.code, stale.stderr).toBe(0);
      expect(stale.stdout).toMatch(/⏸ held {2}update \w+ "[^"]+" \(rv_video_meetings\) {2}\[apply\.stale-target\]/);
      expect(stale.stdout).toContain('its icon changed from what the plan expected');
      // The held view keeps what the app gave it; the plan's other changes landed.
      const listing = JSON.stringify(
        await (
          await fetch(`${emulator.url}/v1/recordings/views`, { headers: { 'x-service-key': emulator.apiKey } })
        ).json(),
      );
      expect(listing).toMatch(
        /"viewId":"rv_video_meetings"[^}]*"icon":"tv"|"icon":"tv"[^}]*"viewId":"rv_video_meetings"/,
      );
      expect(stale.stdout).toMatch(/^Applied: /m);
    });
  });

  it('prunes exactly the undeclared public views of a declared domain', async () => {
    const manifests = await dir({
      'workspace.yaml':
        'kind: Workspace\nworkspaceId: ws_acme\ncreatorEmail: adam.reyes@acme.test\nprune: true\nignore: ["SDR *"]\n',
      'views.yaml': 'kind: RecordingView\nname: Customer calls\n---\nkind: RecordingView\nname: Zoom and Meet calls\n',
    });
    await withEmulator(async (emulator, env) => {
      const before = emulator.snapshot();
      const planned = await runBuilt(['plan', '--rate', '1000', manifests, '--format', 'json'], { env });
      const deletes = (JSON.parse(planned.stdout) as { changes: Array<{ action: string; name: string }> }).changes
        .filter((change) => change.action === 'delete')
        .map((change) => change.name)
        .sort();
      expect(deletes).toEqual(['Budget confirmed', 'Competitor mentions', 'Deals at risk']);
      const applied = await runBuilt(['apply', '--rate', '1000', manifests, '--auto-approve'], { env });
      expect(applied.code).toBe(0);
      const after = emulator.snapshot();
      // Declared and ignored views stay; defaults and the private view are never candidates.
      expect(publicSavedNames(after, 'recordings')).toEqual(['Customer calls', 'SDR coaching', 'Zoom and Meet calls']);
      expect(after.views.recordings.filter((view) => view.isDefault)).toEqual(
        before.views.recordings.filter((view) => view.isDefault),
      );
      expect(after.views.recordings.some((view) => view.viewId === 'rv_mia_followups')).toBe(true);
      // Undeclared domains are never pruned.
      for (const domain of ['deals', 'companies', 'contacts'] as const) {
        expect(after.views[domain]).toEqual(before.views[domain]);
      }
    });
  });

  it('refuses a plan deleting more than --max-deletes (exit 3), writing nothing', async () => {
    const manifests = await dir({
      'workspace.yaml': 'kind: Workspace\nprune: true\n',
      'views.yaml': 'kind: RecordingView\nname: Customer calls\n',
    });
    await withEmulator(async (emulator, env) => {
      const run = await runBuilt(['apply', '--rate', '1000', manifests, '--auto-approve', '--max-deletes', '2'], {
        env,
      });
      expect(run.code).toBe(3);
      expect(run.stderr).toContain('--max-deletes');
      expect(emulator.stats().writes).toBe(0);
    });
  });
});

describe('the stale check of pinned lists', () => {
  it('holds a saved plan whose pinned list names a view deleted since the plan: nothing written, exit 0, the way out named', async () => {
    const { dir: tempDir, cleanupAll } = tempDirs();
    try {
      const manifests = await tempDir({
        'pins.yaml':
          'kind: PinnedViews\nuserEmail: noah.patel@acme.test\nrecordings: [Customer calls, All recordings]\n',
      });
      const out = await tempDir({});
      const planFile = join(out, 'plan.json');
      await withEmulator(async (emulator, env) => {
        expect((await runBuilt(['plan', '--rate', '1000', manifests, '--out', planFile], { env })).code).toBe(0);
        const deleted = await fetch(`${emulator.url}/v1/recordings/views/rv_customer_calls`, {
          method: 'DELETE',
          headers: { 'x-service-key': emulator.apiKey },
        });
        expect(deleted.status).toBe(200);
        const writes = emulator.stats().writes;
        const stale = await runBuilt(['apply', '--rate', '1000', '--plan', planFile], { env });
        expect(stale.code, stale.stderr).toBe(0);
        expect(stale.stdout).toContain('Held, nothing written: plan ');
        expect(stale.stdout).toContain('pinned recordings tabs of noah.patel@acme.test  [apply.stale-target]');
        expect(stale.stdout).toContain('The held target needs a new reviewed plan');
        expect(emulator.stats().writes).toBe(writes);
      });
    } finally {
      await cleanupAll();
    }
  });
});
