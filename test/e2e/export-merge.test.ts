import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { edit, snapshot } from './folder-bytes.js';
import { runBuilt, tempDirs, withEmulator } from './harness.js';

const { dir, cleanupAll } = tempDirs();
afterEach(cleanupAll);

describe('viewctl export --merge against the emulator', () => {
  it("adds a new member's pins and the views made in the app to a hand-edited repository, changing no existing file", async () => {
    const root = await dir({});
    const manifests = join(root, 'manifests');
    await withEmulator(async (emulator, env) => {
      expect(
        (
          await runBuilt(['export', '--out', manifests, '--users', 'adam.reyes@acme.test', '--pins', 'per-member'], {
            env,
          })
        ).code,
      ).toBe(0);

      // What a team does with an export: opt in to creates and prune, comment, re-sort a
      // set and keys by hand, rename a view in its file (and in the pins naming it), and apply.
      await edit(join(manifests, 'workspace.yaml'), (text) =>
        text
          .replace(
            '# creatorEmail: someone@example.com',
            'creatorEmail: adam.reyes@acme.test  # owns what apply creates',
          )
          .replace('prune: false', 'prune: true'),
      );
      await edit(join(manifests, 'recordings/customer-calls.yaml'), (text) =>
        text
          .replace('name: Customer calls', 'name: Team calls  # renamed in review #42')
          .replace(
            'sourceIn: [Aircall, Allo, Call, LemlistVoip, Ringover]',
            '# phone calls only\n  sourceIn: [Call, Aircall, Allo, Ringover, LemlistVoip]',
          ),
      );
      await edit(join(manifests, 'pins/adam-reyes-acme-test.yaml'), (text) =>
        text.replace('- Customer calls', '- Team calls'),
      );
      await edit(join(manifests, 'recordings/deals-at-risk.yaml'), (text) =>
        text.replace(
          'name: Deals at risk\nviewId: rv_deals_at_risk\n',
          'viewId: rv_deals_at_risk\nname: Deals at risk\n',
        ),
      );
      expect((await runBuilt(['apply', manifests, '--auto-approve'], { env })).code).toBe(0);

      // Meanwhile, in the app: a new view takes the old name (its file name is taken), another is made in deals.
      for (const [domain, name] of [
        ['recordings', 'Customer calls'],
        ['deals', 'Churn watch'],
      ]) {
        const response = await fetch(`${emulator.url}/v1/${domain}/views`, {
          method: 'POST',
          headers: { 'x-service-key': emulator.apiKey, 'content-type': 'application/json' },
          body: JSON.stringify({ creatorEmail: 'mia.chen@acme.test', name }),
        });
        expect(response.status).toBe(200);
      }
      const before = await snapshot(manifests);

      emulator.resetStats();
      const merge = await runBuilt(
        ['export', '--out', manifests, '--merge', '--users', 'noah.patel@acme.test,adam.reyes@acme.test'],
        { env },
      );
      expect(merge.code, merge.stderr).toBe(0);
      expect(emulator.stats().writes).toBe(0);
      // Adam's lists are declared: only Noah's four are read.
      expect(emulator.stats().byEndpoint['GET /v1/recordings/views/pinned']).toBe(1);

      const after = await snapshot(manifests);
      for (const [path, bytes] of before) expect(after.get(path)?.equals(bytes), path).toBe(true);
      expect([...after.keys()].filter((path) => !before.has(path)).sort()).toEqual([
        'deals/churn-watch.yaml',
        'pins/noah-patel-acme-test.yaml',
        'recordings/customer-calls-2.yaml',
      ]);
      expect(merge.stdout).toMatch(/recordings\/customer-calls-2\.yaml +RecordingView "Customer calls" \(rv_\w+\)/);
      // More than a few already declared: one line per sort of target, with the folders that declare them.
      expect(merge.stdout).toMatch(/recordings\/ +6 RecordingViews\n/);
      expect(merge.stdout).toMatch(
        /pins\/adam-reyes-acme-test\.yaml:\d+ +pins of adam\.reyes@acme\.test: recordings, deals, companies, contacts/,
      );
      expect(merge.stdout).toMatch(/workspace\.yaml:\d+ +Workspace "Acme Sales" \(ws_acme\)/);

      expect((await runBuilt(['validate', manifests], { env })).code).toBe(0);
      const plan = await runBuilt(['plan', manifests, '--detailed-exitcode'], { env });
      expect(plan.stdout).toMatch(/^No changes\./);
      expect(plan.code).toBe(0);
    });
  });
});
