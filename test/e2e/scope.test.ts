import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cloneData, runBuilt, tempDirs, withEmulator } from './harness.js';
import { example, git, zoomDeletingPullRequest } from './pull-requests.js';

/**
 * Scoped and budgeted plans through the built CLI against the emulator: budgeted nights
 * over consecutive UTC days, the refusal before the first pinned read, `--base` in a
 * real git repository with the changes made in the app labelled, and `apply --plan` of
 * a scoped plan writing only its targets.
 */

const { dir, cleanupAll } = tempDirs();
afterEach(cleanupAll);

const MEMBERS = ['olivia.park', 'adam.reyes', 'mia.chen', 'noah.patel', 'lena.fischer', 'sam.okafor', 'ines.duarte'];

/** Seven members who each pin the default deal view only (their private tabs dropped on purpose, so no list is refused). */
function dealTabs(): Record<string, string> {
  const files: Record<string, string> = { 'workspace.yaml': 'kind: Workspace\nworkspaceId: ws_acme\n' };
  for (const member of MEMBERS)
    files[`pins/${member}.yaml`] =
      `kind: PinnedViews\nuserEmail: ${member}@acme.test\nunpinPrivate: true\ndeals: [All deals]\n`;
  return files;
}

/** pinnedReads are the members whose pinned lists a `--verbose` run read. */
function pinnedReads(stderr: string): string[] {
  return [...stderr.matchAll(/^GET \/v1\/\w+\/views\/pinned\?userEmail=([^ ]+) 200/gm)].map((match) =>
    decodeURIComponent(match[1] ?? ''),
  );
}

describe('plan --budget', () => {
  it('reads every view list and as many pinned lists as the budget leaves, and the nights of the cycle it states cover every list', async () => {
    const manifests = await dir(dealTabs());
    await withEmulator(async (emulator, env) => {
      const seen: string[] = [];
      let cycle = 0;
      for (let night = 0; night < Math.max(cycle, 1); night += 1) {
        emulator.resetStats();
        const day = new Date(Date.UTC(2026, 2, 1 + night)).toISOString().slice(0, 10);
        const result = await runBuilt(
          ['plan', manifests, '--budget', '5', '--budget-day', day, '--verbose', '--rate', '1000'],
          { env },
        );
        expect(result.code).toBe(0);
        expect(emulator.stats().requests).toBe(5);
        expect(emulator.stats().byEndpoint['GET /v1/deals/views']).toBe(1);
        const match =
          /Scope: read 3 of 7 pinned lists \(--budget 5: this night's share of a (\d+)-night rotation by a hash of each list's key, and the lists due soonest after it; 4 due within \d+ nights; every list is read within (\d+) nights at this budget\); the 4 unread lists were not checked for drift\./.exec(
            result.stdout,
          );
        expect(match, result.stdout).not.toBeNull();
        cycle = Number(match?.[2]);
        expect(Number(match?.[1])).toBe(cycle);
        seen.push(...pinnedReads(result.stderr));
      }
      expect([...new Set(seen)].sort()).toEqual(MEMBERS.map((member) => `${member}@acme.test`).sort());
    });
  });
});

describe('plan without --base or --budget', () => {
  it('is refused before its first pinned-list read when the lists need more than is left today, naming the figure and both ways out', async () => {
    const manifests = await dir(dealTabs());
    await withEmulator(
      async (emulator, env) => {
        // --reserve 0: every request left today is this plan's (the reserve's own refusal: test/e2e/budget-ceiling.test.ts).
        const result = await runBuilt(['plan', manifests, '--reserve', '0'], { env });
        expect(result.code).toBe(1);
        expect(result.stderr).toMatch(
          /^error\[plan\.exceeds-daily-quota\]: the plan needs 7 requests to read every pinned list, but the service says only 4 are left today; no pinned list was read/,
        );
        expect(result.stderr).toMatch(/hint: .*--base REF.*--budget N/);
        expect(emulator.stats().byEndpoint['GET /v1/deals/views/pinned']).toBeUndefined();
        expect(emulator.stats().requests).toBe(2);
      },
      { quota: 6 },
    );
  });
});

describe('plan --base in a git repository', () => {
  async function repository(): Promise<{ root: string; base: string }> {
    const root = await dir({
      'manifests/workspace.yaml': 'kind: Workspace\nworkspaceId: ws_acme\ncreatorEmail: adam.reyes@acme.test\n',
      'manifests/views/zoom.yaml': await example('views/recordings/zoom-and-meet-calls.yaml'),
      'manifests/pins/adam.yaml': await example('pins/adam.yaml'),
      'manifests/pins/noah.yaml': await example('pins/noah.yaml'),
    });
    await git(root, 'init', '-q');
    await git(root, 'add', '-A');
    await git(root, 'commit', '-qm', 'base');
    const base = await git(root, 'rev-parse', 'HEAD');
    // The pull request: Noah adds a tab. Nothing else in the manifests changes.
    const noah = join(root, 'manifests/pins/noah.yaml');
    await writeFile(
      noah,
      (await readFile(noah, 'utf8')).replace('  - All deals\n', '  - All deals\n  - Big renewals\n'),
    );
    return { root, base };
  }

  it('reads only the lists changed since REF, lists the changes made in the app apart, and apply --plan writes only its targets', async () => {
    const { root, base } = await repository();
    // Run from elsewhere: REF is resolved in the repository that holds the manifests.
    const elsewhere = await dir({});
    await withEmulator(async (emulator, env) => {
      const planFile = join(elsewhere, 'plan.json');
      const planned = await runBuilt(
        ['plan', join(root, 'manifests'), '--base', 'HEAD', '--out', planFile, '--verbose'],
        { env, cwd: elsewhere },
      );
      expect(planned.code).toBe(0);
      expect(pinnedReads(planned.stderr)).toEqual(['noah.patel@acme.test']);
      expect(planned.stdout).toContain(`Scope: read 1 of 2 pinned lists (--base HEAD (${base.slice(0, 7)}): `);
      const own = planned.stdout.indexOf('↻ pins    noah.patel@acme.test');
      // Nothing remembers that HEAD was applied: the change REF asked too is hedged, never asserted as outside.
      expect(planned.stdout).not.toContain('Changed outside viewctl');
      const heading = planned.stdout.indexOf(
        'Not applied or changed outside viewctl since HEAD: applying sets them to the manifests',
      );
      const outside = planned.stdout.indexOf('! drift   1 RecordingView: attributes differ');
      expect(own).toBeGreaterThan(0);
      expect(heading).toBeGreaterThan(own);
      expect(outside).toBeGreaterThan(heading);

      const plan = JSON.parse(await readFile(planFile, 'utf8')) as {
        scope: unknown;
        changes: { action: string; name: string; origin?: string }[];
      };
      expect(plan.scope).toEqual({
        base: { ref: 'HEAD', commit: base },
        lists: 2,
        unread: 1,
        unreadByDomain: { recordings: { lists: 1, unread: 1 } },
      });
      expect(plan.changes.map((change) => [change.action, change.name, change.origin ?? 'own'])).toEqual([
        ['update', 'Zoom and Meet calls', 'unapplied-or-outside'],
        ['pin', 'noah.patel@acme.test', 'own'],
      ]);

      const pinsBefore = cloneData(emulator.snapshot()).pinned;
      emulator.resetStats();
      const applied = await runBuilt(['apply', '--plan', planFile], { env, cwd: elsewhere });
      expect(applied.code).toBe(0);
      const stats = emulator.stats();
      expect(stats.writes).toBe(2);
      expect(stats.byEndpoint['PUT /v1/deals/views/pinned']).toBe(1);
      expect(stats.byEndpoint['PATCH /v1/recordings/views/{viewId}']).toBe(1);
      expect(stats.byEndpoint['GET /v1/recordings/views/pinned']).toBeUndefined();
      const pinsAfter = emulator.snapshot().pinned;
      expect(pinsAfter.recordings).toEqual(pinsBefore.recordings);
    });
  });

  it('apply --base plans as plan --base does and writes only what that plan changes', async () => {
    const { root } = await repository();
    await withEmulator(async (emulator, env) => {
      const applied = await runBuilt(['apply', 'manifests', '--base', 'HEAD', '--auto-approve', '--verbose'], {
        env,
        cwd: root,
      });
      expect(applied.code).toBe(0);
      expect(pinnedReads(applied.stderr)).toEqual(['noah.patel@acme.test']);
      expect(applied.stdout).toContain(
        'Not applied or changed outside viewctl since HEAD: applying sets them to the manifests',
      );
      expect(emulator.stats().writes).toBe(2);
      const refused = await runBuilt(['apply', '--plan', 'plan.json', '--base', 'HEAD'], { env, cwd: root });
      expect(refused.stderr).toMatch(/^error\[usage\.plan-with-base\]/);
    });
  });

  it("refuses a REF that names no commit before any request, and plans in full, with a warning, when REF's manifests do not load", async () => {
    const { root } = await repository();
    await writeFile(join(root, 'manifests/pins/adam.yaml'), 'kind: PinnedViews\nuserEmail: [broken\n');
    await git(root, 'commit', '-qam', 'broken');
    await writeFile(join(root, 'manifests/pins/adam.yaml'), await example('pins/adam.yaml'));
    await withEmulator(async (emulator, env) => {
      const missing = await runBuilt(['plan', 'manifests', '--base', 'no-such-branch'], { env, cwd: root });
      expect(missing.code).toBe(1);
      expect(missing.stderr).toMatch(/^error\[usage\.base-not-a-commit\]: --base no-such-branch names no commit/);
      expect(emulator.stats().requests).toBe(0);

      const full = await runBuilt(['plan', 'manifests', '--base', 'HEAD', '--format', 'json', '--verbose'], {
        env,
        cwd: root,
      });
      expect(full.code).toBe(0);
      expect(pinnedReads(full.stderr)).toHaveLength(2);
      const plan = JSON.parse(full.stdout) as { scope?: unknown; warnings: Array<{ code: string; message: string }> };
      expect(plan.scope).toBeUndefined();
      expect(plan.warnings).toContainEqual({
        code: 'plan.base-unloadable',
        message: expect.stringMatching(
          /^the manifests at --base HEAD \([0-9a-f]{7}\) fail to load, with 1 error \(first: manifests\/pins\/adam\.yaml:\d+:\d+ [\w.-]+\): this is a full plan, every pinned list read$/,
        ),
      });
    });
  });
});

describe('plan --base labels only what the pull request did not ask for', () => {
  async function repository(): Promise<string> {
    const root = await dir({
      // prune: owned, and every public view the creator owns in these domains declared: REF prunes nothing.
      'manifests/workspace.yaml':
        'kind: Workspace\nworkspaceId: ws_acme\ncreatorEmail: adam.reyes@acme.test\nprune: owned\n',
      'manifests/views/zoom.yaml': await example('views/recordings/zoom-and-meet-calls.yaml'),
      'manifests/views/customer-calls.yaml': await example('views/recordings/customer-calls.yaml'),
      'manifests/views/sdr-coaching.yaml': await example('views/recordings/sdr-coaching.yaml'),
      'manifests/views/pipeline-review.yaml': await example('views/deals/pipeline-review.yaml'),
      'manifests/views/won.yaml': await example('views/deals/won-last-90-days.yaml'),
      'manifests/views/big-renewals.yaml': await example('views/deals/big-renewals.yaml'),
      'manifests/pins/adam.yaml':
        'kind: PinnedViews\nuserEmail: adam.reyes@acme.test\nrecordings:\n  - All recordings\n  - Deals at risk\n  - Customer calls\n',
    });
    await git(root, 'init', '-q');
    await git(root, 'add', '-A');
    await git(root, 'commit', '-qm', 'base: merged, but its apply never ran');
    // The pull request: Lena becomes the creator, and the customer calls view is renamed
    // and its old name given to a new view. Adam's pins document is not touched.
    const workspace = join(root, 'manifests/workspace.yaml');
    await writeFile(
      workspace,
      (await readFile(workspace, 'utf8')).replace('adam.reyes@acme.test', 'lena.fischer@acme.test'),
    );
    const calls = join(root, 'manifests/views/customer-calls.yaml');
    await writeFile(
      calls,
      (await readFile(calls, 'utf8')).replace('name: Customer calls', 'name: Customer calls (old)'),
    );
    await writeFile(
      join(root, 'manifests/views/new-customer-calls.yaml'),
      'kind: RecordingView\nname: Customer calls\nicon: telephone\n',
    );
    return root;
  }

  it("hedges the change REF asked but never applied, labels none of the pull request's own (a creatorEmail change under prune: owned, a name given to a new view), and apply applies both", async () => {
    const root = await repository();
    await withEmulator(async (emulator, env) => {
      const planned = await runBuilt(['plan', 'manifests', '--base', 'HEAD', '--out', 'plan.json'], { env, cwd: root });
      expect(planned.stderr).toBe('');
      expect(planned.code).toBe(0);
      const plan = JSON.parse(await readFile(join(root, 'plan.json'), 'utf8')) as {
        changes: { action: string; name: string; origin?: string }[];
      };
      expect(plan.changes.map((change) => [change.action, change.name, change.origin ?? 'own'])).toEqual([
        ['create', 'Customer calls', 'own'],
        ['update', 'Customer calls (old)', 'own'],
        ['update', 'Zoom and Meet calls', 'unapplied-or-outside'],
        ['delete', 'Stalled in EMEA', 'own'],
        ['pin', 'adam.reyes@acme.test', 'own'],
      ]);
      expect(planned.stdout).not.toContain('Changed outside viewctl');
      const [own = '', hedged = ''] = planned.stdout.split(
        '\nNot applied or changed outside viewctl since HEAD: applying sets them to the manifests\n',
      );
      expect(own).toMatch(/- delete {2}DealView +"Stalled in EMEA"/);
      expect(own).toMatch(/↻ pins {4}adam\.reyes@acme\.test/);
      // Told by cause, traced to its manifest line, with the view and its owner.
      expect(hedged.split('\n\n')[0]).toMatch(
        /^ {2}! drift {3}1 RecordingView: attributes differ {2}manifests\/views\/zoom\.yaml:\d+\n {6}"Zoom and Meet calls" \(rv_video_meetings, owner [^)]+\)\n/,
      );

      const markdown = await runBuilt(['plan', 'manifests', '--base', 'HEAD', '--format', 'markdown'], {
        env,
        cwd: root,
      });
      expect(markdown.stdout).toContain(
        '**Not applied or changed outside viewctl since HEAD: applying sets them to the manifests**\n\n| | kind | name | source |\n|---|---|---|---|\n| ⚠️ | Drift | **1 RecordingView: attributes differ**: **Zoom and Meet calls** (rv\\_video\\_meetings, owner ',
      );

      // Applying carries out REF's change with the pull request's: nothing is left to plan.
      emulator.resetStats();
      const applied = await runBuilt(['apply', '--plan', 'plan.json'], { env, cwd: root });
      expect(applied.code).toBe(0);
      expect(emulator.stats().byEndpoint['PATCH /v1/recordings/views/{viewId}']).toBe(2);
      const replanned = await runBuilt(['plan', 'manifests', '--format', 'json'], { env, cwd: root });
      expect(replanned.code).toBe(0);
      expect((JSON.parse(replanned.stdout) as { changes: unknown[] }).changes).toEqual([]);
    });
  });
});

describe('plan --base deleting a view a member pinned in the app', () => {
  it('says how many of the lists read pin it and how many lists were not read, since an unread list may pin it too', async () => {
    // prune: owned: only Olivia's public views are candidates, and she owns both declared. The pull
    // request deletes the Zoom view (prune) and edits Mia's tabs; Adam's document is not touched.
    const root = await zoomDeletingPullRequest(dir);
    // Yesterday, in the app, Adam pinned the Zoom view: his list is not read by this plan.
    const data = cloneData();
    data.pinned.recordings.u_adam = [...(data.pinned.recordings.u_adam ?? []), 'rv_video_meetings'];
    await withEmulator(
      async (_emulator, env) => {
        const planned = await runBuilt(['plan', 'manifests', '--base', 'HEAD', '--out', 'plan.json', '--verbose'], {
          env,
          cwd: root,
        });
        expect(planned.code).toBe(0);
        expect(pinnedReads(planned.stderr)).toEqual(['mia.chen@acme.test']);
        // Mia (read) pins it; Adam's list, unread, may pin it too, and does.
        expect(planned.stdout).toContain(
          '- RecordingView "Zoom and Meet calls" (rv_video_meetings), owner olivia.park@acme.test, pinned by 1 of the 1 recordings list read; 1 list not read (it may pin it too)\n    pinned by: mia.chen@acme.test\n',
        );
        const plan = JSON.parse(await readFile(join(root, 'plan.json'), 'utf8')) as {
          scope: unknown;
          changes: { action: string; pinnedBy?: string[]; pinLists?: unknown }[];
        };
        expect(plan.scope).toMatchObject({
          lists: 2,
          unread: 1,
          unreadByDomain: { recordings: { lists: 2, unread: 1 } },
        });
        expect(plan.changes.find((change) => change.action === 'delete')).toMatchObject({
          pinnedBy: ['mia.chen@acme.test'],
          pinLists: { read: 1, unread: 1 },
        });
        const markdown = await runBuilt(['plan', 'manifests', '--base', 'HEAD', '--format', 'markdown'], {
          env,
          cwd: root,
        });
        expect(markdown.stdout).toContain(
          'pinned by 1 of the 1 recordings list read; 1 list not read (it may pin it too))',
        );
      },
      { data },
    );
  });
});
