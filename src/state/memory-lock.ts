import { randomBytes } from 'node:crypto';
import { open, readFile, rm, stat } from 'node:fs/promises';
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { ViewctlError } from '../errors.js';

/**
 * One writer at a time for the sweep memory file: a lock file beside it
 * (`FILE.lock`), made with an exclusive create, which the file system grants to one
 * process only. A merge at write time alone is not enough: two runs that read the file,
 * merged and renamed their result over it at the same moment each wrote a merge that
 * lacked the other's reads (4 overlapping runs kept 8 of 16 lists). Under the lock, the
 * read, the merge and the rename are one step.
 *
 * Why this scheme: Node has no advisory lock (flock), and a rename cannot be made
 * conditional, so an exclusive create is the portable primitive (it holds on local
 * disks and on network file systems that honour O_EXCL). The lock is held for a read,
 * a merge and a write of one small file, milliseconds; a writer that died holding it
 * must not stop the memory for ever, so a lock is a leftover (stale) when its process
 * is gone (same host: its pid answers no signal) or when it is older than `staleMs`
 * (another host, or a pid reused). A leftover is removed under a second lock
 * (`FILE.lock.break`), after checking it is still the same lock, so two waiters that
 * both found it stale cannot remove a live writer's new lock. Waiting is bounded
 * (`waitMs`): the memory is advice, and a run never hangs on it.
 */

/** LockWaits are the lock's bounds and clock, injected by tests. */
export interface LockWaits {
  /** How long a writer waits for another's lock before giving up (`ledger.locked`). */
  waitMs: number;
  /** A lock whose file is this old (by its modification time) is a leftover. */
  staleMs: number;
  /** The pause between two attempts. */
  pauseMs: number;
  /** The clock the wait and a lock's age are measured by (epoch milliseconds, as file times are). */
  now(): number;
  sleep(ms: number): Promise<unknown>;
}

/** LOCK_WAITS are the defaults: wait up to 30 s, a lock a minute old is a leftover, retry every 20 ms. */
export const LOCK_WAITS: LockWaits = {
  waitMs: 30_000,
  staleMs: 60_000,
  pauseMs: 20,
  now: () => Date.now(),
  sleep: (ms) => sleep(ms),
};

/** LockRecord is what a lock file holds: who made it, and a token only its maker knows. */
interface LockRecord {
  pid: number;
  host: string;
  token: string;
}

/** Holder is a lock file as found: its record (undefined while its maker writes it, or if unreadable), identity and age. */
interface Holder {
  record: LockRecord | undefined;
  ino: number;
  mtimeMs: number;
}

/**
 * withMemoryLock runs `work` holding the lock of the memory file at `path` (its folder
 * must exist), and releases it after, whatever `work` does. A lock held by another
 * writer past `waits.waitMs` is `ledger.locked` (`file` names the memory in messages).
 */
export async function withMemoryLock<T>(
  path: string,
  file: string,
  work: () => Promise<T>,
  waits: LockWaits = LOCK_WAITS,
): Promise<T> {
  const lock = `${path}.lock`;
  const me: LockRecord = { pid: process.pid, host: hostname(), token: randomBytes(12).toString('hex') };
  const deadline = waits.now() + waits.waitMs;
  while (!(await create(lock, me))) {
    const holder = await holderOf(lock);
    // Released between the two looks: try again at once.
    if (holder === undefined) continue;
    if (isLeftover(holder, waits) && (await removeLeftover(lock, holder, me, waits))) continue;
    if (waits.now() >= deadline) throw locked(file, lock, holder, waits);
    await waits.sleep(waits.pauseMs);
  }
  try {
    return await work();
  } finally {
    await release(lock, me.token);
  }
}

/** create makes `lock` holding `record` if no lock stands there; false when one does. */
async function create(lock: string, record: LockRecord): Promise<boolean> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(lock, 'wx');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    await handle.writeFile(JSON.stringify(record));
  } catch (error) {
    await handle.close().catch(() => undefined);
    await rm(lock, { force: true });
    throw error;
  }
  await handle.close();
  return true;
}

/** holderOf is the lock file at `lock` as found now; undefined when there is none. */
async function holderOf(lock: string): Promise<Holder | undefined> {
  const info = await stat(lock).catch(() => undefined);
  if (info === undefined) return undefined;
  const text = await readFile(lock, 'utf8').catch(() => undefined);
  return { record: recordOf(text), ino: info.ino, mtimeMs: info.mtimeMs };
}

function recordOf(text: string | undefined): LockRecord | undefined {
  try {
    const data = JSON.parse(text ?? '') as Partial<LockRecord>;
    return typeof data.pid === 'number' && typeof data.host === 'string' && typeof data.token === 'string'
      ? { pid: data.pid, host: data.host, token: data.token }
      : undefined;
  } catch {
    return undefined;
  }
}

/** isLeftover tells a lock whose writer is gone: too old, or made on this host by a process that no longer runs. */
function isLeftover(holder: Holder, waits: LockWaits): boolean {
  if (waits.now() - holder.mtimeMs >= waits.staleMs) return true;
  const record = holder.record;
  return record !== undefined && record.host === hostname() && !running(record.pid);
}

/** running tells whether process `pid` exists (signal 0 checks without sending; EPERM: it exists, as another user's). */
function running(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * removeLeftover removes the leftover `holder` at `lock`, holding `LOCK.break` so that
 * no other waiter removes a lock in between, and only if the lock there is still that
 * leftover (the same file, the same maker). False when another waiter is at it.
 */
async function removeLeftover(lock: string, holder: Holder, me: LockRecord, waits: LockWaits): Promise<boolean> {
  const guard = `${lock}.break`;
  if (!(await create(guard, me))) {
    // A waiter that died while removing a leftover left its guard: a leftover in turn.
    const other = await holderOf(guard);
    if (other !== undefined && isLeftover(other, waits)) await rm(guard, { force: true });
    return false;
  }
  try {
    const now = await holderOf(lock);
    if (now !== undefined && sameHolder(now, holder)) await rm(lock, { force: true });
    return true;
  } finally {
    await rm(guard, { force: true });
  }
}

function sameHolder(a: Holder, b: Holder): boolean {
  return a.ino === b.ino && a.mtimeMs === b.mtimeMs && a.record?.token === b.record?.token;
}

/** release removes `lock` if it is still ours (a writer slower than `staleMs` may have lost it to another). */
async function release(lock: string, token: string): Promise<void> {
  const holder = await holderOf(lock);
  if (holder?.record?.token === token) await rm(lock, { force: true });
}

function locked(file: string, lock: string, holder: Holder, waits: LockWaits): ViewctlError {
  const who = holder.record === undefined ? '' : ` (process ${holder.record.pid} on ${holder.record.host})`;
  const seconds = Math.max(0, Math.round((waits.now() - holder.mtimeMs) / 1000));
  return new ViewctlError(
    'ledger.locked',
    `--ledger ${file} is being written by another run${who}: its lock ${lock} has stood for ${seconds} s, past the ${Math.round(waits.waitMs / 1000)} s a run waits`,
    { hint: `if no other viewctl run uses ${file}, delete ${lock}` },
  );
}
