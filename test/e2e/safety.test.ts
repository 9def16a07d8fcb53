import { afterEach, describe, expect, it } from 'vitest';
import { runBuilt, tempDirs, withEmulator } from './harness.js';

const { dir, cleanupAll } = tempDirs();
afterEach(cleanupAll);

const WORKSPACE = 'kind: Workspace\nworkspaceId: ws_acme\ncreatorEmail: adam.reyes@acme.test\n';

describe('fail-safe rules through the CLI', () => {
  it('refuses a rename to a default view name, and applies nothing', async () => {
    const manifests = await dir({
      'workspace.yaml': WORKSPACE,
      'customers.yaml': 'kind: CompanyView\nname: All companies\nviewId: cv_customers\n',
    });
    await withEmulator(async (emulator, env) => {
      const run = await runBuilt(['apply', '.', '--auto-approve'], { env, cwd: manifests });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(
        'error[view.default-name]: customers.yaml:2:7: CompanyView "Customers" (cv_customers) is renamed to "All companies"',
      );
      expect(emulator.stats().writes).toBe(0);
    });
  });

  it('plans with an ignore glob holding a - (it crashed with an invalid regular expression)', async () => {
    const manifests = await dir({
      'workspace.yaml': `${WORKSPACE}prune: true\nignore: ["Scratch-*", "Q1 - {old}"]\n`,
      'customers.yaml': 'kind: CompanyView\nname: Customers\nviewId: cv_customers\n',
    });
    await withEmulator(async (_emulator, env) => {
      const run = await runBuilt(['plan', manifests], { env });
      expect(run.stderr).not.toContain('internal error');
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('- delete  CompanyView');
    });
  });

  it('escapes names in error messages and makes them inert in the markdown the workflow posts', async () => {
    const manifests = await dir({
      'workspace.yaml': WORKSPACE,
      'evil.yaml': 'kind: RecordingView\nname: "Evil\\e[2J\\u202e"\nviewId: rv_gone\n',
    });
    await withEmulator(async (_emulator, env) => {
      // A bound view that is gone is held (listed first, exit 0), its name escaped like an error's.
      const run = await runBuilt(['plan', '.'], { env, cwd: manifests });
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('RecordingView "Evil\\u{1b}[2J\\u{202e}" binds to rv_gone');
      expect(run.stdout).not.toMatch(/[\u001b\u202e]/);
      const markdown = await runBuilt(['plan', '.', '--format', 'markdown'], { env, cwd: manifests });
      expect(markdown.stdout).toContain('binds to rv\\_gone');
      expect(markdown.stdout).not.toMatch(/[\u001b\u202e]/);
    });
    const links = await dir({
      'workspace.yaml': WORKSPACE,
      'evil.yaml': 'kind: RecordingView\nname: "[click me](http://evil.example) <img src=x>"\n',
    });
    await withEmulator(async (emulator, env) => {
      const run = await runBuilt(['apply', '.', '--auto-approve', '--format', 'markdown'], { env, cwd: links });
      expect(run.code).toBe(0);
      expect(emulator.stats().writes).toBe(1);
      expect(run.stdout).toContain('\\[click me\\](http\\://evil.example) &lt;img src=x&gt;');
      expect(run.stdout).not.toContain('<img');
      expect(run.stdout).toMatch(/\n```text\nApplied: 1 created, 0 updated, 0 pin lists, 0 deleted .*\n```\n$/);
    });
  });
});
