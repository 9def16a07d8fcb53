import { afterEach, describe, expect, it } from 'vitest';
import { demoWorkspace } from '../../src/emulator/demo/demo-workspace.js';
import type { EmulatorData } from '../../src/emulator/model.js';
import { runBuilt, tempDirs, withEmulator } from './harness.js';

/**
 * What reviewers see cannot be forged by names made in the app, through the built CLI
 * against the emulator: no line of any output starts, after whitespace, a pipeline's
 * workflow command; the markdown comment mentions nobody; a long name is cut, never a
 * deletion.
 */

const { dir, cleanupAll } = tempDirs();
afterEach(cleanupAll);

/** COMMAND_LINE is a line a workflow runner would read as a command. */
const COMMAND_LINE = /^[^\S\n\r\u2028\u2029]*(::|##\[)/m;

const FORGED = [
  '::warning title=Approved::security review passed',
  '::add-mask::Zoom',
  ' ::group::x',
  '##[error]build failed',
  '@octocat @acme/security please approve',
];

/** hostileWorkspace is the demo with a mentioning workspace name and 40 app-made deals views of 3,000 characters, named like workflow commands. */
function hostileWorkspace(): EmulatorData {
  const data = demoWorkspace();
  data.workspace.name = '@octocat Acme';
  const owner = data.users[0]?.id ?? '';
  for (let index = 0; index < 40; index += 1) {
    const forged = FORGED[index % FORGED.length] ?? '';
    data.views.deals.push({
      viewId: `dv_forged_${index}`,
      name: `${forged} ${index} ${'x'.repeat(3000)}`,
      visibility: 'Public',
      isDefault: false,
      ownerId: owner,
      columns: [],
      filters: {},
      sort: [],
    });
  }
  for (const [index, forged] of FORGED.entries()) {
    data.views.deals.push({
      viewId: `dv_short_${index}`,
      name: forged,
      visibility: 'Public',
      isDefault: false,
      ownerId: owner,
      columns: [],
      filters: {},
      sort: [],
    });
  }
  // A member pinned the short ones in the app: the plan's tab lists wrap them onto lines of their own.
  data.pinned.deals[owner] = FORGED.map((_, index) => `dv_short_${index}`);
  return data;
}

/** OWNER is the demo's first member, who owns the forged views and pinned them. */
const OWNER = demoWorkspace().users[0]?.email ?? '';

describe('names made in the app cannot forge what reviewers see', () => {
  it('text and markdown: no line starts a workflow command, no mention, every deletion named', async () => {
    const manifests = await dir({
      'workspace.yaml': 'kind: Workspace\nworkspaceId: ws_acme\nprune: true\n',
      'deals.yaml': 'kind: DealView\nname: Pipeline review\nfilters: {}\n',
      'pins.yaml': `kind: PinnedViews\nuserEmail: ${OWNER}\ndeals: [Pipeline review]\n`,
    });
    await withEmulator(
      async (_emulator, env) => {
        const text = await runBuilt(['plan', manifests, '--rate', '1000'], { env });
        expect(text.code, text.stderr).toBe(0);
        const markdown = await runBuilt(['plan', manifests, '--format', 'markdown', '--rate', '1000'], { env });
        expect(markdown.code, markdown.stderr).toBe(0);
        for (const output of [text.stdout, text.stderr, markdown.stdout, markdown.stderr])
          expect(output).not.toMatch(COMMAND_LINE);
        // The tab list the member pinned in the app wraps its names onto lines of their own, escaped where a line starts with one.
        expect(text.stdout).toMatch(/^\s+(:\\u\{3a\}|##\\u\{5b\})/m);
        // No mention in the comment: the workspace name's and the views' are broken by a zero-width space.
        expect(markdown.stdout).not.toMatch(/(^|[^A-Za-z0-9])@(?!&#8203;)[A-Za-z0-9]/m);
        expect(markdown.stdout).toContain('@&#8203;octocat @&#8203;acme/security');
        // Every deletion is named, each long name cut.
        for (let index = 0; index < 40; index += 1) expect(markdown.stdout).toContain(`(dv\\_forged\\_${index}`);
        expect(markdown.stdout).toContain('… (cut: 3,0');
        expect(markdown.stdout).not.toMatch(/the names of/);
      },
      { data: hostileWorkspace() },
    );
  });
});
