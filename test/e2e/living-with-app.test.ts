import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiView } from '../../src/domain/api-types.js';
import { EXAMPLES, cloneData, runBuilt, tempDirs, withEmulator } from './harness.js';

/**
 * Living with the app, through the built CLI against the emulator: prune leaves what
 * people make in the app, a part of the folder is planned with the workspace guard
 * on, and a reviewer sees what a create sets, whose view a delete removes and that
 * apply will refuse too many deletions.
 */

const { dir, cleanupAll } = tempDirs();
afterEach(cleanupAll);

const WORKSPACE = 'kind: Workspace\nworkspaceId: ws_acme\ncreatorEmail: adam.reyes@acme.test\n';

async function example(path: string): Promise<string> {
  return readFile(join(EXAMPLES, path), 'utf8');
}

async function dealViews(env: Record<string, string>): Promise<ApiView[]> {
  const response = await fetch(`${env.VIEWCTL_BASE_URL ?? ''}/v1/deals/views`, {
    headers: { 'X-Service-Key': env.VIEWCTL_API_KEY ?? '' },
  });
  return ((await response.json()) as { result: ApiView[] }).result;
}

describe('living with the app', () => {
  it('prune: owned deletes the undeclared views viewctl created, never one a member made in the app', async () => {
    const manifests = await dir({
      'workspace.yaml': `${WORKSPACE}prune: owned\n`,
      'deals/big-renewals.yaml': await example('views/deals/big-renewals.yaml'),
      'deals/pipeline-review.yaml': await example('views/deals/pipeline-review.yaml'),
    });
    await withEmulator(async (_emulator, env) => {
      // A member makes a deal view in the app, as people do every day.
      const created = await fetch(`${env.VIEWCTL_BASE_URL ?? ''}/v1/deals/views`, {
        method: 'POST',
        headers: { 'X-Service-Key': env.VIEWCTL_API_KEY ?? '', 'content-type': 'application/json' },
        body: JSON.stringify({ creatorEmail: 'sam.okafor@acme.test', name: "Sam's renewals" }),
      });
      expect(created.status).toBe(200);

      const run = await runBuilt(['apply', manifests, '--auto-approve'], { env });
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      // "Won last 90 days" is the Admin's (creatorEmail); "Stalled in EMEA" is Lena's.
      expect(run.stdout).toMatch(/- delete {2}DealView {2}"Won last 90 days" \(dv_won_recently\) +prune: not declared/);
      expect(run.stdout).toContain('Plan: 0 to create, 0 to update, 1 to delete');
      const names = (await dealViews(env)).map((view) => view.name);
      expect(names).toEqual(
        expect.arrayContaining(["Sam's renewals", 'Stalled in EMEA', 'Big renewals', 'Pipeline review']),
      );
      expect(names).not.toContain('Won last 90 days');
    });
  });

  it('--target plans part of the folder with the workspace guard on; a file path without the Workspace document warns it is off', async () => {
    const files = {
      'workspace.yaml': `${WORKSPACE}prune: true\n`,
      'views/big-renewals.yaml': await example('views/deals/big-renewals.yaml'),
      'views/team-calls.yaml': await example('views/recordings/team-calls.yaml'),
      'pins/noah.yaml': await example('pins/noah.yaml'),
      'automations.yaml': await example('automations.yaml'),
    };
    const manifests = await dir(files);
    const elsewhere = await dir({
      ...files,
      'workspace.yaml': 'kind: Workspace\nworkspaceId: ws_other\ncreatorEmail: adam.reyes@acme.test\n',
    });
    await withEmulator(async (emulator, env) => {
      emulator.resetStats();
      const targeted = await runBuilt(['plan', manifests, '--target', 'DealView/Big renewals', '--format', 'json'], {
        env,
      });
      expect(targeted.stderr).toBe('');
      expect(targeted.code).toBe(0);
      const plan = JSON.parse(targeted.stdout) as { targets: string[]; changes: unknown[]; warnings: unknown[] };
      expect(plan).toMatchObject({ targets: ['DealView/Big renewals'], changes: [], warnings: [] });
      // Only the workspace (the guard) and the selected view's domain: no recordings, pins, automations or prune.
      expect(emulator.stats().byEndpoint).toEqual({ 'GET /v1/workspaces/mine': 1, 'GET /v1/deals/views': 1 });

      const guarded = await runBuilt(['plan', elsewhere, '--target', 'DealView/Big renewals'], { env });
      expect(guarded.code).toBe(1);
      expect(guarded.stderr).toContain('error[workspace.mismatch]');

      const unknown = await runBuilt(['plan', manifests, '--target', 'Dealview/Big renewals'], { env });
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toContain(
        'error[usage.bad-target]: --target "Dealview/Big renewals": it is not one of the accepted forms; did you mean "DealView/Big renewals"?',
      );

      const byPath = await runBuilt(['plan', join(elsewhere, 'views/big-renewals.yaml')], { env });
      expect(byPath.code).toBe(0);
      expect(byPath.stdout).toContain(
        'warning: no Workspace document among the manifests planned: the workspace guard is off',
      );
    });
  });

  it('shows what a create sets and whose views a delete removes, and says at plan time that apply will refuse 300 deletions', async () => {
    const data = cloneData();
    for (let index = 0; index < 300; index += 1) {
      data.views.deals.push({
        viewId: `dv_sam_${index}`,
        name: `Sam's board ${index}`,
        visibility: 'Public',
        isDefault: false,
        ownerId: 'u_sam',
        columns: [],
        filters: { statusIn: ['Open'] },
        sort: [],
      });
    }
    const manifests = await dir({
      'workspace.yaml': `${WORKSPACE}prune: true\n`,
      'views/big-renewals.yaml': await example('views/deals/big-renewals.yaml'),
      'views/pipeline-review.yaml': await example('views/deals/pipeline-review.yaml'),
      'views/team-calls.yaml': await example('views/recordings/team-calls.yaml'),
    });
    await withEmulator(
      async (emulator, env) => {
        // 300 of Sam's, 2 other undeclared deal views, 6 undeclared recording views.
        const plan = await runBuilt(['plan', manifests], { env });
        expect(plan.code).toBe(0);
        const lines = plan.stdout.split('\n');
        expect(lines[1]).toBe(
          'Apply will refuse this plan: it deletes 308 views, more than --max-deletes 5 allows. If every',
        );
        const create = lines.indexOf('+ RecordingView "Team calls", owner adam.reyes@acme.test');
        expect(lines.slice(create + 1, create + 30)).toEqual(
          expect.arrayContaining(['  + filters:', '  +   teamIdIn:', '  +     - team_ae', '  +   - field: CreatedAt']),
        );
        // Sam's 300 are one line naming each, and one block: what they all have once, then each view.
        expect(plan.stdout).toMatch(
          /\n  - delete  DealView × 300 +owner sam\.okafor@acme\.test +prune: not declared\n/,
        );
        expect(plan.stdout).toContain('"Sam\'s board 0" (dv_sam_0), "Sam\'s board 1" (dv_sam_1)');
        expect(plan.stdout).toContain(
          '- 300 DealViews owned by sam.okafor@acme.test (prune: not declared)\n    every one has:\n',
        );
        expect(plan.stdout).toContain('  -   filters:\n  -     statusIn:\n  -       - Open');
        expect(plan.stdout).not.toContain('owner u_sam');

        const apply = await runBuilt(['apply', manifests, '--auto-approve'], { env });
        expect(apply.code).toBe(3);
        expect(apply.stderr).toContain(
          'error[apply.max-deletes]: the plan deletes 308 views, more than --max-deletes 5 allows',
        );
        expect(apply.stderr).toContain('DealView "Sam\'s board 299"');
        expect(Math.max(...apply.stderr.split('\n').map((line) => line.length))).toBeLessThanOrEqual(120);
        expect(emulator.stats().writes).toBe(0);
      },
      { data },
    );
  });
});
