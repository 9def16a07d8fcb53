import { execFileSync } from 'node:child_process';
import { cp, lstat, mkdir, readFile, readlink, stat, symlink, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EXAMPLES, runBuilt, runCli, tempDirs, withEmulator } from './harness.js';
import { readOnce } from '../support/fifo.js';

const { dir, cleanupAll } = tempDirs();
afterEach(cleanupAll);

describe('viewctl plan --out', () => {
  it('refuses to write over a manifest it read, before any request', async () => {
    const manifests = await dir({});
    await cp(EXAMPLES, manifests, { recursive: true });
    const before = await readFile(join(manifests, 'workspace.yaml'), 'utf8');
    await withEmulator(async (emulator, env) => {
      emulator.resetStats();
      const run = await runBuilt(['plan', '.', '--out', 'workspace.yaml'], { env, cwd: manifests });
      expect(run.code).toBe(1);
      // A YAML name inside the manifest paths is refused first, before any file is read.
      expect(run.stderr).toContain('error[output.in-manifests]: --out workspace.yaml is a YAML file inside');
      expect(emulator.stats().requests).toBe(0);
    });
    expect(await readFile(join(manifests, 'workspace.yaml'), 'utf8')).toBe(before);
  });

  it('refuses to write the plan over the sweep memory (--ledger), even through a link, before any request', async () => {
    const manifests = await dir({});
    await cp(EXAMPLES, manifests, { recursive: true });
    await writeFile(join(manifests, 'memory.json'), '{}\n');
    await symlink('memory.json', join(manifests, 'plan.json'));
    await withEmulator(async (emulator, env) => {
      emulator.resetStats();
      const run = await runBuilt(['plan', '.', '--out', 'plan.json', '--ledger', 'memory.json'], {
        env,
        cwd: manifests,
      });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(
        'error[output.overwrites-ledger]: --out plan.json is the sweep memory (--ledger memory.json)',
      );
      expect(emulator.stats().requests).toBe(0);
    });
    expect(await readFile(join(manifests, 'memory.json'), 'utf8')).toBe('{}\n');
  });

  it('fails on a folder that does not exist before spending any request', async () => {
    await withEmulator(async (emulator, env) => {
      emulator.resetStats();
      const run = await runBuilt(['plan', EXAMPLES, '--out', '/nonexistent/x'], { env });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(
        'error[output.write-failed]: cannot write /nonexistent/x: ENOENT; nothing was read from the service',
      );
      expect(emulator.stats().requests).toBe(0);
    });
  });
});

/**
 * What stands at `--out FILE`: the built CLI, in a child process, writing to devices, a
 * named pipe and links made in a scratch folder (a null device needs root to make).
 * No test writes to the system's /dev/null or /dev/stdout.
 */
describe('viewctl plan --out onto what is not a plain file', () => {
  const asRoot = process.getuid?.() === 0;

  /** planOut runs `plan EXAMPLES --out target` against a fresh emulator and tells how many requests it spent. */
  async function planOut(target: string): Promise<{ code: number; stdout: string; stderr: string; requests: number }> {
    return withEmulator(async (emulator, env) => {
      emulator.resetStats();
      const run = await runCli(['plan', EXAMPLES, '--out', target, '--rate', '1000'], { env });
      return { ...run, requests: emulator.stats().requests };
    });
  }

  it.skipIf(!asRoot)(
    'writes through to a character device and through a link to one: both stay what they are',
    async () => {
      const folder = await dir({});
      const device = join(folder, 'null');
      execFileSync('mknod', [device, 'c', '1', '3']);
      const link = join(folder, 'plan.json');
      await symlink(device, link);
      for (const target of [device, link]) {
        const run = await planOut(target);
        expect(run.code).toBe(0);
        expect(run.stderr).not.toContain('error[');
      }
      expect((await lstat(device)).isCharacterDevice()).toBe(true);
      expect((await lstat(device)).rdev).toBe((await stat('/dev/null')).rdev);
      expect((await lstat(link)).isSymbolicLink()).toBe(true);
      expect(await readlink(link)).toBe(device);
    },
  );

  it('writes the plan through a named pipe, and through a link to one, to the reader at the other end', async () => {
    const folder = await dir({});
    const pipe = join(folder, 'plan.pipe');
    execFileSync('mkfifo', [pipe]);
    const link = join(folder, 'plan.json');
    await symlink(pipe, link);
    for (const target of [pipe, link]) {
      const received = readOnce(target);
      const run = await planOut(target);
      expect(run.code).toBe(0);
      const plan = JSON.parse(await received) as { formatVersion: number; digest: string };
      expect(plan.formatVersion).toBe(1);
      expect(run.stdout).toContain(plan.digest);
      // A pipe keeps nothing for apply --plan to read: the digest line says how to save the plan instead.
      expect(run.stdout).not.toContain(`apply --plan ${target}`);
      expect(run.stdout).toContain('save it with --out plan.json, then: viewctl apply --plan plan.json');
    }
    expect((await lstat(pipe)).isFIFO()).toBe(true);
    expect((await lstat(link)).isSymbolicLink()).toBe(true);
  });

  it('replaces a link to a regular file, never writing through it', async () => {
    const folder = await dir({ 'committed.json': 'kept\n' });
    const link = join(folder, 'plan.json');
    await symlink(join(folder, 'committed.json'), link);
    const run = await planOut(link);
    expect(run.code).toBe(0);
    expect((await lstat(link)).isFile()).toBe(true);
    expect((JSON.parse(await readFile(link, 'utf8')) as { formatVersion: number }).formatVersion).toBe(1);
    expect(await readFile(join(folder, 'committed.json'), 'utf8')).toBe('kept\n');
  });

  it('refuses a folder and a socket, saying what each is, before any request', async () => {
    const folder = await dir({});
    await mkdir(join(folder, 'plans'));
    const run = await planOut(join(folder, 'plans'));
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      `error[output.write-failed]: cannot write ${join(folder, 'plans')}: it is a folder; name a file`,
    );
    expect(run.stderr).toContain('hint: name a file to write the plan to, e.g. --out plan.json');
    expect(run.requests).toBe(0);

    const socketPath = join(folder, 'plan.sock');
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(socketPath, resolve));
    try {
      const refused = await planOut(socketPath);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(
        `error[output.write-failed]: cannot write ${socketPath}: it is a socket; name a file`,
      );
      expect(refused.stderr).toContain('nothing was read from the service');
      expect(refused.requests).toBe(0);
      expect((await lstat(socketPath)).isSocket()).toBe(true);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
