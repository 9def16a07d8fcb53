import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Plan } from '../../src/plan/types.js';
import { cloneData, runCli, tempDirs, withEmulator } from './harness.js';
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

/**
 * The usual rename of a team (README, "Renaming a view"): the view document names its
 * view (no viewId) and the pull request changes its `name:` alone, leaving every pins
 * document naming the old name. The plan `--base main` tells it is the same document
 * renamed: an update of the live view, the old name resolving in each pins document with
 * a warning; its apply lands, and the nights after still resolve the old name (the
 * sweep memory keeps it) and find no drift.
 */
describe('a view document renamed in a pull request, without viewId', () => {
  const TEAM = Array.from({ length: 15 }, (_, index) => `member${String(index + 1).padStart(2, '0')}@acme.test`);
  const teamData = () => {
    const data = cloneData();
    data.users.push(
      ...TEAM.map((email, index) => ({
        id: `u_team_${index + 1}`,
        email,
        name: `Member ${index + 1}`,
        license: 'Full' as const,
        role: 'Member' as const,
        state: 'Active' as const,
        isDesktopAppInstalled: false,
        isMobileAppInstalled: false,
      })),
    );
    return data;
  };
  const warned = (plan: Plan, code: string) =>
    plan.warnings.flatMap((warning) => (typeof warning !== 'string' && warning.code === code ? [warning] : []));
  const OLD = 'Deals at risk';
  const NEW = 'Deals at risk (weekly)';

  it('plans --base main as a rename, resolves the 15 pins documents with warnings, and lands', async () => {
    const root = await exampleRepository(await dir({}));
    const manifests = join(root, 'manifests');
    const viewFile = join(manifests, 'views/recordings/deals-at-risk.yaml');
    // The view document names its view: no viewId, as a team writes it.
    await edit(viewFile, (text) => text.replace('viewId: rv_deals_at_risk\n', ''));
    for (const [index, email] of TEAM.entries())
      await writeFile(
        join(manifests, `pins/team-${index + 1}.yaml`),
        `kind: PinnedViews\nuserEmail: ${email}\nrecordings: [${OLD}, All recordings]\n`,
      );
    git(root, 'add', '.');
    git(root, 'commit', '--quiet', '-m', 'the team pins Deals at risk');
    await withEmulator(
      async (_emulator, env) => {
        const applied = await days.run(1, ['apply', 'manifests', '--auto-approve', '--ledger', LEDGER], env, root);
        expect(applied.code, applied.stderr).toBe(0);

        // Day 2: a pull request changes the document's name only.
        git(root, 'checkout', '--quiet', '-b', 'rename-risk');
        await edit(viewFile, (text) => text.replace(`name: ${OLD}`, `name: ${NEW}`));
        git(root, 'commit', '--quiet', '-am', 'rename Deals at risk');
        // Without --base the document is a new view, and the old one stays as it is.
        const blind = JSON.parse(
          (await days.run(2, ['plan', 'manifests', '--format', 'json'], env, root)).stdout,
        ) as Plan;
        expect(
          blind.changes.filter((change) => change.action !== 'drift').map((change) => [change.action, change.name]),
        ).toEqual([['create', NEW]]);
        const planned = await days.run(
          2,
          ['plan', 'manifests', '--base', 'main', '--format', 'json', '--out', 'plan.json'],
          env,
          root,
        );
        expect(planned.code, planned.stderr).toBe(0);
        const plan = JSON.parse(planned.stdout) as Plan;
        expect(
          plan.changes
            .filter((change) => change.action !== 'drift')
            .map((change) => [change.action, change.name, 'id' in change ? change.id : null]),
        ).toEqual([['update', NEW, 'rv_deals_at_risk']]);
        const renamed = warned(plan, 'pins.renamed-view');
        expect(renamed.map((warning) => warning.source?.file).sort()).toEqual(
          [...TEAM.map((_, index) => `manifests/pins/team-${index + 1}.yaml`), 'manifests/pins/adam.yaml'].sort(),
        );
        expect(renamed[0]?.message).toContain(`is the old name of RecordingView "${NEW}" (rv_deals_at_risk)`);
        // The reviewer reads a rename.
        const text = await runCli(['show', 'plan.json'], { cwd: root, env: {} });
        expect(text.stdout).toContain(`rename "${OLD}" -> "${NEW}"`);

        // Merged; the reviewed plan is applied.
        git(root, 'checkout', '--quiet', 'main');
        git(root, 'merge', '--quiet', '--no-ff', '-m', 'Merge rename-risk', 'rename-risk');
        const landed = await days.run(2, ['apply', '--plan', 'plan.json', '--ledger', LEDGER], env, root);
        expect(landed.code, landed.stderr).toBe(0);

        // Night 3: the view binds by its new name; the old name in the pins is the memory's, with warnings.
        const night = await days.run(
          3,
          ['plan', 'manifests', '--budget', '1000', '--ledger', LEDGER, '--format', 'json'],
          env,
          root,
        );
        expect(night.code, night.stderr).toBe(0);
        const nightly = JSON.parse(night.stdout) as Plan;
        expect(nightly.changes.filter((change) => change.action !== 'drift')).toEqual([]);
        expect(warned(nightly, 'pins.renamed-view')).toHaveLength(TEAM.length + 1);
      },
      { data: teamData() },
    );
  });
});
