import { throughOpenFile } from './open-file-links.js';
import { randomBytes } from 'node:crypto';
import { constants, type Stats } from 'node:fs';
import { lstat, mkdir, open, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { systemErrorCode, UsageError } from '../errors.js';
import { type LockWaits, withMemoryLock } from './memory-lock.js';
import { formatMemoryFile, parseMemoryFile } from './memory-parse.js';
import type { MemoryStore } from './memory-store.js';

/**
 * The sweep memory as a file (`--ledger FILE`, README "The sweep memory" and "Files
 * viewctl writes"). It must be a regular file, a new one, or a link to one: the memory
 * is read back and merged every time it is written, so a named pipe (whose read waits
 * for a writer for ever), a socket, a device (`/dev/null` reads as no memory each night,
 * so a budgeted sweep would read the same lists every night; `/dev/zero` never ends)
 * and a folder are refused before it is opened, never read. It is written whole (a
 * temporary file beside it, renamed over it; a link is replaced, never written
 * through), one writer at a time (memory-lock.ts).
 */

/** fileMemoryStore is the memory file at `path` (absolute), named `file` in messages; `lock` bounds the wait for another writer. */
export function fileMemoryStore(path: string, file: string, lock?: LockWaits): MemoryStore {
  return {
    file,
    read: async () => parseMemoryFile(await readMemoryText(path, file, 'open'), file),
    async writeMerged(merge) {
      await mkdir(dirname(path), { recursive: true });
      await withMemoryLock(
        path,
        file,
        async () => {
          const held = parseMemoryFile(await readMemoryText(path, file, 'write'), file);
          await replaceFile(path, formatMemoryFile(merge(held)));
        },
        lock,
      );
    },
  };
}

/**
 * readMemoryText is the text of the memory file, or undefined when there is none yet.
 * What stands at the path is looked at first (`lstat`, then `stat` through a link), and
 * the file is opened without waiting (a path swapped for a pipe in between opens
 * at once and is refused by what the open file is).
 */
async function readMemoryText(path: string, file: string, when: 'open' | 'write'): Promise<string | undefined> {
  const refusal = await refusalOf(path);
  if (refusal !== undefined) throw refused(file, refusal, when);
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw unreadable(file, error);
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw refused(file, `it is ${what(info)}${whyRegular(info)}`, when);
    return await handle.readFile('utf8');
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw unreadable(file, error);
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/**
 * refusalOf says why the path cannot hold the memory (what stands there), or undefined
 * when it can: nothing (or a link to nothing), a regular file, a link to one. A path
 * that cannot be looked at is left to the open, which fails with its own error.
 */
async function refusalOf(path: string): Promise<string | undefined> {
  const own = await lstat(path).catch(() => undefined);
  if (own === undefined || own.isFile()) return undefined;
  if (!own.isSymbolicLink()) return `it is ${what(own)}${whyRegular(own)}`;
  const pointed = await stat(path).catch(() => undefined);
  if (pointed === undefined) return undefined;
  if (!pointed.isFile()) return `it is a link to ${what(pointed)}${whyRegular(pointed)}`;
  // /dev/stdout -> /proc/self/fd/1 -> a file the shell opened: replacing it would fight the process's own output.
  if (await throughOpenFile(path))
    return 'it is a link to a file this process has open (standard output redirected to a file?); name that file itself';
  return undefined;
}

function what(info: Stats): string {
  if (info.isDirectory()) return 'a folder';
  if (info.isFIFO()) return 'a named pipe';
  if (info.isSocket()) return 'a socket';
  if (info.isCharacterDevice()) return 'a character device';
  if (info.isBlockDevice()) return 'a block device';
  return 'not a regular file';
}

/** whyRegular is the rest of a refusal's reason: why the memory must be a regular file, and what to name instead. */
function whyRegular(info: Stats): string {
  const name = '; name a file (a new one, or a regular file to replace)';
  // A folder's refusal is the one every file viewctl writes gives.
  if (info.isDirectory()) return name;
  const without = info.isCharacterDevice() || info.isBlockDevice() ? ', or leave out --ledger to run without one' : '';
  return `: the sweep memory is read back and merged each time it is written, so it must be a regular file${name}${without}`;
}

/** replaceFile writes `text` to a temporary file beside `path` and renames it over `path`: no reader sees half a memory. */
async function replaceFile(path: string, text: string): Promise<void> {
  const temporary = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    await writeFile(temporary, text, 'utf8');
    await rename(temporary, path);
  } catch (error) {
    // The write's own error is the one to report, not a failure to tidy up after it.
    await rm(temporary, { force: true }).catch(() => undefined);
    throw error;
  }
}

function refused(file: string, reason: string, when: 'open' | 'write'): UsageError {
  return new UsageError(
    'output.write-failed',
    `cannot write --ledger ${file}: ${reason}${when === 'open' ? '; nothing was read from the service' : ''}`,
    'name a file for the sweep memory, e.g. --ledger .viewctl/ledger.json',
  );
}

function unreadable(file: string, error: unknown): UsageError {
  return new UsageError(
    'ledger.unreadable',
    `cannot read --ledger ${file}: ${systemErrorCode(error)}`,
    'check the path and its permissions, or point --ledger at another file',
  );
}
