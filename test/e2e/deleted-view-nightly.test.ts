import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Plan } from '../../src/plan/types.js';
import { tempDirs, withEmulator } from './harness.js';
import { exampleRepository, git, simulatedDays } from './days.js';

/**
 * A declared view deleted in the app while the Workspace document's `creatorEmail` is
 * commented out, as `export` writes it (README, "A declared view deleted in the app"):
 * the report-only nightly holds the create again (a consequence of the app, with its way
 * out) and still reports the rest of the night's drift, over simulated days.
 */

const { dir, cleanupAll } = tempDirs();
afterEach(cleanupAll);

const days = simulatedDays('2026-04-06T06:00:00.000Z');

async function api(env: Record<string, string>, method: string, path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${env.VIEWCTL_BASE_URL ?? ''}${path}`, {
    method,
    headers: { 'X-Service-Key': env.VIEWCTL_API_KEY ?? '', 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  expect(response.status, `${method} ${path}`).toBe(200);
  return ((await response.json()) as { result: unknown }).result;
}

const NIGHTLY = ['--budget', '1000', '--ledger', '.viewctl/ledger.json', '--detailed-exitcode'];

describe('the report-only nightly when a declared view is deleted in the app and creatorEmail is commented out', () => {
  it('holds the create again with its way out and reports the tab re-order and the edited filter of the same night', async () => {
    const root = await exampleRepository(await dir({}));
    const workspace = join(root, 'manifests/workspace.yaml');
    await withEmulator(async (_emulator, env) => {
      // Day 1: the team applies (creating "Team calls"), then comments creatorEmail out as export writes it.
      expect(
        (await days.run(1, ['apply', 'manifests', '--auto-approve', '--ledger', '.viewctl/ledger.json'], env, root))
          .code,
      ).toBe(0);
      await writeFile(
        workspace,
        (await readFile(workspace, 'utf8')).replace('creatorEmail: adam', '# creatorEmail: adam'),
      );
      git(root, 'commit', '--quiet', '-am', 'creatorEmail as export writes it');
      expect(
        (await days.run(2, ['apply', 'manifests', '--auto-approve', '--ledger', '.viewctl/ledger.json'], env, root))
          .code,
      ).toBe(0);
      // Night 2 sees every view live, so the memory knows rv_customer_calls (the examples' automation is drift: exit 2).
      expect((await days.run(2, ['plan', 'manifests', ...NIGHTLY], env, root)).code).toBe(2);

      // Day 3: an admin deletes "Customer calls", Mia re-orders her tabs, and someone edits Pipeline review's filter.
      await api(env, 'DELETE', '/v1/recordings/views/rv_customer_calls');
      const mia = '/v1/recordings/views/pinned?userEmail=mia.chen%40acme.test';
      const tabs = (await api(env, 'GET', mia)) as { viewId: string }[];
      await api(env, 'PUT', mia, { viewIds: tabs.map((tab) => tab.viewId).reverse() });
      await api(env, 'PATCH', '/v1/deals/views/dv_pipeline_review', { filters: { stageIn: ['Won'] } });

      const night = await days.run(3, ['plan', 'manifests', ...NIGHTLY, '--format', 'markdown'], env, root);
      expect(night.stderr).not.toContain('workspace.creator-required');
      expect(night.code, night.stderr).toBe(2);
      expect(night.stdout).toContain('view.create-needs-creator');
      expect(night.stdout).toContain('"Customer calls" (rv\\_customer\\_calls) was deleted in the app');
      expect(night.stdout).toContain('**1 member re-ordered their recordings tabs in the app**: mia.chen@acme.test');
      expect(night.stdout).toContain('**1 DealView: attributes edited in the app**: **Pipeline review**');

      const json = JSON.parse(
        (await days.run(3, ['plan', 'manifests', ...NIGHTLY, '--format', 'json'], env, root)).stdout,
      ) as Plan;
      const held = (json.held ?? []).find((entry) => entry.code === 'view.create-needs-creator');
      expect(held).toMatchObject({ target: 'view:recordings:name:Customer calls' });
      expect(held?.wayOut).toContain('set `creatorEmail: <an active member>` in the Workspace document');
      expect(held?.wayOut).toContain('drop `viewId: rv_customer_calls`');
      // The lists naming the deleted view are held with it; Mia's re-order and the filter are reported as drift.
      expect((json.held ?? []).some((held) => held.target === 'pins:recordings:adam.reyes@acme.test')).toBe(true);
      expect(json.changes.map((change) => [change.action, change.target])).toEqual(
        expect.arrayContaining([
          ['pin', 'pins:recordings:mia.chen@acme.test'],
          ['update', 'view:deals:id:dv_pipeline_review'],
        ]),
      );

      // Day 4: the team names the creator; the nightly now plans the create again, labelled as the app's doing.
      await writeFile(
        workspace,
        (await readFile(workspace, 'utf8')).replace('# creatorEmail: adam', 'creatorEmail: adam'),
      );
      git(root, 'commit', '--quiet', '-am', 'name the creator');
      const next = JSON.parse(
        (await days.run(4, ['plan', 'manifests', ...NIGHTLY, '--format', 'json'], env, root)).stdout,
      ) as Plan;
      expect((next.held ?? []).filter((held) => held.code === 'view.create-needs-creator')).toEqual([]);
      expect(next.changes.find((change) => change.action === 'create')).toMatchObject({
        name: 'Customer calls',
        origin: 'outside',
      });
    });
  });
});
