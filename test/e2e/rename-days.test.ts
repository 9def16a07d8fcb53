import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Plan } from '../../src/plan/types.js';
import { runCli, tempDirs, withEmulator } from './harness.js';
import { exampleRepository, git, simulatedDays } from './days.js';

/**
 * A rename in a pull request, over simulated days (README, "Renaming a view"): the
 * branch renames a view the manifests bind by viewId in its document only; the pull
 * request's plan resolves the old name in every pins document to the view, with a
 * warning at each place naming the new name; `viewctl rename` (offline, no key) then
 * rewrites every reference in place, and after the merge and its apply the next night
 * is in sync.
 */

const { dir, cleanupAll } = tempDirs();
afterEach(cleanupAll);

const days = simulatedDays('2026-06-01T06:00:00.000Z');
const LEDGER = '.viewctl/ledger.json';

async function edit(file: string, change: (text: string) => string): Promise<void> {
  await writeFile(file, change(await readFile(file, 'utf8')));
}

describe('a view renamed in a pull request', () => {
  it('resolves its old name in every pins document with a warning, and viewctl rename rewrites every reference in place', async () => {
    const root = await exampleRepository(await dir({}));
    const manifests = join(root, 'manifests');
    await edit(
      join(manifests, 'pins/noah.yaml'),
      (text) => `${text}recordings:\n  - Deals at risk\n  - All recordings\n`,
    );
    git(root, 'commit', '--quiet', '-am', 'Noah pins Deals at risk');
    await withEmulator(async (_emulator, env) => {
      expect((await days.run(1, ['apply', 'manifests', '--auto-approve', '--ledger', LEDGER], env, root)).code).toBe(0);

      // Day 2: a branch renames the view in its document only.
      git(root, 'checkout', '--quiet', '-b', 'rename-risk');
      await edit(join(manifests, 'views/recordings/deals-at-risk.yaml'), (text) =>
        text.replace('name: Deals at risk', 'name: Deals at risk (weekly)'),
      );
      git(root, 'commit', '--quiet', '-am', 'rename Deals at risk');
      const planned = await days.run(2, ['plan', 'manifests', '--base', 'main', '--format', 'json'], env, root);
      expect(planned.code, planned.stderr).toBe(0);
      const plan = JSON.parse(planned.stdout) as Plan;
      const renamed = plan.warnings.flatMap((warning) =>
        typeof warning !== 'string' && warning.code === 'pins.renamed-view' ? [warning] : [],
      );
      expect(renamed.map((warning) => warning.source?.file).sort()).toEqual([
        'manifests/pins/adam.yaml',
        'manifests/pins/noah.yaml',
      ]);
      expect(renamed[0]?.message).toContain(
        'is the old name of RecordingView "Deals at risk (weekly)" (rv_deals_at_risk)',
      );
      // The examples' automation drift aside, the plan is the rename alone: the lists naming it are unchanged.
      expect(
        plan.changes.filter((change) => change.action !== 'drift').map((change) => [change.action, change.name]),
      ).toEqual([['update', 'Deals at risk (weekly)']]);

      // The author runs viewctl rename (no key) on the old name: the branch puts it back first, as a fresh author would start.
      git(root, 'reset', '--quiet', '--hard', 'main');
      const before = await readFile(join(manifests, 'pins/adam.yaml'), 'utf8');
      const renaming = await runCli(
        ['rename', 'RecordingView', 'Deals at risk', 'Deals at risk (weekly)', 'manifests'],
        {
          cwd: root,
          env: {},
        },
      );
      expect(renaming.code, renaming.stderr).toBe(0);
      expect(renaming.stdout).toContain(
        'RecordingView "Deals at risk" renamed to "Deals at risk (weekly)": its document and 2 pinned tabs, in 3 files',
      );
      // Every changed line is the old line with the new name spliced in.
      const diff = git(root, 'diff', '-U0', '--', 'manifests');
      const removed = diff.split('\n').filter((line) => /^-[^-]/.test(line));
      const added = diff.split('\n').filter((line) => /^\+[^+]/.test(line));
      expect(added).toEqual(
        removed.map((line) => `+${line.slice(1).replace('Deals at risk', 'Deals at risk (weekly)')}`),
      );
      expect(added).toHaveLength(3);
      expect(await readFile(join(manifests, 'pins/adam.yaml'), 'utf8')).toBe(
        before.replace('Deals at risk', 'Deals at risk (weekly)'),
      );
      git(root, 'commit', '--quiet', '-am', 'rename Deals at risk, with viewctl rename');
      const clean = JSON.parse(
        (await days.run(2, ['plan', 'manifests', '--base', 'main', '--format', 'json'], env, root)).stdout,
      ) as Plan;
      expect(
        clean.warnings.filter((warning) => typeof warning !== 'string' && warning.code === 'pins.renamed-view'),
      ).toEqual([]);

      // Merged and applied; night 3 is in sync.
      git(root, 'checkout', '--quiet', 'main');
      git(root, 'merge', '--quiet', '--no-ff', '-m', 'Merge rename-risk', 'rename-risk');
      expect((await days.run(2, ['apply', 'manifests', '--auto-approve', '--ledger', LEDGER], env, root)).code).toBe(0);
      const night = JSON.parse(
        (
          await days.run(
            3,
            ['plan', 'manifests', '--budget', '1000', '--ledger', LEDGER, '--format', 'json'],
            env,
            root,
          )
        ).stdout,
      ) as Plan;
      expect(night.changes.filter((change) => change.action !== 'drift')).toEqual([]);
    });
  });
});
