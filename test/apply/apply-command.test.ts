import { PassThrough, Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { run } from '../../src/cli/run.js';
import type { RunningEmulator } from '../../src/emulator/server.js';
import { runApply, tempDir, terminalInput } from './cli-harness.js';
import { startTestEmulator, testWorkspace } from './harness.js';

/** Manifests for the test workspace: a create, an update, pins naming the new view, a prune delete. */
const MANIFESTS = `kind: Workspace
workspaceId: ws_test
creatorEmail: ops@acme.test
prune: true
---
kind: RecordingView
name: Customer calls
icon: null
filters:
  sourceIn: [Call, MsTeams, Zoom]
---
kind: RecordingView
name: Team calls
icon: star
columns:
  - {type: Default, columnId: title}
sort:
  - {field: Title, order: Asc}
---
kind: PinnedViews
userEmail: mia@acme.test
recordings: [Team calls, Customer calls, {viewId: rv_p}]
`;

let emulator: RunningEmulator;
let scratch: Awaited<ReturnType<typeof tempDir>>;

beforeEach(async () => {
  emulator = await startTestEmulator(testWorkspace());
  scratch = await tempDir();
  await scratch.write('views.yaml', MANIFESTS);
});
afterEach(async () => {
  await emulator.close();
  await scratch.remove();
});

describe('viewctl apply PATH', () => {
  it('plans, applies with --auto-approve, and a second run has nothing to do', async () => {
    const first = await runApply(['--auto-approve', '.'], emulator, { cwd: scratch.dir });
    expect(first.exitCode).toBe(0);
    expect(first.stdout).toContain('viewctl plan · workspace Test Co (ws_test)');
    expect(first.stdout).toMatch(/Applied: 1 created, 1 updated, 1 pin list, 1 deleted \(\d+ requests in/);
    expect(emulator.stats().writes).toBe(4);

    emulator.resetStats();
    const second = await runApply(['--auto-approve'], emulator, { cwd: scratch.dir });
    expect(second.exitCode).toBe(0);
    expect(second.stdout).toMatch(/^No changes\..*\nNothing to apply\.\n$/s);
    expect(emulator.stats().writes).toBe(0);
  });

  it('needs --auto-approve or --plan when stdin is not a terminal, before any request', async () => {
    const run = await runApply([], emulator, { cwd: scratch.dir });
    expect([run.exitCode, run.errorCode]).toEqual([1, 'apply.needs-approval']);
    expect(run.stderr).toContain('--auto-approve');
    expect(run.stderr).toContain('--plan FILE');
    expect(emulator.stats().requests).toBe(0);
  });

  it('asks on a terminal: anything but "yes" writes nothing, "yes" applies', async () => {
    const declined = await runApply([], emulator, { cwd: scratch.dir, stdin: terminalInput('y\n') });
    expect([declined.exitCode, declined.errorCode]).toEqual([1, 'apply.cancelled']);
    expect(declined.stdout).toContain('Apply these changes? Only "yes" is accepted:');
    expect(emulator.stats().writes).toBe(0);

    const accepted = await runApply([], emulator, { cwd: scratch.dir, stdin: terminalInput('yes\n') });
    expect(accepted.exitCode).toBe(0);
    expect(accepted.stdout).toContain('Applied: 1 created');
    expect(emulator.stats().writes).toBe(4);
  });

  it('refuses with --max-deletes 0 and with an --expect-digest of another plan, writing nothing', async () => {
    const deletes = await runApply(['--auto-approve', '--max-deletes', '0'], emulator, { cwd: scratch.dir });
    expect([deletes.exitCode, deletes.errorCode]).toEqual([3, 'apply.max-deletes']);
    const digest = await runApply(['--auto-approve', '--expect-digest', '0'.repeat(64)], emulator, {
      cwd: scratch.dir,
    });
    expect([digest.exitCode, digest.errorCode]).toEqual([3, 'apply.digest-unexpected']);
    expect(emulator.stats().writes).toBe(0);
  });

  it('keeps stdout one JSON document with --format json', async () => {
    const run = await runApply(['--auto-approve', '--format', 'json'], emulator, { cwd: scratch.dir });
    expect(run.exitCode).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({
      status: 'applied',
      workspace: { id: 'ws_test' },
      counts: { created: 1, deleted: 1 },
    });
    const again = await runApply(['--auto-approve', '--format', 'json'], emulator, { cwd: scratch.dir });
    expect(JSON.parse(again.stdout)).toMatchObject({
      status: 'applied',
      counts: { created: 0, updated: 0, pinned: 0, deleted: 0 },
    });
  });
});

describe('viewctl apply --budget N (self-heal)', () => {
  it('refuses before any request without a sweep memory, and takes no --base, --plan or lone --reserve', async () => {
    emulator.resetStats();
    const cases: [string[], string][] = [
      [['--budget', '100', '--auto-approve'], 'usage.budget-without-ledger'],
      [['--budget', '100', '--base', 'HEAD', '--auto-approve'], 'usage.budget-with-base'],
      [['--reserve', '10', '--auto-approve'], 'usage.reserve-without-budget'],
      [['--budget', '100', '--plan', 'plan.json'], 'usage.plan-with-budget'],
      // A saved plan keeps no reserve: a --reserve (or --budget-day) it would ignore is refused, not dropped.
      [['--reserve', '10', '--plan', 'plan.json'], 'usage.reserve-without-budget'],
      [['--budget-day', '2026-01-01', '--plan', 'plan.json'], 'usage.budget-day-without-budget'],
    ];
    for (const [args, code] of cases) {
      const refused = await runApply(args, emulator, { cwd: scratch.dir });
      expect([refused.exitCode, refused.errorCode]).toEqual([1, code]);
    }
    expect(emulator.stats().requests).toBe(0);
  });
});

describe('a bug in apply after its writes began', () => {
  it('exits 4, not 1, and says changes may have landed', async () => {
    // With --format json and --auto-approve, stdout is written once: the report, after every write.
    const stdout = new Writable({
      write: () => {
        throw new TypeError('a bug while writing the report');
      },
    });
    const stderr = new PassThrough();
    const code = await run(['apply', '--rate', '1000', '--format', 'json', '--auto-approve', '.'], {
      stdout,
      stderr,
      stdin: new PassThrough().end(),
      cwd: scratch.dir,
      env: { VIEWCTL_BASE_URL: emulator.url, VIEWCTL_API_KEY: emulator.apiKey },
    });
    expect(emulator.stats().writes).toBe(4);
    expect(code).toBe(4);
    const printed = String(stderr.read());
    expect(printed).toContain('This is a bug in viewctl');
    expect(printed).toContain('apply had begun writing: some changes may have landed');
  });
});
