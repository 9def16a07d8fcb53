import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { demoWorkspace } from '../../src/emulator/demo/demo-workspace.js';
import { startEmulator } from '../../src/emulator/server.js';
import { ViewctlError } from '../../src/errors.js';
import { exportWorkspace } from '../../src/flows/export-workspace.js';
import { planManifests, type MemoryRun, type PlanEdges } from '../../src/flows/plan-manifests.js';
import { pullManifests } from '../../src/flows/pull-manifests.js';
import type { ServiceConnection } from '../../src/flows/run-edges.js';
import { createServiceClient } from '../../src/service/client.js';
import { scratchDir } from '../support/cli.js';

/**
 * The flows the commands call (src/flows/), called as the CLI calls them: inputs as
 * data, the connection and the files passed in, data back. What each proves here is
 * its order: every check that needs no request comes before the connection is opened,
 * and what it answers is what it wrote.
 */

const FAST = { rate: 1000, burst: 1000, quota: 1_000_000 } as const;
const WORKSPACE = 'kind: Workspace\nworkspaceId: ws_acme\ncreatorEmail: adam.reyes@acme.test\n';
const VIEW = 'kind: RecordingView\nname: Brand new\nfilters: {}\n';
const WARNED =
  'kind: RecordingView\nname: Twice\ncolumns:\n  - {type: Default, columnId: title}\n  - {type: Default, columnId: title}\n';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

async function folder(files: Record<string, string>): Promise<string> {
  const { dir, cleanup } = await scratchDir(files);
  cleanups.push(cleanup);
  return dir;
}

/** refusedBeforeConnecting runs a flow whose connect fails the test, and answers the error code it stopped with. */
async function refusedBeforeConnecting(
  run: (connect: () => Promise<ServiceConnection>) => Promise<unknown>,
): Promise<string> {
  let connected = false;
  const error = await run(async () => {
    connected = true;
    throw new Error('connected');
  }).catch((caught: unknown) => caught);
  expect(connected).toBe(false);
  expect(error).toBeInstanceOf(ViewctlError);
  return (error as ViewctlError).code;
}

/** emulatorConnection serves the demo workspace and answers a connection to it that records its closing. */
async function emulatorConnection(): Promise<{ connect: () => Promise<ServiceConnection>; closed: () => boolean }> {
  const emulator = await startEmulator({ data: demoWorkspace(), port: 0, ...FAST });
  cleanups.push(() => emulator.close());
  let closed = false;
  return {
    connect: async () => ({
      client: createServiceClient({ baseUrl: emulator.url, apiKey: emulator.apiKey, rate: FAST.rate }),
      close: async () => {
        closed = true;
      },
    }),
    closed: () => closed,
  };
}

describe('the plan flow', () => {
  it('refuses invalid manifests, and a plan file that is a manifest, before the connection or the memory is opened', async () => {
    const invalid = await folder({ 'v.yaml': 'kind: RecordingView\nname: 7\nfilters: {}\n' });
    expect(
      await refusedBeforeConnecting((connect) =>
        planManifests({ paths: ['.'], scope: {}, recordTrees: false }, { cwd: invalid, connect }),
      ),
    ).toBe('manifest.invalid');
    const valid = await folder({ 'workspace.yaml': WORKSPACE, 'v.yaml': VIEW });
    let opened = false;
    const edges = (connect: PlanEdges['connect']): PlanEdges => ({
      cwd: valid,
      connect,
      openMemory: async () => {
        opened = true;
        return undefined;
      },
    });
    expect(
      await refusedBeforeConnecting((connect) =>
        planManifests({ paths: ['.'], scope: {}, out: 'v.yaml', recordTrees: true }, edges(connect)),
      ),
    ).toBe('output.in-manifests');
    expect(opened).toBe(false);
  });

  it('answers the plan it wrote to the plan file, tells the memory what it read, hands the warnings over and closes the connection', async () => {
    const dir = await folder({ 'workspace.yaml': WORKSPACE, 'v.yaml': VIEW, 'w.yaml': WARNED });
    const { connect, closed } = await emulatorConnection();
    const warned: string[] = [];
    const observed: string[] = [];
    const memory: MemoryRun = {
      memory: { version: 1, views: {}, pins: {} } as unknown as MemoryRun['memory'],
      checkWorkspace: () => undefined,
      observe: (live) => observed.push(live.workspace.id),
    };
    const outcome = await planManifests(
      { paths: ['.'], scope: {}, out: 'plan.json', recordTrees: true },
      {
        cwd: dir,
        connect,
        onWarnings: (warnings) => warned.push(...warnings.map((warning) => warning.code)),
        openMemory: async () => memory,
      },
    );
    expect(outcome.planFileKept).toBe(true);
    expect(outcome.plan.changes.map((change) => `${change.action} ${change.name}`)).toContain('create Brand new');
    expect(JSON.parse(await readFile(join(dir, 'plan.json'), 'utf8'))).toEqual(
      JSON.parse(JSON.stringify(outcome.plan)),
    );
    expect(warned).toEqual(['view.duplicate-column']);
    expect(observed).toEqual(['ws_acme']);
    expect(closed()).toBe(true);
  });
});

describe('the pull flow', () => {
  it('refuses invalid manifests before the connection is opened', async () => {
    const dir = await folder({ 'v.yaml': 'kind: RecordingView\nname: 7\nfilters: {}\n' });
    expect(
      await refusedBeforeConnecting((connect) => pullManifests({ paths: ['.'], scope: {} }, { cwd: dir, connect })),
    ).toBe('manifest.invalid');
  });
});

describe('the export flow', () => {
  it('refuses its flags, and a merge into a folder without manifests, before the connection is opened', async () => {
    const dir = await folder({});
    const request = { out: '.', reserve: 300, rate: 3 };
    expect(
      await refusedBeforeConnecting((connect) => exportWorkspace({ ...request, budget: 10 }, { cwd: dir, connect })),
    ).toBe('usage.budget-without-all-users');
    expect(
      await refusedBeforeConnecting((connect) => exportWorkspace({ ...request, merge: true }, { cwd: dir, connect })),
    ).toBe('export.merge-no-manifests');
  });

  it('answers what it wrote and the next plan, and closes the connection once the reads are over', async () => {
    const dir = await folder({});
    const { connect, closed } = await emulatorConnection();
    const outcome = await exportWorkspace({ out: 'm', reserve: 300, rate: 3 }, { cwd: dir, connect });
    expect(outcome.merged).toBe(false);
    if (outcome.merged) return;
    expect(outcome.workspace.id).toBe('ws_acme');
    expect(await readFile(join(dir, 'm', outcome.layout.workspaceFile), 'utf8')).toContain('workspaceId: ws_acme');
    expect(outcome.closing.planReads).toBeGreaterThan(0);
    expect(closed()).toBe(true);
  });
});
