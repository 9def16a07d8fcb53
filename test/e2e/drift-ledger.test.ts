import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Plan } from '../../src/plan/types.js';
import { tempDirs, withEmulator } from './harness.js';
import { exampleRepository, git, simulatedDays } from './days.js';
import { memoryFile } from '../support/memory-file.js';

/**
 * Drift as a record through the built CLI, over simulated days with `--ledger FILE`
 * (README, "Drift: who, what, when"): after an apply of HEAD, a nightly `plan --budget`
 * labels a member's re-ordering in the app `outside`, dated by the apply's read, grouped
 * by cause; the next night it is "already so"; once the manifests move past the last
 * applied commit, what they changed since is merged, not yet applied, not drift.
 */

const { dir, cleanupAll } = tempDirs();
afterEach(cleanupAll);

const days = simulatedDays('2026-03-01T06:00:00.000Z');
const runOn = days.run;
const on = days.on;

async function repository(): Promise<string> {
  return exampleRepository(await dir({}));
}

/** reorderInTheApp reverses Adam's recordings tabs, as he would by dragging them in the app. */
async function reorderInTheApp(env: Record<string, string>): Promise<void> {
  const url = `${env.VIEWCTL_BASE_URL ?? ''}/v1/recordings/views/pinned?userEmail=adam.reyes%40acme.test`;
  const headers = { 'X-Service-Key': env.VIEWCTL_API_KEY ?? '', 'content-type': 'application/json' };
  const tabs = ((await (await fetch(url, { headers })).json()) as { result: { viewId: string }[] }).result;
  const put = await fetch(url, {
    method: 'PUT',
    headers,
    body: JSON.stringify({ viewIds: tabs.map((tab) => tab.viewId).reverse() }),
  });
  expect(put.status).toBe(200);
}

const ADAM = 'pins:recordings:adam.reyes@acme.test';

describe('drift with the sweep memory, through the built CLI', () => {
  it("labels, dates and groups what changed in the app since the last apply, and tells the manifests' own unapplied changes apart", async () => {
    const root = await repository();
    const ledger = '.viewctl/ledger.json';
    await withEmulator(async (_emulator, env) => {
      // Day 1: the manifests at HEAD are applied; the memory records HEAD as the last applied commit.
      const applied = await runOn(1, ['apply', 'manifests', '--auto-approve', '--ledger', ledger], env, root);
      expect(applied.code).toBe(0);
      const head = git(root, 'rev-parse', 'HEAD');
      expect((await memoryFile(join(root, ledger))).lastApplied?.commit).toBe(head);

      // Day 2: Adam re-ordered his tabs in the app; the nightly report says so, by cause, who and when.
      await reorderInTheApp(env);
      const night = await runOn(2, ['plan', 'manifests', '--budget', '1000', '--ledger', ledger], env, root);
      expect(night.code).toBe(0);
      expect(night.stdout).toContain(
        `Changed outside viewctl since the last apply (${head.slice(0, 7)}, 2026-03-01 06:00 UTC): applying reverts them\n`,
      );
      expect(night.stdout).toMatch(
        / {2}! drift {3}1 member re-ordered their recordings tabs in the app {2}manifests\/pins\/adam\.yaml:\d+\n {6}adam\.reyes@acme\.test\n {6}changed between 2026-03-01 06:00 UTC \(last read\) and now\n {6}apply --budget repairs, viewctl pull keeps\n/,
      );
      // The examples' admin automation differs from its expectation since before: drift too, read-only.
      expect(night.stdout).toContain('; 2 of them drift (1 pin list, 1 automation).');

      // Day 3: a report repairs nothing: the same difference, already so when read last night.
      const json = await runOn(
        3,
        ['plan', 'manifests', '--budget', '1000', '--ledger', ledger, '--format', 'json'],
        env,
        root,
      );
      const third = JSON.parse(json.stdout) as Plan;
      expect(
        third.changes
          .filter((change) => change.action !== 'drift')
          .map((change) => [change.target, change.origin, change.since, change.already]),
      ).toEqual([[ADAM, 'outside', on(2), true]]);
      expect(third.drifted).toEqual({ changes: 2, lastApplied: { commit: head, at: on(1) } });

      // Day 4: a merge changes a view's icon, not applied yet: the manifests' own change, not drift; Adam's still is.
      const calls = join(root, 'manifests/views/recordings/customer-calls.yaml');
      await writeFile(calls, (await readFile(calls, 'utf8')).replace('icon: telephone_receiver', 'icon: star'));
      git(root, 'commit', '--quiet', '-am', 'a star for customer calls');
      const merged = await runOn(
        4,
        ['plan', 'manifests', '--budget', '1000', '--ledger', ledger, '--format', 'json'],
        env,
        root,
      );
      const fourth = JSON.parse(merged.stdout) as Plan;
      expect(
        fourth.changes
          .filter((change) => change.action !== 'drift')
          .map((change) => [change.action, change.name, change.origin ?? 'own']),
      ).toEqual([
        ['update', 'Customer calls', 'own'],
        ['pin', 'adam.reyes@acme.test', 'outside'],
      ]);
      expect(fourth.drifted).toEqual({ changes: 2, lastApplied: { commit: head, at: on(1) }, unapplied: 1 });
      const text = await runOn(4, ['plan', 'manifests', '--budget', '1000', '--ledger', ledger], env, root);
      expect(text.stdout).toContain(
        `In the manifests since the last apply (${head.slice(0, 7)}, 2026-03-01 06:00 UTC), not applied yet: not drift; a reviewed apply carries them out\n  ~ update`,
      );
    });
  });
});
