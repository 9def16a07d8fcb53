import { spawnSync } from 'node:child_process';
import { readdir, readFile, utimes, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fileMemoryStore } from '../../src/state/memory-file-store.js';
import { LOCK_WAITS, type LockWaits, withMemoryLock } from '../../src/state/memory-lock.js';
import { emptyMemory, type SweepMemory } from '../../src/state/sweep-memory.js';
import { scratchDir } from '../support/cli.js';

/**
 * One writer at a time for the memory file (state/memory-lock.ts), against the real
 * file system. Outcomes never depend on timing: the waits' clock is injected, and a
 * writer that must wait is given no time to wait.
 */

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

async function folder(): Promise<string> {
  const made = await scratchDir();
  cleanups.push(made.cleanup);
  return made.dir;
}

const NOW = Date.parse('2026-05-01T02:00:00.000Z');
/** NO_WAIT gives up at the first lock found that is not a leftover; the clock stands still at NOW. */
const NO_WAIT: LockWaits = { ...LOCK_WAITS, waitMs: 0, now: () => NOW, sleep: async () => undefined };

const withList = (key: string) => (held: SweepMemory) => ({
  ...held,
  lists: { ...held.lists, [key]: { lastRead: '2026-05-01T00:00:00.000Z', viewIds: [] } },
});

/** exitedPid is the pid of a process that has ended. */
function exitedPid(): number {
  return spawnSync(process.execPath, ['-e', '']).pid ?? 0;
}

async function lockFile(path: string, record: object, mtimeMs: number): Promise<void> {
  await writeFile(`${path}.lock`, JSON.stringify(record));
  await utimes(`${path}.lock`, mtimeMs / 1000, mtimeMs / 1000);
}

describe('withMemoryLock and the file store', () => {
  it('makes concurrent writers take turns: each merges what the one before wrote', async () => {
    const dir = await folder();
    const path = join(dir, 'ledger.json');
    const store = fileMemoryStore(path, 'ledger.json');
    const keys = Array.from({ length: 12 }, (_, index) => `deals:m${index}@x.io`);
    await Promise.all(keys.map((key) => store.writeMerged(withList(key))));
    expect(Object.keys((await store.read()).lists).sort()).toEqual([...keys].sort());
    expect(await readdir(dir)).toEqual(['ledger.json']);
  });

  it('gives up after its wait on a live writer’s lock (ledger.locked), writing nothing and leaving that lock', async () => {
    const dir = await folder();
    const path = join(dir, 'ledger.json');
    const record = { pid: process.pid, host: hostname(), token: 'held' };
    await lockFile(path, record, NOW);
    const store = fileMemoryStore(path, 'ledger.json', NO_WAIT);
    await expect(store.writeMerged(withList('deals:ann@x.io'))).rejects.toMatchObject({
      code: 'ledger.locked',
      message: `--ledger ledger.json is being written by another run (process ${process.pid} on ${hostname()}): its lock ${path}.lock has stood for 0 s, past the 0 s a run waits`,
      hint: `if no other viewctl run uses ledger.json, delete ${path}.lock`,
    });
    expect(await readdir(dir)).toEqual(['ledger.json.lock']);
    expect(JSON.parse(await readFile(`${path}.lock`, 'utf8'))).toEqual(record);
  });

  it('removes the lock a writer left when it died (its process is gone), and writes', async () => {
    const dir = await folder();
    const path = join(dir, 'ledger.json');
    await lockFile(path, { pid: exitedPid(), host: hostname(), token: 'dead' }, NOW);
    await fileMemoryStore(path, 'ledger.json', NO_WAIT).writeMerged(withList('deals:ann@x.io'));
    expect(await readdir(dir)).toEqual(['ledger.json']);
    expect(Object.keys(JSON.parse(await readFile(path, 'utf8')).lists)).toEqual(['deals:ann@x.io']);
  });

  it('removes a lock older than staleMs even when its pid runs (another host, a reused pid, a hung writer)', async () => {
    const dir = await folder();
    const path = join(dir, 'ledger.json');
    await lockFile(path, { pid: process.pid, host: 'another-runner', token: 'old' }, NOW - LOCK_WAITS.staleMs);
    await fileMemoryStore(path, 'ledger.json', NO_WAIT).writeMerged(withList('deals:ann@x.io'));
    expect(await readdir(dir)).toEqual(['ledger.json']);
  });

  it('waits on a lock of another host, or one half written, while it is younger than staleMs', async () => {
    const dir = await folder();
    const path = join(dir, 'ledger.json');
    for (const text of [JSON.stringify({ pid: 1, host: 'another-runner', token: 't' }), '']) {
      await writeFile(`${path}.lock`, text);
      await utimes(`${path}.lock`, NOW / 1000, NOW / 1000);
      await expect(
        fileMemoryStore(path, 'ledger.json', NO_WAIT).writeMerged(withList('deals:ann@x.io')),
      ).rejects.toMatchObject({ code: 'ledger.locked' });
    }
  });

  it('waits its turn, then writes, when the writer before releases within the wait', async () => {
    const dir = await folder();
    const path = join(dir, 'ledger.json');
    let release: () => void = () => undefined;
    const first = withMemoryLock(path, 'ledger.json', () => new Promise<void>((resolve) => (release = resolve)));
    let pauses = 0;
    // The second writer's pauses are the first writer's time: the first releases at the third pause.
    const waits: LockWaits = {
      ...NO_WAIT,
      waitMs: 1000,
      sleep: async () => {
        pauses += 1;
        if (pauses === 3) {
          release();
          await first;
        }
      },
    };
    await fileMemoryStore(path, 'ledger.json', waits).writeMerged(withList('deals:ann@x.io'));
    expect(pauses).toBe(3);
    expect(await readdir(dir)).toEqual(['ledger.json']);
  });

  it('releases the lock when the merge refuses what the file holds, and leaves the file as it was', async () => {
    const dir = await folder();
    const path = join(dir, 'ledger.json');
    await writeFile(path, 'not json');
    const store = fileMemoryStore(path, 'ledger.json');
    await expect(store.writeMerged(() => emptyMemory())).rejects.toMatchObject({ code: 'ledger.invalid' });
    expect(await readdir(dir)).toEqual(['ledger.json']);
    expect(await readFile(path, 'utf8')).toBe('not json');
  });
});
