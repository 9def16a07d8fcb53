import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CommanderError } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoWorkspace } from '../../src/emulator/demo/demo-workspace.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/server.js';
import { checkPinBudget, describePinRead, parseEmailList, selectPinUsers } from '../../src/export/pin-users.js';
import { checkOutFolder, writeExportFiles } from '../../src/export/write-files.js';
import { FAST_LIMITS, runExport } from './helpers.js';
import { user } from './fixture.js';

describe('choosing whose pins to export', () => {
  const users = [
    user('u_b', 'b@x.test', 'B'),
    user('u_a', 'a@x.test', 'A'),
    user('u_gone', 'gone@x.test', 'Gone', { state: 'Deactivated' }),
  ];

  it('splits --users on commas across repeats, dropping blanks and case-insensitive repeats', () => {
    expect(parseEmailList(['b@x.test, a@x.test', 'B@X.test,', ' c@x.test'])).toEqual([
      'b@x.test',
      'a@x.test',
      'c@x.test',
    ]);
  });

  it('takes every active member for --all-users, sorted by email', () => {
    expect(selectPinUsers(users, { kind: 'all' }).map((chosen) => chosen.id)).toEqual(['u_a', 'u_b']);
    expect(selectPinUsers(users, { kind: 'none' })).toEqual([]);
  });

  it('matches listed emails case-insensitively and refuses any that is no active member, naming each', () => {
    expect(selectPinUsers(users, { kind: 'listed', emails: ['B@x.test'] }).map((chosen) => chosen.id)).toEqual(['u_b']);
    expect(() => selectPinUsers(users, { kind: 'listed', emails: ['a@x.test', 'gone@x.test', 'who@x.test'] })).toThrow(
      /not an active workspace member: gone@x.test \(deactivated\), who@x.test/,
    );
  });

  it('announces the requests and time, and refuses what the daily budget cannot cover', () => {
    const plan = { users: [users[0]!, users[1]!], requests: 8, dailyRemaining: 2990 };
    expect(describePinRead(plan, 3)).toBe(
      'reading the pinned views of 2 members: 8 requests (one per member and domain), about 1 s at 3 requests/s per endpoint; 2,990 requests left today\n',
    );
    expect(
      describePinRead({ users: Array.from({ length: 600 }, () => users[0]!), requests: 2400, dailyRemaining: null }, 3),
    ).toContain('about 3 min');
    expect(() => checkPinBudget(plan)).not.toThrow();
    expect(() => checkPinBudget({ ...plan, dailyRemaining: 7 })).toThrow(
      expect.objectContaining({ code: 'export.over-budget' }),
    );
    // What is left less the reserve is what the export may spend.
    expect(() => checkPinBudget({ ...plan, dailyRemaining: 308 }, 300)).not.toThrow();
    expect(() => checkPinBudget({ ...plan, dailyRemaining: 307 }, 300)).toThrow(
      expect.objectContaining({
        code: 'export.over-budget',
        message:
          'reading the pinned views of 2 members takes 8 requests, but the service says 307 are left today and --reserve keeps 300 of them for the other integrations that share the quota; no pinned view was read',
        hint: expect.stringContaining('lower --reserve'),
      }),
    );
  });

  it('names --budget in the refusal for the quota, the flag that spreads the export over days', () => {
    const plan = { users: [users[0]!, users[1]!], requests: 8, dailyRemaining: 7 };
    expect(() => checkPinBudget(plan)).toThrow(
      expect.objectContaining({
        hint: expect.stringContaining('--all-users --budget N (N at most the 7 this run may spend'),
      }),
    );
    // A --budget already given: lower it (to what is left less the reserve).
    expect(() => checkPinBudget({ ...plan, dailyRemaining: 305 }, 300, 40)).toThrow(
      expect.objectContaining({ hint: expect.stringContaining('lower --budget to at most the 5 this run may spend') }),
    );
  });

  it('suggests the members a mistyped --users address most likely meant', () => {
    const members = [user('u_ana', 'ana.lopez@acme.test', 'Ana'), user('u_bo', 'bo.chen@acme.test', 'Bo')];
    expect(() => selectPinUsers(members, { kind: 'listed', emails: ['ana.lopes@acme.test'] })).toThrow(
      /ana\.lopes@acme\.test \(no member has this address; did you mean ana\.lopez@acme\.test\?\)/,
    );
    expect(() => selectPinUsers(members, { kind: 'listed', emails: ['someone.else@other.example'] })).toThrow(
      /: someone\.else@other\.example$/,
    );
  });
});

describe('the writer', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'viewctl-export-write-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('accepts a missing folder or one holding only .git, and refuses a file or a non-empty folder', async () => {
    await expect(checkOutFolder(join(dir, 'new'), 'new', false)).resolves.toBeUndefined();
    await mkdir(join(dir, 'repo', '.git'), { recursive: true });
    await expect(checkOutFolder(join(dir, 'repo'), 'repo', false)).resolves.toBeUndefined();
    await writeFile(join(dir, 'file.yaml'), 'x');
    await expect(checkOutFolder(join(dir, 'file.yaml'), 'file.yaml', true)).rejects.toMatchObject({
      code: 'export.out-not-folder',
    });
    await writeFile(join(dir, 'repo', 'notes.md'), 'x');
    await expect(checkOutFolder(join(dir, 'repo'), 'repo', false)).rejects.toMatchObject({
      code: 'export.out-not-empty',
      message: expect.stringContaining('repo'),
      hint: expect.stringContaining('--force'),
    });
    await expect(checkOutFolder(join(dir, 'repo'), 'repo', true)).resolves.toBeUndefined();
  });

  it('creates folders, leaves no temporary file behind, and lists manifests it did not write', async () => {
    const out = join(dir, 'out');
    await mkdir(join(out, 'deals'), { recursive: true });
    await writeFile(join(out, 'deals', 'old.yaml'), 'kind: DealView\n');
    const report = await writeExportFiles(out, {
      'workspace.yaml': 'kind: Workspace\n',
      'deals/a.yaml': 'kind: DealView\n',
    });
    expect(report).toEqual({ written: 2, untouched: ['deals/old.yaml'] });
    expect((await readdir(join(out, 'deals'))).sort()).toEqual(['a.yaml', 'old.yaml']);
    expect(await readdir(out)).toEqual(expect.arrayContaining(['deals', 'workspace.yaml']));
    expect((await readdir(out)).some((entry) => entry.endsWith('.tmp'))).toBe(false);
  });

  it('reports a path it cannot write as a usage error naming the file, and removes its temporary file', async () => {
    const out = join(dir, 'blocked');
    await mkdir(join(out, 'workspace.yaml'), { recursive: true });
    await expect(writeExportFiles(out, { 'workspace.yaml': 'x' })).rejects.toMatchObject({
      code: 'export.write-failed',
      message: expect.stringContaining('workspace.yaml'),
    });
    expect(await readdir(out)).toEqual(['workspace.yaml']);
  });
});

describe('viewctl export options', () => {
  let emulator: RunningEmulator;
  let work: string;
  let env: Record<string, string>;
  beforeAll(async () => {
    emulator = await startEmulator({ data: demoWorkspace(), port: 0, ...FAST_LIMITS });
    work = await mkdtemp(join(tmpdir(), 'viewctl-export-cmd-'));
    env = { VIEWCTL_BASE_URL: emulator.url, VIEWCTL_API_KEY: emulator.apiKey };
  });
  afterAll(async () => {
    await emulator.close();
    await rm(work, { recursive: true, force: true });
  });

  it('exports the pins of the named members only', async () => {
    const run = await runExport(
      ['--out', 'some', '--users', 'mia.chen@acme.test,ADAM.reyes@acme.test', '--rate', '1000'],
      { cwd: work, env },
    );
    expect(run.code).toBe(0);
    expect(await readdir(join(work, 'some', 'pins'))).toEqual(['adam-reyes-acme-test.yaml', 'mia-chen-acme-test.yaml']);
    expect(run.stderr).toContain('reading the pinned views of 2 members: 8 requests');
  });

  it('stops on an email that is no active member, before reading pins or writing anything', async () => {
    emulator.resetStats();
    const run = await runExport(['--out', 'bad', '--users', 'tom.becker@acme.test'], { cwd: work, env });
    expect(run.code).toBe(1);
    expect(run.error?.code).toBe('export.unknown-user');
    expect(run.error?.message).toContain('tom.becker@acme.test (deactivated)');
    expect(Object.keys(emulator.stats().byEndpoint).some((endpoint) => endpoint.includes('pinned'))).toBe(false);
    await expect(readdir(join(work, 'bad'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('refuses --users together with --all-users', async () => {
    await expect(
      runExport(['--out', 'both', '--users', 'a@x.test', '--all-users'], { cwd: work, env }),
    ).rejects.toBeInstanceOf(CommanderError);
  });

  it('needs a service to talk to', async () => {
    const run = await runExport(['--out', 'nowhere'], { cwd: work, env: {} });
    expect(run.error?.code).toBe('connection.no-service');
  });
});
