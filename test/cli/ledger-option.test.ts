import { execFileSync } from 'node:child_process';
import { constants } from 'node:fs';
import { mkdir, open, readFile, readdir, symlink, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { openSweepMemory } from '../../src/cli/ledger-option.js';
import type { ApiView } from '../../src/domain/api-types.js';
import type { LiveSeen } from '../../src/state/memory-observe.js';
import { scratchDir } from '../support/cli.js';
import { memoryFile } from '../support/memory-file.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

async function folder(): Promise<string> {
  const made = await scratchDir();
  cleanups.push(made.cleanup);
  return made.dir;
}

const T1 = Date.parse('2026-05-01T00:00:00.000Z');
const T2 = Date.parse('2026-05-02T00:00:00.000Z');
const workspace = { id: 'ws_1', name: 'Acme', createdAt: '', membersCount: 2, recordingsCount: 0 };
const view = (viewId: string, name: string): ApiView => ({
  viewId,
  name,
  visibility: 'Public',
  isDefault: false,
  ownerId: 'u',
  columns: [],
  filters: {},
  sort: [],
});
const live = (parts: Partial<LiveSeen>): LiveSeen => ({ workspace, views: {}, pins: {}, ...parts });

function stderr(): { stream: PassThrough; text: () => string } {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return { stream, text: () => text };
}

/** appliedAt is what a complete apply of `manifests` at `commit` records. */
function appliedAt(commit: string): { commit: string; digest: string; paths: string[] } {
  return { commit, digest: 'd'.repeat(64), paths: ['manifests'] };
}

describe('openSweepMemory and MemoryFileRun.save', () => {
  it('writes nothing without --ledger, and nothing when the run read nothing', async () => {
    const cwd = await folder();
    expect(await openSweepMemory({ cwd }, undefined)).toBeUndefined();
    const memoryRun = await openSweepMemory({ cwd, clock: { now: () => T1 } }, 'memory/ledger.json');
    await memoryRun?.save({ stderr: stderr().stream });
    await expect(readFile(join(cwd, 'memory/ledger.json'), 'utf8')).rejects.toThrow('ENOENT');
  });

  it('merges with what the file holds at write time: two overlapping runs lose nothing', async () => {
    const cwd = await folder();
    const a = await openSweepMemory({ cwd, clock: { now: () => T1 } }, 'ledger.json');
    const b = await openSweepMemory({ cwd, clock: { now: () => T2 } }, 'ledger.json');
    a?.observe(live({ pins: { 'deals:ann@x.io': [view('v1', 'A')] } }));
    b?.observe(live({ pins: { 'deals:bob@x.io': [view('v2', 'B')] } }));
    await b?.save({ stderr: stderr().stream });
    await a?.save({ stderr: stderr().stream });
    const memory = await memoryFile(join(cwd, 'ledger.json'));
    expect(memory.lists).toEqual({
      'deals:ann@x.io': { lastRead: new Date(T1).toISOString(), viewIds: ['v1'] },
      'deals:bob@x.io': { lastRead: new Date(T2).toISOString(), viewIds: ['v2'] },
    });
  });

  it('lets the apply that just exited 0 set the last applied commit, even when the file holds one of the same instant or a later clock', async () => {
    const cwd = await folder();
    const skewed = await openSweepMemory({ cwd, clock: { now: () => T2 } }, 'ledger.json');
    skewed?.advance(appliedAt('b'.repeat(40)), { targets: [] });
    await skewed?.save({ stderr: stderr().stream });
    // The next apply runs on a runner whose clock is behind, or at the same instant: it is still the newer apply.
    for (const now of [T1, T2]) {
      const next = await openSweepMemory({ cwd, clock: { now: () => now } }, 'ledger.json');
      const commit = (now === T1 ? 'c' : 'd').repeat(40);
      next?.advance(appliedAt(commit), { targets: [] });
      await next?.save({ stderr: stderr().stream });
      const memory = await memoryFile(join(cwd, 'ledger.json'));
      expect(memory.lastApplied).toEqual({ ...appliedAt(commit), at: new Date(now).toISOString() });
    }
  });

  it('keeps a view deleted by the apply forgotten, even though the file still remembers it at write time', async () => {
    const cwd = await folder();
    const first = await openSweepMemory({ cwd, clock: { now: () => T1 } }, 'ledger.json');
    first?.observe(live({ views: { deals: [view('v9', 'Pruned'), view('v1', 'Kept')] } }));
    await first?.save({ stderr: stderr().stream });
    const apply = await openSweepMemory({ cwd, clock: { now: () => T2 } }, 'ledger.json');
    apply?.rememberWrites({ lists: {}, seen: [], deleted: [{ domain: 'deals', id: 'v9' }] });
    await apply?.save({ stderr: stderr().stream });
    const memory = await memoryFile(join(cwd, 'ledger.json'));
    expect(Object.keys(memory.views)).toEqual(['view:deals:id:v1']);
  });

  it("never writes over a file that stopped being this workspace's memory during the run, and says so on stderr", async () => {
    const cwd = await folder();
    const memoryRun = await openSweepMemory({ cwd, clock: { now: () => T1 } }, 'ledger.json');
    memoryRun?.observe(live({}));
    for (const text of [
      '# a manifest someone saved here\n',
      JSON.stringify({ formatVersion: 1, workspaceId: 'ws_other', lists: {}, views: {}, members: {} }),
    ]) {
      await writeFile(join(cwd, 'ledger.json'), text);
      const err = stderr();
      await memoryRun?.save({ stderr: err.stream });
      expect(await readFile(join(cwd, 'ledger.json'), 'utf8')).toBe(text);
      expect(err.text()).toMatch(/warning: the sweep memory was not written \(ledger\.(invalid|other-workspace): /);
    }
  });

  it('refuses a folder as the file, before any request', async () => {
    const cwd = await folder();
    await mkdir(join(cwd, 'dir'));
    await expect(openSweepMemory({ cwd }, 'dir')).rejects.toMatchObject({ code: 'output.write-failed' });
  });

  it('refuses a file it cannot read (ledger.unreadable), before any request', async () => {
    const cwd = await folder();
    await writeFile(join(cwd, 'plain-file'), 'x');
    await expect(openSweepMemory({ cwd }, 'plain-file/ledger.json')).rejects.toMatchObject({
      code: 'ledger.unreadable',
      message: 'cannot read --ledger plain-file/ledger.json: ENOTDIR',
    });
  });

  it('refuses a named pipe, a link to one, a socket and a device before opening them, never waiting on a reader', async () => {
    const cwd = await folder();
    execFileSync('mkfifo', [join(cwd, 'pipe')]);
    await symlink(join(cwd, 'pipe'), join(cwd, 'to-pipe'));
    const socket = createServer().listen(join(cwd, 'socket'));
    await new Promise((resolve) => socket.once('listening', resolve));
    try {
      for (const [file, what] of [
        ['pipe', 'it is a named pipe'],
        ['to-pipe', 'it is a link to a named pipe'],
        ['socket', 'it is a socket'],
        ['/dev/null', 'it is a character device'],
      ] as const) {
        // Opened for reading, a pipe would wait for a writer for ever: the refusal must come first.
        const outcome = await Promise.race([
          openSweepMemory({ cwd }, file).then(
            () => 'opened',
            (error: unknown) => error,
          ),
          new Promise((resolve) => setTimeout(() => resolve('still waiting'), 5000)),
        ]);
        expect(outcome).toMatchObject({
          code: 'output.write-failed',
          message: `cannot write --ledger ${file}: ${what}: the sweep memory is read back and merged each time it is written, so it must be a regular file; name a file (a new one, or a regular file to replace)${file === '/dev/null' ? ', or leave out --ledger to run without one' : ''}; nothing was read from the service`,
        });
      }
    } finally {
      socket.close();
      // Release a read left waiting on the pipe (the defect this test guards), so the worker can end.
      // (Opened without waiting: with no reader, the open fails at once instead.)
      await open(join(cwd, 'pipe'), constants.O_WRONLY | constants.O_NONBLOCK)
        .then((handle) => handle.close())
        .catch(() => undefined);
    }
  });

  it('keeps every list when four runs that read different members save at the same moment on a new file', async () => {
    const members = ['ann', 'bob', 'cy', 'dee'];
    const domains = ['recordings', 'deals', 'companies', 'contacts'] as const;
    // Several trials: without one writer at a time, some lose others' lists in most of them.
    for (let trial = 0; trial < 4; trial += 1) {
      const cwd = await folder();
      const runs = await Promise.all(
        members.map((_member, index) =>
          openSweepMemory({ cwd, clock: { now: () => T1 + index } }, '.viewctl/ledger.json'),
        ),
      );
      for (const [index, run] of runs.entries()) {
        const member = members[index] ?? '';
        run?.observe(
          live({ pins: Object.fromEntries(domains.map((domain) => [`${domain}:${member}@x.io`, [view('v1', 'A')]])) }),
        );
      }
      const err = stderr();
      await Promise.all(runs.map((run) => run?.save({ stderr: err.stream })));
      expect(err.text()).toBe('');
      const memory = await memoryFile(join(cwd, '.viewctl/ledger.json'));
      expect(Object.keys(memory.lists)).toHaveLength(16);
      // The lock is gone, and no temporary file stays.
      expect(await readdir(join(cwd, '.viewctl'))).toEqual(['ledger.json']);
    }
  });
});
