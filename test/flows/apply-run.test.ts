import { afterEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/server.js';
import { runApply, type ApplyEdges, type ApplyMemory, type ManifestsLoaded } from '../../src/flows/apply-run.js';
import { desiredDigest } from '../../src/plan/desired-digest.js';
import { emptyMemory, type SweepMemory } from '../../src/state/sweep-memory.js';
import type { Desired } from '../../src/state/types.js';
import {
  desired,
  desiredPins,
  desiredView,
  startTestEmulator,
  testClient,
  testWorkspace,
  TEST_RELIST_DELAYS_MS,
} from '../apply/harness.js';

/**
 * The apply flow the CLI calls (`runApply`), against the emulator with a recording
 * memory and edges: the order of its steps (gate, connect, plan, observe, confirm,
 * write, landed, save) and what it records.
 */

let emulator: RunningEmulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

const manifests = desired(
  [desiredView('recordings', 'Team calls', { filters: { sourceIn: ['GoogleMeet'] } })],
  [desiredPins('recordings', 'mia@acme.test', [{ name: 'Team calls' }])],
);

/** loaded is the manifests as loaded outside git: nothing says which commit they are. */
function loaded(state: Desired): ManifestsLoaded {
  return {
    paths: ['m'],
    cwd: '/nonexistent',
    files: [],
    desired: state,
    digest: desiredDigest(state),
    read: undefined,
  };
}

/** recording is a memory that logs each step the flow asks of it. */
function recording(memory: SweepMemory, log: string[]): ApplyMemory {
  return {
    memory,
    checkWorkspace: () => log.push('memory: workspace'),
    observe: () => log.push('memory: observe'),
    rememberWrites: () => log.push('memory: writes'),
    endHolds: () => undefined,
    advance: () => log.push('memory: advance'),
    save: async () => {
      log.push('memory: save');
    },
  };
}

function edges(log: string[]): ApplyEdges {
  return {
    connect: async () => {
      log.push('connect');
      if (emulator === undefined) throw new Error('no emulator');
      return testClient(emulator);
    },
    confirm: async (shown) => {
      log.push(`confirm ${shown.plan.steps.length} steps`);
    },
    onWriting: () => log.push('writing'),
    relistDelaysMs: TEST_RELIST_DELAYS_MS,
    note: (text) => log.push(`note: ${text}`),
  };
}

describe('runApply', () => {
  it('plans, confirms, writes, and tells the memory what it read and what landed; outside git it records nothing as applied, and says why', async () => {
    emulator = await startTestEmulator(testWorkspace());
    const log: string[] = [];
    const result = await runApply(
      {
        source: { type: 'manifests', manifests: loaded(manifests), targeted: false },
        cwd: '/nonexistent',
        memoryRun: recording(emptyMemory(), log),
        maxDeletes: 0,
        planning: {},
      },
      edges(log),
    );
    expect([result.type, result.code]).toEqual(['carried-out', 0]);
    expect(log).toEqual([
      'connect',
      'memory: workspace',
      'memory: observe',
      'confirm 2 steps',
      'writing',
      'memory: writes',
      "note: the sweep memory's last applied commit was not advanced: the manifests are not in a git repository",
      'memory: save',
    ]);
  });

  it('runs self-heal through its one gate: when a reviewed apply is due, it only sweeps, tells the memory what it read, and writes nothing (exit 2)', async () => {
    emulator = await startTestEmulator(testWorkspace());
    const log: string[] = [];
    const result = await runApply(
      {
        source: { type: 'manifests', manifests: loaded(manifests), targeted: false, repair: { reserve: 0 } },
        cwd: '/nonexistent',
        memoryRun: recording(emptyMemory(), log),
        maxDeletes: 0,
        planning: { scope: { budget: 100, reserve: 0 } },
      },
      edges(log),
    );
    expect(result).toMatchObject({
      type: 'review-due',
      code: 2,
      due: { lead: 'a reviewed apply is due', why: expect.stringContaining('the sweep memory records no apply yet') },
    });
    expect(log).toEqual(['connect', 'memory: workspace', 'memory: observe', 'memory: save']);
    expect(emulator.stats().writes).toBe(0);
  });

  it('refuses self-heal without a memory before connecting (a usage error)', async () => {
    const log: string[] = [];
    const refused = runApply(
      {
        source: { type: 'manifests', manifests: loaded(manifests), targeted: false, repair: { reserve: 0 } },
        cwd: '/nonexistent',
        maxDeletes: 0,
        planning: { scope: { budget: 100, reserve: 0 } },
      },
      edges(log),
    );
    await expect(refused).rejects.toMatchObject({ code: 'usage.budget-without-ledger' });
    expect(log).toEqual([]);
  });
});
