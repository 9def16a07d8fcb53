import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/server.js';
import jsonpatch from 'fast-json-patch';
import { normalizeView } from '../../src/kinds/normalize.js';
import { liveHashesFor, planDigest } from '../../src/plan/hash.js';
import { planSteps } from '../../src/plan/operations.js';
import { viewTarget } from '../../src/domain/targets.js';
import type { Change, JsonPatchOperation, Plan } from '../../src/plan/types.js';
import type { Live } from '../../src/state/types.js';
import { renderJson } from '../../src/render/json.js';
import type { ServiceClient } from '../../src/service/types.js';
import { runApply, tempDir } from './cli-harness.js';
import {
  SAMPLE,
  desired,
  desiredPins,
  desiredView,
  planFor,
  startTestEmulator,
  testClient,
  testWorkspace,
} from './harness.js';

const wanted = desired(
  [
    desiredView('recordings', 'Customer calls', { filters: { sourceIn: ['Call', 'MsTeams', 'Zoom'] } }),
    desiredView('recordings', 'Team calls', SAMPLE),
    desiredView('deals', 'Pipeline', {}),
  ],
  [
    desiredPins('recordings', 'mia@acme.test', [
      { name: 'Team calls' },
      { name: 'Customer calls' },
      { viewId: 'rv_p' },
    ]),
  ],
  true,
);

let emulator: RunningEmulator;
let client: ServiceClient;
let scratch: Awaited<ReturnType<typeof tempDir>>;

beforeEach(async () => {
  emulator = await startTestEmulator(testWorkspace());
  client = testClient(emulator);
  scratch = await tempDir();
});
afterEach(async () => {
  await emulator.close();
  await scratch.remove();
});

/**
 * savePlan plans `wanted` now and writes the plan file, as `plan --out` does. An edit
 * is followed by what a forger would do: steps, live hashes and digest recomputed.
 */
async function savePlan(
  edit?: (plan: Plan, live: Live) => void,
  redigest = true,
): Promise<{ plan: Plan; file: string }> {
  const { plan, live } = await planFor(wanted, client);
  if (edit !== undefined) {
    edit(plan, live);
    if (redigest) {
      plan.steps = planSteps(plan);
      plan.liveHashes = liveHashesFor(plan, live);
      plan.digest = planDigest(plan);
    }
  }
  const file = await scratch.write('plan.json', renderJson(plan));
  emulator.resetStats();
  return { plan, file };
}

describe('apply --plan FILE', () => {
  it('carries out a saved plan that is still current, and reports it', async () => {
    const { plan, file } = await savePlan();
    expect(plan.summary).toMatchObject({ create: 1, update: 1, pin: 1, delete: 2 });
    const run = await runApply(['--plan', file, '--expect-digest', plan.digest.toUpperCase()], emulator, {
      cwd: scratch.dir,
    });
    expect(run.stderr).toBe('');
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toMatch(
      /Applied: 1 created, 1 updated, 1 pin list, 2 deleted \(\d+ requests in \d+\.\d s\)\.\n$/,
    );
    expect(emulator.stats().writes).toBe(5);
    // The header counts this run's re-reads (every request before the first write), not the saved plan's reads.
    const reads = Number(/read (\d+) requests/.exec(run.stdout)?.[1]);
    // Everything else the run sent: the 5 writes and one verification list per touched domain (recordings, deals).
    expect(reads).toBe(emulator.stats().requests - 5 - 2);
  });

  it('shows the requests this run read, not those the saved plan says it used', async () => {
    // The digest covers the content, not the request figures, so the file still applies.
    const { file } = await savePlan((plan) => {
      plan.requests.used = 34;
    }, false);
    const run = await runApply(['--plan', file], emulator, { cwd: scratch.dir });
    expect(run.exitCode).toBe(0);
    expect(run.stdout).not.toContain('read 34 requests');
    expect(Number(/read (\d+) requests/.exec(run.stdout)?.[1])).toBe(emulator.stats().requests - 5 - 2);
    expect((await planFor(wanted, client)).plan.changes).toEqual([]);
  });

  it('prints one JSON report with --format json', async () => {
    const { file } = await savePlan();
    const run = await runApply(['--plan', file, '--format', 'json'], emulator, { cwd: scratch.dir });
    expect(run.exitCode).toBe(0);
    const report = JSON.parse(run.stdout) as {
      status: string;
      counts: unknown;
      failed: unknown[];
      notAttempted: unknown[];
    };
    expect(report).toMatchObject({
      status: 'applied',
      counts: { created: 1, updated: 1, pinned: 1, deleted: 2 },
      failed: [],
      notAttempted: [],
    });
  });

  it('holds the stale targets, naming what changed, and carries out the rest (exit 0)', async () => {
    const { file } = await savePlan();
    await client.request({
      method: 'PATCH',
      route: '/v1/recordings/views/{viewId}',
      params: { viewId: 'rv_1' },
      body: { icon: 'fire' },
    });
    await client.request({
      method: 'PUT',
      route: '/v1/recordings/views/pinned',
      query: { userEmail: 'mia@acme.test' },
      body: { viewIds: ['rv_1'] },
    });
    emulator.resetStats();
    const run = await runApply(['--plan', file], emulator, { cwd: scratch.dir });
    expect(run.exitCode, run.stderr).toBe(0);
    // The plan shown before the writes says what is held, and the report names each with why.
    expect(run.stdout).toContain('Held: 2 targets left out of this plan');
    expect(run.stdout).toContain('Applied: 1 created, 0 updated, 0 pin lists, 2 deleted');
    expect(run.stdout).toContain(
      'Held, not written: 2 targets changed since the plan was reviewed (the rest of the plan was carried out, as reviewed):',
    );
    expect(run.stdout).toContain('update RecordingView "Customer calls" (rv_1)  [apply.stale-target]');
    expect(run.stdout).toContain('its icon changed from what the plan expected');
    expect(run.stdout).toContain(
      `the tabs are now "Customer calls"; the plan expected "Mia's private", "Customer calls"`,
    );
    expect(run.stdout).toContain('run `viewctl plan <manifests> --out plan.json`');
    // The create and the two deletes were written; nothing of the held view or list.
    expect(emulator.stats().writes).toBe(3);
    const pinned = await client.request<{ viewId: string }[]>({
      method: 'GET',
      route: '/v1/recordings/views/pinned',
      query: { userEmail: 'mia@acme.test' },
    });
    expect(pinned.map((view) => view.viewId)).toEqual(['rv_1']);
  });

  it('refuses a plan edited after it was written (digest kept), and writes nothing', async () => {
    const { file } = await savePlan((plan) => {
      const create = plan.changes.find((change) => change.action === 'create');
      if (create?.action === 'create') create.after.name = 'Edited by hand';
    }, false);
    const run = await runApply(['--plan', file], emulator, { cwd: scratch.dir });
    expect(run.exitCode).toBe(3);
    expect(run.errorCode).toBe('plan.digest-mismatch');
    expect(emulator.stats().requests).toBe(0);
  });

  it('refuses a plan whose digest is not the expected one, before any request', async () => {
    const { file } = await savePlan();
    const run = await runApply(['--plan', file, '--expect-digest', 'ab'.repeat(32)], emulator, { cwd: scratch.dir });
    expect(run.exitCode).toBe(3);
    expect(run.errorCode).toBe('apply.digest-unexpected');
    expect(emulator.stats().requests).toBe(0);
  });

  it('refuses more deletes than --max-deletes allows, and writes nothing', async () => {
    const { file } = await savePlan();
    const run = await runApply(['--plan', file, '--max-deletes', '1'], emulator, { cwd: scratch.dir });
    expect(run.exitCode).toBe(3);
    expect(run.errorCode).toBe('apply.max-deletes');
    expect(run.stderr).toContain('--max-deletes 2');
    expect(emulator.stats().writes).toBe(0);
  });

  it('refuses a plan for another workspace (exit 1)', async () => {
    const other = await savePlan((plan) => {
      plan.workspace = { id: 'ws_other', name: 'Other' };
    });
    const wrongWorkspace = await runApply(['--plan', other.file], emulator, { cwd: scratch.dir });
    expect([wrongWorkspace.exitCode, wrongWorkspace.errorCode]).toEqual([1, 'workspace.mismatch']);
    expect(emulator.stats().requests).toBe(1);
  });

  it('refuses, before its first re-read, a plan whose re-reads and stored steps need more requests than are left today, whatever requests.applyNeeds says (exit 1)', async () => {
    const { plan, file } = await savePlan((edited) => {
      // Left out of the digest, so anyone may change it: the gate counts the steps.
      edited.requests.applyNeeds = 0;
    });
    // --max-deletes 0 stops after the re-reads: their count sizes the second workspace's quota.
    expect((await runApply(['--plan', file, '--max-deletes', '0'], emulator, { cwd: scratch.dir })).errorCode).toBe(
      'apply.max-deletes',
    );
    const reads = emulator.stats().requests;
    const needs =
      plan.steps.length +
      new Set(plan.steps.filter((step) => step.method !== 'PUT').map((step) => step.route.split('/')[2])).size;
    const short = await startTestEmulator(testWorkspace(), { quota: reads + needs - 1 });
    try {
      const overBudget = await runApply(['--plan', file], short, { cwd: scratch.dir });
      expect([overBudget.exitCode, overBudget.errorCode]).toEqual([1, 'apply.daily-budget']);
      // The workspace's answer is the one request sent: the re-reads would have spent the day's quota for nothing.
      expect(overBudget.stderr).toContain(
        `applying this plan file needs ${reads - 1 + needs} requests (${reads - 1} re-reads of its targets, then ${needs} to write and verify), but the service says only ${reads + needs - 2} are left today`,
      );
      expect(overBudget.stderr).toContain(
        'hint: wait until 1 more request free up (each frees 24 h after it was made)',
      );
      expect(short.stats().requests).toBe(1);
      expect(short.stats().writes).toBe(0);
    } finally {
      await short.close();
    }
  });

  it('refuses a plan whose stored steps are not what its changes imply, before any request (exit 1)', async () => {
    const { plan } = await savePlan();
    // A delete step pointed at another view than the change's stale-checked target, digest recomputed.
    const step = plan.steps.find((candidate) => candidate.method === 'DELETE');
    if (step !== undefined) step.params = { viewId: 'rv_1' };
    plan.digest = planDigest(plan);
    const file = await scratch.write('plan.json', renderJson(plan));
    const index = step?.change;
    const run = await runApply(['--plan', file], emulator, { cwd: scratch.dir });
    expect([run.exitCode, run.errorCode]).toEqual([1, 'plan.invalid']);
    expect(run.stderr).toContain(`changes[${String(index)}]: the stored steps are not the requests the change implies`);
    expect(emulator.stats().requests).toBe(0);
  });

  it('refuses paths with --plan, and a file that is not a plan', async () => {
    const { file } = await savePlan();
    const withPaths = await runApply(['--plan', file, 'views/'], emulator, { cwd: scratch.dir });
    expect([withPaths.exitCode, withPaths.errorCode]).toEqual([1, 'usage.plan-with-paths']);
    const notAPlan = await scratch.write('notes.json', '{"hello": 1}');
    const invalid = await runApply(['--plan', notAPlan], emulator, { cwd: scratch.dir });
    expect(invalid.exitCode).toBe(1);
    const missing = await runApply(['--plan', 'nowhere.json'], emulator, { cwd: scratch.dir });
    expect([missing.exitCode, missing.errorCode]).toEqual([1, 'apply.plan-unreadable']);
    expect(emulator.stats().requests).toBe(0);
  });

  it('exits 4 and lists landed, failed and not attempted when a write is refused part-way', async () => {
    const { file } = await savePlan((plan) => {
      const update = plan.changes.find((change) => change.action === 'update');
      if (update?.action !== 'update') return;
      update.after.sort = [{ field: 'NoSuchField', order: 'Asc' }];
      update.patch = jsonpatch.compare(update.before, update.after) as JsonPatchOperation[];
    });
    const run = await runApply(['--plan', file], emulator, { cwd: scratch.dir });
    expect(run.exitCode).toBe(4);
    expect(run.stdout).toContain('Apply failed part-way: 1 created, 0 updated, 0 pin lists, 0 deleted');
    expect(run.stdout).toMatch(/Landed:\n {2}create\s+RecordingView {2}"Team calls" {2}rv_\d+\n/);
    expect(run.stdout).toMatch(
      /Failed:\n {2}update\s+RecordingView {2}"Customer calls" {2}rv_1 {2}400 validation_error: .*\(path: sort/,
    );
    expect(run.stdout).toMatch(/Not attempted:\n {2}pin\s+PinnedViews {2}"mia@acme.test recordings" {2}-\n {2}delete/);
    expect(run.stdout).toContain(
      'The service refused a write: fix what the error says (in the manifests or the workspace), then run viewctl plan again and apply the new plan.',
    );
    expect(emulator.stats().writes).toBe(1);
  });

  it('carries out a plan that unpins a private tab when the document said unpinPrivate', async () => {
    const unpin = desired(
      wanted.views,
      [desiredPins('recordings', 'mia@acme.test', [{ name: 'Customer calls' }], true)],
      true,
    );
    const { plan } = await planFor(unpin, client);
    const pin = plan.changes.find((change) => change.action === 'pin');
    expect(pin).toMatchObject({ unpinPrivate: true, after: [{ viewId: 'rv_1' }] });
    const file = await scratch.write('plan.json', renderJson(plan));
    expect((await runApply(['--plan', file], emulator, { cwd: scratch.dir })).exitCode).toBe(0);
  });
});

/** only returns the first change of an action, typed. */
function only<A extends Change['action']>(plan: Plan, action: A): Extract<Change, { action: A }> {
  const change = plan.changes.find((candidate) => candidate.action === action);
  if (change === undefined) throw new Error(`the plan has no ${action}`);
  return change as Extract<Change, { action: A }>;
}

function retarget(change: Extract<Change, { action: 'update' | 'delete' }>, id: string, live: Live): void {
  const view = live.views.recordings?.find((candidate) => candidate.viewId === id);
  change.id = id;
  change.target = viewTarget('recordings', id);
  change.domain = 'recordings';
  change.kind = 'RecordingView';
  if (view !== undefined) change.before = normalizeView('recordings', view);
  change.name = change.before.name;
  if (change.action === 'update') {
    change.after = { ...change.before, name: 'Renamed' };
    change.name = 'Renamed';
    change.patch = jsonpatch.compare(change.before, change.after) as JsonPatchOperation[];
  }
}

describe('apply --plan refuses forged plans whose digest was recomputed', () => {
  const forgeries: [string, (plan: Plan, live: Live) => void, RegExp, boolean][] = [
    [
      'an update whose id names another view than its target',
      (plan) => {
        only(plan, 'update').id = 'rv_2';
      },
      /changes\[\d\] update RecordingView "Customer calls": its target is view:recordings:id:rv_1, but what it changes is view:recordings:id:rv_2/,
      true,
    ],
    [
      'a pin change for another user than its target',
      (plan) => {
        only(plan, 'pin').userEmail = 'max@acme.test';
      },
      /its target is pins:recordings:mia@acme.test, but what it changes is pins:recordings:max@acme.test/,
      true,
    ],
    [
      'a pin change that drops the private tab a member pins today',
      (plan) => {
        const pin = only(plan, 'pin');
        pin.after = pin.after.filter((tab) => tab.viewId !== 'rv_p');
      },
      /drops the private view rv_p the member pins today, which only `unpinPrivate: true` allows/,
      false,
    ],
    [
      'an update of a default view',
      (plan, live) => {
        const update = only(plan, 'update');
        const view = live.views.recordings?.find((candidate) => candidate.viewId === 'rv_default_all');
        if (view !== undefined) update.before = normalizeView('recordings', view);
        retarget(update, 'rv_default_all', live);
      },
      /rv_default_all is not a public view the key can see|rv_default_all is a built-in default view/,
      false,
    ],
    [
      'a delete of a private view',
      (plan, live) => {
        retarget(only(plan, 'delete'), 'rv_p', live);
      },
      /rv_p is not a public view the key can see \(private, deleted or unknown\)/,
      false,
    ],
    [
      'a creator who is not a member',
      (plan) => {
        plan.creatorEmail = 'nobody@acme.test';
      },
      /creatorEmail nobody@acme.test is not an active member/,
      false,
    ],
    [
      'a PATCH body that is not what the live before and after imply',
      (plan) => {
        const update = only(plan, 'update');
        update.before.icon = 'forged';
        update.patch = jsonpatch.compare(update.before, update.after) as JsonPatchOperation[];
      },
      /its before is not the live state of rv_1/,
      false,
    ],
  ];

  it.each(forgeries)('%s', async (_what, forge, message, beforeAnyRequest) => {
    const { file } = await savePlan(forge);
    const run = await runApply(['--plan', file], emulator, { cwd: scratch.dir });
    expect([run.exitCode, run.errorCode]).toEqual([3, 'plan.unsafe']);
    expect(run.stderr).toMatch(message);
    expect(emulator.stats().writes).toBe(0);
    if (beforeAnyRequest) expect(emulator.stats().requests).toBe(0);
  });
});
