import { afterEach, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runBuilt, tempDirs, withEmulator } from './harness.js';

const { dir, cleanupAll } = tempDirs();
afterEach(cleanupAll);

// The demo workspace: Tom Becker is deactivated, rv_mia_followups is Mia's private view (not found to a public listing).
const FILES = {
  'workspace.yaml': 'kind: Workspace\nworkspaceId: ws_acme\ncreatorEmail: adam.reyes@acme.test\nprune: false\n',
  'views/followups.yaml': 'kind: RecordingView\nname: Follow-ups\nviewId: rv_mia_followups\nfilters: {}\n',
  'views/coaching.yaml': 'kind: RecordingView\nname: Coaching\nfilters: {}\n',
  'pins/tom.yaml': 'kind: PinnedViews\nuserEmail: tom.becker@acme.test\nrecordings: [All recordings]\n',
  'pins/mia.yaml': 'kind: PinnedViews\nuserEmail: mia.chen@acme.test\nrecordings: [Follow-ups, All recordings]\n',
  'pins/noah.yaml': 'kind: PinnedViews\nuserEmail: noah.patel@acme.test\nrecordings: [Coaching, All recordings]\n',
};

describe('held targets (issue 25: ordinary events of an organisation are never errors)', () => {
  it('plans around a member who left and a bound view that is gone, applies the rest, then shows only what is held', async () => {
    const manifests = await dir(FILES);
    await withEmulator(async (emulator, env) => {
      const plan = await runBuilt(['plan', manifests], { env });
      expect(plan.stderr).toBe('');
      expect(plan.code).toBe(0);
      const lines = plan.stdout.split('\n');
      // Held first: right under the header, before any change.
      expect(lines[2]).toMatch(/^Held: 2 targets left out of this plan/);
      expect(plan.stdout).toMatch(/views\/followups\.yaml:3:9: \[view\.id-not-found\] RecordingView "Follow-ups" binds to rv_mia_followups/);
      expect(plan.stdout).toMatch(/pins\/mia\.yaml:\d+:\d+: \[pins\.names-held-view\] the recordings tabs of mia\.chen@acme\.test name "Follow-ups"/);
      expect(plan.stdout.indexOf('Held:')).toBeLessThan(plan.stdout.indexOf('+ create'));
      // The rest is planned: the create and Noah's list naming it; Tom is a warning naming the file, not an error.
      expect(plan.stdout).toMatch(/\+ create\s+RecordingView\s+"Coaching"/);
      expect(plan.stdout).toMatch(/↻ pins\s+noah\.patel@acme\.test\s+recordings/);
      expect(plan.stdout).toMatch(/warning: \S*pins\/tom\.yaml:3:13: tom\.becker@acme\.test is deactivated, not an active member: their tabs are skipped; delete \S*pins\/tom\.yaml,/);

      const json = await runBuilt(['plan', manifests, '--format', 'json', '--detailed-exitcode'], { env });
      expect(json.code).toBe(2);
      const parsed = JSON.parse(json.stdout) as { held: { target: string; code: string; reason: string }[]; changes: { target: string }[] };
      expect(parsed.held.map((held) => [held.target, held.code])).toEqual([
        ['pins:recordings:mia.chen@acme.test', 'pins.names-held-view'],
        ['view:recordings:id:rv_mia_followups', 'view.id-not-found'],
      ]);
      expect(parsed.changes.map((change) => change.target)).toEqual(['view:recordings:name:Coaching', 'pins:recordings:noah.patel@acme.test']);

      const apply = await runBuilt(['apply', manifests, '--auto-approve'], { env });
      expect(apply.code).toBe(0);
      expect(apply.stdout).toMatch(/Held: 2 targets/);
      const writes = Object.entries(emulator.stats().byEndpoint).filter(([endpoint]) => !endpoint.startsWith('GET ')).map(([endpoint, count]) => `${endpoint} ${String(count)}`).sort();
      expect(writes).toEqual(['POST /v1/recordings/views 1', 'PUT /v1/recordings/views/pinned 1']);

      // Nothing is created any more, so the users are not read up front: Tom's list is
      // found by the service refusing its read, then the users are read once to tell he left.
      const again = await runBuilt(['plan', manifests, '--detailed-exitcode'], { env });
      expect(again.code).toBe(2);
      expect(again.stdout).toMatch(/^Held: 2 targets/);
      expect(again.stdout).toContain('No other changes. Workspace');
      expect(again.stdout).not.toContain('+ create');
      expect(again.stdout).toMatch(/warning: \S*pins\/tom\.yaml:3:13: tom\.becker@acme\.test is deactivated/);
      const quiet = await runBuilt(['plan', manifests], { env });
      expect(quiet.code).toBe(0);
    });
  });

  it('saves a plan with what it holds, bound by its digest, and applies the rest of it', async () => {
    const manifests = await dir(FILES);
    const out = await dir({});
    const planFile = join(out, 'plan.json');
    await withEmulator(async (emulator, env) => {
      const plan = await runBuilt(['plan', manifests, '--out', planFile], { env });
      expect(plan.code).toBe(0);
      const saved = JSON.parse(await readFile(planFile, 'utf8')) as { digest: string; held: unknown[] };
      expect(saved.held).toHaveLength(2);
      const applied = await runBuilt(['apply', '--plan', planFile, '--expect-digest', saved.digest], { env });
      expect(applied.stderr).toBe('');
      expect(applied.code).toBe(0);
      expect(applied.stdout).toMatch(/Held: 2 targets/);
      expect(emulator.stats().writes).toBe(2);
    });
  });
});
