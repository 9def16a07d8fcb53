import { execFileSync } from 'node:child_process';
import {
  lstat,
  mkdir,
  mkdtemp,
  open,
  readdir,
  readFile,
  readlink,
  rm,
  stat,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OutputKindError, writeAtomically } from '../../src/export/atomic-file.js';
import { readOnce } from '../support/fifo.js';

/**
 * The one rule every writer follows on what stands at the path (atomic-file.ts): a
 * regular file or a link to one is replaced by a rename, a device or a pipe is written
 * through and stays what it is, anything else is refused. The devices are made in a
 * scratch folder (a null device needs root to make); no test here writes to /dev.
 */

const asRoot = process.getuid?.() === 0;
let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'viewctl-atomic-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** nullDevice makes a character device like /dev/null (1,3) at `path`. */
function nullDevice(path: string): string {
  execFileSync('mknod', [path, 'c', '1', '3']);
  return path;
}

/** leftovers are the temporary files a write left beside its target (none, ever). */
async function leftovers(): Promise<string[]> {
  return (await readdir(dir)).filter((entry) => entry.endsWith('.tmp'));
}

describe('writeAtomically: what stands at the path', () => {
  it('replaces a regular file by a rename (a new file, never the old one rewritten)', async () => {
    const target = join(dir, 'plan.json');
    await writeFile(target, 'old');
    const before = await stat(target);
    await writeAtomically(target, 'new');
    expect(await readFile(target, 'utf8')).toBe('new');
    expect((await stat(target)).ino).not.toBe(before.ino);
    expect(await leftovers()).toEqual([]);
  });

  it('replaces a link to a regular file and leaves the file it pointed to as it was', async () => {
    const elsewhere = join(dir, 'committed.json');
    await writeFile(elsewhere, 'kept');
    const target = join(dir, 'plan.json');
    await symlink(elsewhere, target);
    await writeAtomically(target, 'new');
    expect((await lstat(target)).isFile()).toBe(true);
    expect(await readFile(target, 'utf8')).toBe('new');
    expect(await readFile(elsewhere, 'utf8')).toBe('kept');
  });

  it.skipIf(!asRoot)('writes through to a character device, which stays a device', async () => {
    const device = nullDevice(join(dir, 'null'));
    await writeAtomically(device, '{"plan":1}\n');
    const info = await lstat(device);
    expect(info.isCharacterDevice()).toBe(true);
    expect(info.rdev).toBe((await stat('/dev/null')).rdev);
    expect(await leftovers()).toEqual([]);
  });

  it.skipIf(!asRoot)('writes through a link to a character device: the link and the device stay', async () => {
    const device = nullDevice(join(dir, 'null'));
    const link = join(dir, 'out.json');
    await symlink(device, link);
    await writeAtomically(link, '{"plan":1}\n');
    expect((await lstat(link)).isSymbolicLink()).toBe(true);
    expect(await readlink(link)).toBe(device);
    expect((await lstat(device)).isCharacterDevice()).toBe(true);
  });

  it('writes through to a named pipe, whose reader receives the content', async () => {
    const pipe = join(dir, 'pipe');
    execFileSync('mkfifo', [pipe]);
    const received = readOnce(pipe);
    await writeAtomically(pipe, '{"plan":1}\n');
    expect(await received).toBe('{"plan":1}\n');
    expect((await lstat(pipe)).isFIFO()).toBe(true);
    expect(await leftovers()).toEqual([]);
  });

  it('writes through a link to a named pipe', async () => {
    const pipe = join(dir, 'pipe');
    execFileSync('mkfifo', [pipe]);
    const link = join(dir, 'out.json');
    await symlink(pipe, link);
    const received = readOnce(link);
    await writeAtomically(link, 'through the link\n');
    expect(await received).toBe('through the link\n');
    expect((await lstat(link)).isSymbolicLink()).toBe(true);
    expect((await lstat(pipe)).isFIFO()).toBe(true);
  });

  it('refuses a folder, or a link to one, saying what it is', async () => {
    const folder = join(dir, 'plans');
    await mkdir(folder);
    await expect(writeAtomically(folder, 'x')).rejects.toThrow(
      new OutputKindError(folder, 'it is a folder; name a file (a new one, or a regular file to replace)'),
    );
    const link = join(dir, 'out.json');
    await symlink(folder, link);
    await expect(writeAtomically(link, 'x')).rejects.toThrow(/it is a link to a folder/);
    expect((await lstat(link)).isSymbolicLink()).toBe(true);
    expect(await readdir(folder)).toEqual([]);
  });

  describe('a socket', () => {
    let server: Server | undefined;
    afterEach(async () => {
      await new Promise((resolve) => (server === undefined ? resolve(undefined) : server.close(resolve)));
      server = undefined;
    });

    it('is refused and stays a socket', async () => {
      const socket = join(dir, 'plan.sock');
      server = createServer();
      await new Promise<void>((resolve) => server?.listen(socket, resolve));
      await expect(writeAtomically(socket, 'x')).rejects.toThrow(/it is a socket/);
      expect((await lstat(socket)).isSocket()).toBe(true);
    });
  });

  it('refuses a link to a file this process has open (as /dev/stdout is when output goes to a file), and leaves the link', async () => {
    const file = join(dir, 'stdout.txt');
    const handle = await open(file, 'w');
    try {
      const link = join(dir, 'stdout');
      await symlink(`/proc/self/fd/${handle.fd}`, link);
      await expect(writeAtomically(link, 'x')).rejects.toThrow(/a link to a file this process has open/);
      expect((await lstat(link)).isSymbolicLink()).toBe(true);
      expect(await readFile(file, 'utf8')).toBe('');
    } finally {
      await handle.close();
    }
  });
});
