import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EXAMPLES, runBuilt, runCli, tempDirs, withEmulator } from './harness.js';

// `viewctl show PLAN.json` prints a saved plan without the service: the plan is made
// with `plan --out` against the emulator, which is closed before show runs, and show
// runs with no service configured and no key.

const { dir, cleanupAll } = tempDirs();
afterEach(cleanupAll);

/** savedPlan writes the examples' plan against the demo workspace to plan.json in a fresh folder. */
async function savedPlan(): Promise<{ folder: string; file: string; digest: string }> {
  const folder = await dir({});
  const file = join(folder, 'plan.json');
  await withEmulator(async (_emulator, env) => {
    const run = await runBuilt(['plan', EXAMPLES, '--out', file, '--rate', '1000'], { env });
    expect(run.code).toBe(0);
  });
  const { digest } = JSON.parse(await readFile(file, 'utf8')) as { digest: string };
  return { folder, file, digest };
}

describe('viewctl show', () => {
  it('prints a saved plan as text, markdown and JSON with no service configured', async () => {
    const { folder, digest } = await savedPlan();
    // A child process with only PATH: no VIEWCTL_BASE_URL, no VIEWCTL_API_KEY.
    const text = await runCli(['show', 'plan.json'], { cwd: folder });
    expect(text.stderr).toBe('');
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^viewctl plan · workspace Acme Sales \(ws_acme\) · read \d+ requests\n/);
    expect(text.stdout).toContain('  ↻ pins    group "Member company tabs"  companies · 1 member');
    expect(text.stdout).toContain(
      `To apply exactly this plan: viewctl apply --plan plan.json --expect-digest ${digest}`,
    );

    const markdown = await runBuilt(
      ['show', 'plan.json', '--format', 'markdown', '--details-url', 'https://ci.example.com/runs/7'],
      { cwd: folder, env: {} },
    );
    expect(markdown.code).toBe(0);
    expect(markdown.stdout).toMatch(/^### viewctl plan: Acme Sales \(ws\\_acme\)\n/);
    expect(markdown.stdout).toContain(`Digest \`${digest}\``);
    expect(markdown.stdout).toContain('[the full plan](https://ci.example.com/runs/7)');

    const json = await runBuilt(['show', 'plan.json', '--format', 'json'], { cwd: folder, env: {} });
    expect(json.code).toBe(0);
    expect(json.stdout).toBe(await readFile(join(folder, 'plan.json'), 'utf8'));
  });

  it('checks the file as apply does: an edited plan, a file that is no plan or none at all is an error (exit 1)', async () => {
    const { folder, file } = await savedPlan();
    await writeFile(
      join(folder, 'edited.json'),
      (await readFile(file, 'utf8')).replace('"Team calls"', '"Team calls!"'),
    );
    const edited = await runBuilt(['show', 'edited.json'], { cwd: folder, env: {} });
    expect(edited.code).toBe(1);
    expect(edited.stdout).toBe('');
    expect(edited.stderr).toContain('error[plan.digest-mismatch]: edited.json does not match its own digest');

    await writeFile(join(folder, 'other.json'), '{"formatVersion": 1}');
    const other = await runBuilt(['show', 'other.json'], { cwd: folder, env: {} });
    expect(other.code).toBe(1);
    expect(other.stderr).toContain('error[plan.invalid]');

    // A value nested 3,000 deep (the schema and the digest walk recursively) is no plan either, for show and apply.
    const deep = `${'['.repeat(3000)}1${']'.repeat(3000)}`;
    await writeFile(
      join(folder, 'deep.json'),
      (await readFile(file, 'utf8')).replace(/"value": [^\n]*?(,?)\n/, `"value": ${deep}$1\n`),
    );
    for (const command of [['show'], ['apply', '--auto-approve', '--plan']]) {
      const run = await runBuilt([...command, 'deep.json'], { cwd: folder, env: {} });
      expect(run.code, run.stderr).toBe(1);
      expect(run.stderr).toMatch(
        /^error\[plan\.invalid\]: the file is not a viewctl plan: \/changes\/\d+\/patch\/0\/value\/0\/0\/0\/\u2026 nests deeper than 100 levels/,
      );
      expect(run.stderr).not.toMatch(/RangeError|This is a bug|    at /);
    }

    const missing = await runBuilt(['show', 'missing.json'], { cwd: folder, env: {} });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('error[plan.unreadable]: cannot read the plan file missing.json: ENOENT');
  });

  it('refuses a --details-url that is not an http(s) URL', async () => {
    const { folder } = await savedPlan();
    const run = await runBuilt(['show', 'plan.json', '--format', 'markdown', '--details-url', 'javascript:alert(1)'], {
      cwd: folder,
      env: {},
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('error[usage.details-url]');
  });
});
