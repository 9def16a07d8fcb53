import { afterEach, describe, expect, it } from 'vitest';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { cloneData, runBuilt, tempDirs, withEmulator } from './harness.js';
import { git } from './days.js';
import { memoryFile } from '../support/memory-file.js';

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
      expect(plan.stdout).toMatch(
        /views\/followups\.yaml:3:9: \[view\.id-not-found\] RecordingView "Follow-ups" binds to rv_mia_followups/,
      );
      expect(plan.stdout).toMatch(
        /pins\/mia\.yaml:\d+:\d+: \[pins\.names-held-view\] the recordings tabs of mia\.chen@acme\.test name "Follow-ups"/,
      );
      expect(plan.stdout.indexOf('Held:')).toBeLessThan(plan.stdout.indexOf('+ create'));
      // The rest is planned: the create and Noah's list naming it; Tom is a warning naming the file, not an error.
      expect(plan.stdout).toMatch(/\+ create\s+RecordingView\s+"Coaching"/);
      expect(plan.stdout).toMatch(/↻ pins\s+noah\.patel@acme\.test\s+recordings/);
      expect(plan.stdout).toMatch(
        /warning: \S*pins\/tom\.yaml:3:13: tom\.becker@acme\.test is deactivated, not an active member: their tabs are skipped; delete \S*pins\/tom\.yaml,/,
      );

      const json = await runBuilt(['plan', manifests, '--format', 'json', '--detailed-exitcode'], { env });
      expect(json.code).toBe(2);
      const parsed = JSON.parse(json.stdout) as {
        held: { target: string; code: string; reason: string }[];
        changes: { target: string }[];
      };
      expect(parsed.held.map((held) => [held.target, held.code])).toEqual([
        ['pins:recordings:mia.chen@acme.test', 'pins.names-held-view'],
        ['view:recordings:id:rv_mia_followups', 'view.id-not-found'],
      ]);
      expect(parsed.changes.map((change) => change.target)).toEqual([
        'view:recordings:name:Coaching',
        'pins:recordings:noah.patel@acme.test',
      ]);

      const apply = await runBuilt(['apply', manifests, '--auto-approve'], { env });
      expect(apply.code).toBe(0);
      expect(apply.stdout).toMatch(/Held: 2 targets/);
      const writes = Object.entries(emulator.stats().byEndpoint)
        .filter(([endpoint]) => !endpoint.startsWith('GET '))
        .map(([endpoint, count]) => `${endpoint} ${String(count)}`)
        .sort();
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

/** heldAtApply is a git checkout of manifests applied with the sweep memory while Tom (creatorEmail) had left: the Coaching create and Noah's list naming it were held. */
async function heldAtApply(): Promise<{
  root: string;
  ledger: string;
  withLedger: (...args: string[]) => string[];
  afterApply: ReturnType<typeof cloneData>;
}> {
  const root = await dir({});
  const files = {
    'manifests/workspace.yaml':
      'kind: Workspace\nworkspaceId: ws_acme\ncreatorEmail: tom.becker@acme.test\nprune: false\n',
    'manifests/views/coaching.yaml': 'kind: RecordingView\nname: Coaching\nfilters: {}\n',
    'manifests/pins/noah.yaml':
      'kind: PinnedViews\nuserEmail: noah.patel@acme.test\nrecordings: [Coaching, All recordings]\n',
  };
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), text);
  }
  git(root, 'init', '--quiet', '--initial-branch=main');
  git(root, 'add', '.');
  git(root, '-c', 'user.email=ci@example.com', '-c', 'user.name=CI', 'commit', '--quiet', '-m', 'manifests');
  const ledger = join(root, 'ledger.json');
  const withLedger = (...args: string[]) => [...args, '--ledger', ledger, '--auto-approve'];

  // The reviewed apply: Tom (creatorEmail) left, so the create and Noah's list naming it are held; the rest applies, exit 0.
  const afterApply = await withEmulator(async (emulator, env) => {
    const applied = await runBuilt(withLedger('apply', 'manifests'), { env, cwd: root });
    expect(applied.code, applied.stderr).toBe(0);
    return emulator.snapshot();
  });
  expect((await memoryFile(ledger)).lastApplied?.held).toEqual(HELD);
  return { root, ledger, withLedger, afterApply };
}

const HELD = ['pins:recordings:noah.patel@acme.test', 'view:recordings:name:Coaching'];

/** tomIsBack is `data` with Tom Becker active again: the hold on the Coaching create is gone. */
function tomIsBack(data: ReturnType<typeof cloneData>): ReturnType<typeof cloneData> {
  const tom = data.users.find((user) => user.email === 'tom.becker@acme.test');
  if (tom === undefined) throw new Error('the demo workspace has no Tom Becker');
  Object.assign(tom, { state: 'Active', license: 'Full' });
  return data;
}

describe('a target held when the manifests were last applied (the sweep memory)', () => {
  it('is left by self-heal for a reviewed apply once its hold is gone, since no reviewer saw its changes; a reviewed apply carries it out', async () => {
    const { root, ledger, withLedger, afterApply } = await heldAtApply();

    // Tom is back: the hold is gone, but self-heal never reviewed those changes; it leaves them, and says so.
    const data = tomIsBack(cloneData(afterApply));
    await withEmulator(
      async (emulator, env) => {
        const night = await runBuilt(withLedger('apply', 'manifests', '--budget', '1000', '--reserve', '0'), {
          env,
          cwd: root,
        });
        expect(night.code, night.stderr).toBe(0);
        expect(night.stdout).toContain(
          'Left for a reviewed apply (held when the manifests were last applied, so no reviewer saw these changes): 1 view ("Coaching"), 1 pin list (member noah.patel@acme.test).',
        );
        expect(emulator.snapshot().views.recordings?.some((view) => view.name === 'Coaching')).toBe(false);
        expect((await memoryFile(ledger)).lastApplied?.held).toEqual(HELD);

        // The reviewed apply carries them out, and the memory holds nothing back any more.
        const reviewed = await runBuilt(withLedger('apply', 'manifests'), { env, cwd: root });
        expect(reviewed.code, reviewed.stderr).toBe(0);
        expect(emulator.snapshot().views.recordings?.some((view) => view.name === 'Coaching')).toBe(true);
        expect((await memoryFile(ledger)).lastApplied?.held).toBeUndefined();
      },
      { data },
    );
  });

  it('leaves the held manifest even when it now names a view someone created in the app under that name (an update, keyed by id)', async () => {
    const { root, withLedger, afterApply } = await heldAtApply();
    const data = tomIsBack(cloneData(afterApply));
    const model = data.views.recordings.find((view) => !view.isDefault);
    if (model === undefined) throw new Error('the demo workspace has no saved recording view');
    data.views.recordings.push({
      ...structuredClone(model),
      viewId: 'rv_coaching_app',
      name: 'Coaching',
      visibility: 'Public',
      ownerId: 'u_mia',
      filters: { sourceIn: ['Zoom'] },
    });
    await withEmulator(
      async (emulator, env) => {
        const night = await runBuilt(withLedger('apply', 'manifests', '--budget', '1000', '--reserve', '0'), {
          env,
          cwd: root,
        });
        expect(night.code, night.stderr).toBe(0);
        expect(night.stdout).toContain(
          'Left for a reviewed apply (held when the manifests were last applied, so no reviewer saw these changes): 1 view ("Coaching"), 1 pin list (member noah.patel@acme.test).',
        );
        expect(
          emulator.snapshot().views.recordings?.find((view) => view.viewId === 'rv_coaching_app')?.filters,
        ).toEqual({ sourceIn: ['Zoom'] });
        expect(emulator.stats().writes).toBe(0);
      },
      { data },
    );
  });
});
