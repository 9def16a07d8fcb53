import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { openLedger } from '../../src/cli/ledger-option.js';
import type { ApiView } from '../../src/domain/api-types.js';
import type { LiveSeen } from '../../src/state/ledger-observe.js';
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

describe('openLedger and LedgerRun.save', () => {
  it('writes nothing without --ledger, and nothing when the run read nothing', async () => {
    const cwd = await folder();
    expect(await openLedger({ cwd }, undefined)).toBeUndefined();
    const ledger = await openLedger({ cwd, clock: { now: () => T1 } }, 'memory/ledger.json');
    await ledger?.save({ stderr: stderr().stream });
    await expect(readFile(join(cwd, 'memory/ledger.json'), 'utf8')).rejects.toThrow('ENOENT');
  });

  it('merges with what the file holds at write time: two overlapping runs lose nothing', async () => {
    const cwd = await folder();
    const a = await openLedger({ cwd, clock: { now: () => T1 } }, 'ledger.json');
    const b = await openLedger({ cwd, clock: { now: () => T2 } }, 'ledger.json');
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
    const skewed = await openLedger({ cwd, clock: { now: () => T2 } }, 'ledger.json');
    skewed?.advance(appliedAt('b'.repeat(40)), []);
    await skewed?.save({ stderr: stderr().stream });
    // The next apply runs on a runner whose clock is behind, or at the same instant: it is still the newer apply.
    for (const now of [T1, T2]) {
      const next = await openLedger({ cwd, clock: { now: () => now } }, 'ledger.json');
      const commit = (now === T1 ? 'c' : 'd').repeat(40);
      next?.advance(appliedAt(commit), []);
      await next?.save({ stderr: stderr().stream });
      const memory = await memoryFile(join(cwd, 'ledger.json'));
      expect(memory.lastApplied).toEqual({ ...appliedAt(commit), at: new Date(now).toISOString() });
    }
  });

  it('keeps a view deleted by the apply forgotten, even though the file still remembers it at write time', async () => {
    const cwd = await folder();
    const first = await openLedger({ cwd, clock: { now: () => T1 } }, 'ledger.json');
    first?.observe(live({ views: { deals: [view('v9', 'Pruned'), view('v1', 'Kept')] } }));
    await first?.save({ stderr: stderr().stream });
    const apply = await openLedger({ cwd, clock: { now: () => T2 } }, 'ledger.json');
    apply?.landed({ lists: {}, seen: [], deleted: [{ domain: 'deals', id: 'v9' }] });
    await apply?.save({ stderr: stderr().stream });
    const memory = await memoryFile(join(cwd, 'ledger.json'));
    expect(Object.keys(memory.views)).toEqual(['view:deals:id:v1']);
  });

  it("never writes over a file that stopped being this workspace's memory during the run, and says so on stderr", async () => {
    const cwd = await folder();
    const ledger = await openLedger({ cwd, clock: { now: () => T1 } }, 'ledger.json');
    ledger?.observe(live({}));
    for (const text of [
      '# a manifest someone saved here\n',
      JSON.stringify({ formatVersion: 1, workspaceId: 'ws_other', lists: {}, views: {}, members: {} }),
    ]) {
      await writeFile(join(cwd, 'ledger.json'), text);
      const err = stderr();
      await ledger?.save({ stderr: err.stream });
      expect(await readFile(join(cwd, 'ledger.json'), 'utf8')).toBe(text);
      expect(err.text()).toMatch(/warning: the sweep memory was not written \(ledger\.(invalid|other-workspace): /);
    }
  });

  it('refuses a folder as the file, before any request', async () => {
    const cwd = await folder();
    await mkdir(join(cwd, 'dir'));
    await expect(openLedger({ cwd }, 'dir')).rejects.toMatchObject({ code: 'output.write-failed' });
  });

  it('refuses a file it cannot read (ledger.unreadable), before any request', async () => {
    const cwd = await folder();
    await writeFile(join(cwd, 'plain-file'), 'x');
    await expect(openLedger({ cwd }, 'plain-file/ledger.json')).rejects.toMatchObject({
      code: 'ledger.unreadable',
      message: 'cannot read --ledger plain-file/ledger.json: ENOTDIR',
    });
  });
});
