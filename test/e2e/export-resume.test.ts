import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { demoWorkspace } from '../../src/emulator/demo/demo-workspace.js';
import { edit, snapshot } from './folder-bytes.js';
import { runBuilt, tempDirs, withEmulator } from './harness.js';

const { dir, cleanupAll } = tempDirs();
afterEach(cleanupAll);

/** continueWith is the command a budgeted export printed to continue it, as arguments, or undefined once done. */
function continueWith(stdout: string): string[] | undefined {
  const found = /continue with .*\n {2}viewctl export (.+)\n/.exec(stdout);
  return found === null ? undefined : (found[1] ?? '').split(' ');
}

describe('a budgeted export resumed after the team edited its files', () => {
  it('continues with a command that adds only what is missing and leaves every edited byte as it is', async () => {
    const root = await dir({});
    await withEmulator(async (emulator, env) => {
      // Day one: the workspace, its views and the first members that fit in 15 requests.
      const first = await runBuilt(['export', '--out', 'manifests', '--all-users', '--budget', '15'], {
        env,
        cwd: root,
      });
      expect(first.code, first.stderr).toBe(0);
      let args = continueWith(first.stdout);
      expect(args).toEqual(['--merge', '--out', 'manifests', '--all-users', '--budget', '15']);
      const manifests = join(root, 'manifests');
      const [firstPins = ''] = (await readdir(join(manifests, 'pins'))).sort();

      // The team reviews and commits: creatorEmail and prune: owned, comments, a view and a member's file edited.
      await edit(join(manifests, 'workspace.yaml'), (text) =>
        text
          .replace('# creatorEmail: someone@example.com', 'creatorEmail: adam.reyes@acme.test  # the ops account')
          .replace('prune: false', '# reviewed on day one (#12)\nprune: owned'),
      );
      await edit(join(manifests, 'recordings/customer-calls.yaml'), (text) =>
        text.replace(
          'sourceIn: [Aircall, Allo, Call, LemlistVoip, Ringover]',
          '# phone calls only\n  sourceIn: [Call, Aircall, Allo, Ringover, LemlistVoip]',
        ),
      );
      await edit(join(manifests, 'pins', firstPins), (text) => `${text}# checked with the member\n`);
      // Meanwhile someone makes a view in the app: the continuation adds it, in a file of its own.
      const response = await fetch(`${emulator.url}/v1/deals/views`, {
        method: 'POST',
        headers: { 'x-service-key': emulator.apiKey, 'content-type': 'application/json' },
        body: JSON.stringify({ creatorEmail: 'mia.chen@acme.test', name: 'Churn watch' }),
      });
      expect(response.status).toBe(200);
      const edited = await snapshot(manifests);

      // Day two and on: the printed command, until every member is exported.
      const added: string[] = [];
      for (let run = 0; args !== undefined && run < 10; run += 1) {
        emulator.resetStats();
        const next = await runBuilt(['export', ...args], { env, cwd: root });
        expect(next.code, next.stderr).toBe(0);
        expect(emulator.stats().requests).toBeLessThanOrEqual(15);
        expect(emulator.stats().writes).toBe(0);
        const after = await snapshot(manifests);
        for (const [path, bytes] of edited)
          expect(after.get(path)?.equals(bytes), `${path} after run ${run + 2}`).toBe(true);
        added.push(...[...after.keys()].filter((path) => !edited.has(path) && !added.includes(path)));
        args = continueWith(next.stdout);
        if (args === undefined) expect(next.stdout).toContain('every member is exported');
        else expect(args).not.toContain('--force');
      }
      expect(args).toBeUndefined();

      // Every active member has a file, each written once; the new view was added beside the others.
      const active = demoWorkspace().users.filter((member) => member.state === 'Active').length;
      expect((await readdir(join(manifests, 'pins'))).length).toBe(active);
      expect(added.filter((path) => !path.startsWith('pins/'))).toEqual(['deals/churn-watch.yaml']);
      expect((await runBuilt(['validate', 'manifests'], { env, cwd: root })).code).toBe(0);
    });
  });
});
