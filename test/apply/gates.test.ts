import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import {
  checkDailyBudget,
  checkExpectedDigest,
  checkMaxDeletes,
  checkPlanIdentity,
  checkPlanRules,
  savedPlanReads,
  savedPlanState,
} from '../../src/apply/gates.js';
import { APPROVAL_QUESTION, askApproval, decideApproval } from '../../src/cli/approval.js';
import { readPlanFile } from '../../src/plan/saved-plan-file.js';
import { computePlan } from '../../src/plan/diff.js';
import { renderJson } from '../../src/render/json.js';
import { pinsKey } from '../../src/state/types.js';
import { automation, mixedScenario, view } from '../plan/fixtures.js';
import { EXIT, InternalError } from '../../src/errors.js';
import { reportError } from '../../src/cli/run.js';
import type { Change } from '../../src/plan/types.js';
import { handPlan, snapshot } from './plan-fixtures.js';
import { viewctlErrorOf } from '../support/errors.js';
import { holdStale } from '../../src/apply/stale-holds.js';

const deleteOf = (id: string): Change => ({
  action: 'delete',
  target: `view:deals:id:${id}`,
  kind: 'DealView',
  name: id,
  domain: 'deals',
  id,
  before: snapshot(id),
  after: null,
  reason: 'prune',
  ownerId: 'u',
  pinnedBy: [],
});

describe('gates', () => {
  it('needs --auto-approve or --plan when stdin is not a terminal', () => {
    const error = viewctlErrorOf(() => decideApproval({ autoApprove: false, fromPlanFile: false, stdinIsTTY: false }));
    expect(error?.code).toBe('apply.needs-approval');
    expect(error?.exitCode).toBe(EXIT.error);
    expect(`${error?.message} ${error?.hint}`).toMatch(/--auto-approve.*--plan/);
    expect(decideApproval({ autoApprove: true, fromPlanFile: false, stdinIsTTY: false })).toBe('given');
    expect(decideApproval({ autoApprove: false, fromPlanFile: true, stdinIsTTY: false })).toBe('given');
    expect(decideApproval({ autoApprove: false, fromPlanFile: false, stdinIsTTY: true })).toBe('ask');
  });

  it('accepts only "yes" at the prompt; end of input and abort are a no', async () => {
    const ask = async (answer: string | null, signal?: AbortSignal): Promise<{ ok: boolean; shown: string }> => {
      const input = new PassThrough();
      const output = new PassThrough();
      const shown: string[] = [];
      output.on('data', (chunk: Buffer) => shown.push(chunk.toString()));
      if (answer === null) input.end();
      else input.write(answer);
      const ok = await askApproval(input, output, signal);
      return { ok, shown: shown.join('') };
    };
    expect(await ask('yes\n')).toEqual({ ok: true, shown: APPROVAL_QUESTION });
    expect((await ask('y\n')).ok).toBe(false);
    expect((await ask('YES please\n')).ok).toBe(false);
    expect((await ask(null)).ok).toBe(false);
    const controller = new AbortController();
    const pending = ask('', controller.signal);
    controller.abort();
    expect((await pending).ok).toBe(false);
  });

  it('refuses more deletes than --max-deletes with exit 3', () => {
    const plan = handPlan([deleteOf('dv_1'), deleteOf('dv_2')]);
    expect(viewctlErrorOf(() => checkMaxDeletes(plan, 2))).toBeUndefined();
    const error = viewctlErrorOf(() => checkMaxDeletes(plan, 1));
    expect([error?.code, error?.exitCode]).toEqual(['apply.max-deletes', EXIT.refused]);
    expect(viewctlErrorOf(() => checkMaxDeletes(plan, 0))?.message).toContain('DealView "dv_1", DealView "dv_2"');
  });

  it('wraps the names of a refused plan instead of one line per list', () => {
    const plan = handPlan(Array.from({ length: 300 }, (_, index) => deleteOf(`dv_${index}`)));
    const lines = viewctlErrorOf(() => checkMaxDeletes(plan, 5))?.message.split('\n') ?? [];
    expect(lines[0]).toBe('the plan deletes 300 views, more than --max-deletes 5 allows; nothing was written:');
    expect(lines.length).toBeGreaterThan(30);
    expect(Math.max(...lines.map((line) => line.length))).toBeLessThanOrEqual(100);
    expect(lines.at(-1)).toContain('DealView "dv_299"');
  });

  it('compares --expect-digest case-insensitively and refuses another digest with exit 3', () => {
    const plan = { ...handPlan([]), digest: 'ab'.repeat(32) };
    expect(viewctlErrorOf(() => checkExpectedDigest(plan, 'AB'.repeat(32)))).toBeUndefined();
    expect(viewctlErrorOf(() => checkExpectedDigest(plan, undefined))).toBeUndefined();
    expect(viewctlErrorOf(() => checkExpectedDigest(plan, 'cd'.repeat(32)))?.exitCode).toBe(EXIT.refused);
  });

  it('refuses a plan whose stored steps need more requests than are left today, whatever requests.applyNeeds says', () => {
    // One DELETE and the deals listing that verifies it: 2 requests.
    const plan = handPlan([deleteOf('dv_1')]);
    plan.requests.applyNeeds = 0;
    expect(viewctlErrorOf(() => checkDailyBudget(plan, null))).toBeUndefined();
    expect(viewctlErrorOf(() => checkDailyBudget(plan, 2))).toBeUndefined();
    expect(viewctlErrorOf(() => checkDailyBudget(plan, 1))?.code).toBe('apply.daily-budget');
    // The flag that avoids the refusal: a part of the change now, the rest later.
    expect(viewctlErrorOf(() => checkDailyBudget(plan, 1))?.hint).toContain('--target SELECTOR');
  });

  it('re-reads only the targets of a saved plan, with the listing a pinned list resolved names against', () => {
    const pin: Change = {
      action: 'pin',
      target: 'pins:contacts:mia@acme.test',
      kind: 'PinnedViews',
      name: 'mia',
      domain: 'contacts',
      userEmail: 'mia@acme.test',
      before: [],
      after: [{ viewId: 'ctv_1', name: 'A', visibility: 'Public', isDefault: false }],
    };
    const drift: Change = {
      action: 'drift',
      target: 'automations',
      kind: 'AdminAutomation',
      name: 'x',
      before: null,
      after: {},
      differences: [],
    };
    const { reads, users } = savedPlanReads(handPlan([deleteOf('dv_1'), pin, drift]));
    expect(reads.map((read) => [read.request.route, read.into, read.entry])).toEqual([
      ['/v1/deals/views', 'views', 'deals'],
      ['/v1/contacts/views', 'views', 'contacts'],
      ['/v1/contacts/views/pinned', 'pins', 'contacts:mia@acme.test'],
    ]);
    expect(users).toBe(false);
    const create: Change = {
      action: 'create',
      target: 'view:deals:name:Team',
      kind: 'DealView',
      name: 'Team',
      domain: 'deals',
      before: null,
      after: snapshot('Team'),
    };
    // The creator of a view a saved plan creates is re-checked against the members.
    expect(savedPlanReads(handPlan([create])).users).toBe(true);
  });
});

describe('gates of a saved plan', () => {
  /** The mixed scenario's plan (a create, an update of rv_1, a delete of dv_9, mia's recordings tabs, automation drift) and its live state. */
  const mixed = () => {
    const { desired, live } = mixedScenario();
    return { plan: computePlan(desired, live).plan, live };
  };

  it('asks nothing when already interrupted', async () => {
    const output = new PassThrough();
    const shown: string[] = [];
    output.on('data', (chunk: Buffer) => shown.push(chunk.toString()));
    const controller = new AbortController();
    controller.abort();
    expect(await askApproval(new PassThrough(), output, controller.signal)).toBe(false);
    expect(shown).toEqual([]);
  });

  it('finds a plan stale exactly at the targets whose live state changed, never at drift', () => {
    const { plan, live } = mixed();
    expect(savedPlanState(plan, live).stale).toEqual([]);
    const changed = structuredClone(live);
    changed.automations = [automation('aa_1', 'Record external meetings', { color: 'green' })];
    expect(savedPlanState(plan, changed).stale).toEqual([]);
    changed.views.recordings = (changed.views.recordings ?? []).map((entry) =>
      entry.viewId === 'rv_1' ? { ...entry, icon: 'star' } : entry,
    );
    changed.pins[pinsKey('recordings', 'mia@acme.com')] = [];
    expect(savedPlanState(plan, changed).stale.sort()).toEqual([
      'pins:recordings:mia@acme.com',
      'view:recordings:id:rv_1',
    ]);
  });

  it('holds the targets of a stale plan, not the plan, naming each changed target', () => {
    const { plan, live } = mixed();
    expect(holdStale(plan, live).held.size).toBe(0);
    const changed = structuredClone(live);
    changed.views.recordings = [...(changed.views.recordings ?? []), view('rv_new', 'Team calls')];
    changed.pins[pinsKey('recordings', 'mia@acme.com')] = [];
    const held = [...holdStale(plan, changed).held.values()];
    expect(held.map((entry) => [entry.code, entry.change])).toEqual([
      ['apply.stale-target', 'create RecordingView "Team calls"'],
      ['apply.stale-target', 'pinned recordings tabs of mia@acme.com'],
    ]);
  });

  it('refuses a plan file whose changes disagree with their targets, and one that breaks a rule live, with exit 3 and nothing written', () => {
    const { plan, live } = mixed();
    const moved = structuredClone(plan);
    const update = moved.changes[1];
    if (update?.action === 'update') update.id = 'rv_other';
    expect(viewctlErrorOf(() => checkPlanIdentity(moved))).toMatchObject({
      code: 'plan.unsafe',
      exitCode: EXIT.refused,
    });
    const taken = structuredClone(live);
    taken.views.recordings = [...(taken.views.recordings ?? []), view('rv_new', 'Team calls')];
    expect(viewctlErrorOf(() => checkPlanRules(plan, taken))).toMatchObject({
      code: 'plan.unsafe',
      exitCode: EXIT.refused,
    });
    expect(viewctlErrorOf(() => checkPlanRules(plan, live))).toBeUndefined();
  });

  it('lists at most 20 problems of an unsafe plan, then how many more', () => {
    const { plan } = mixed();
    const many = structuredClone(plan);
    const create = many.changes[0];
    if (create?.action !== 'create') throw new Error('changes[0] is no create');
    for (let index = 0; index < 25; index += 1) many.changes.push(structuredClone(create));
    const lines = viewctlErrorOf(() => checkPlanIdentity(many))?.message.split('\n') ?? [];
    expect(lines.slice(1)).toHaveLength(21);
    expect(lines.at(-1)).toBe('  and 5 more');
  });

  it('names the file of a plan edited after it was written, refused with exit 3; a file that is no plan is an error, exit 1', () => {
    const { plan } = mixed();
    const edited = renderJson(plan).replace('"MsTeams"', '"Loom"');
    const refused = viewctlErrorOf(() => readPlanFile(edited, 'plan.json'));
    expect(refused).toMatchObject({ code: 'plan.digest-mismatch', exitCode: EXIT.refused });
    expect(refused?.message).toMatch(/^plan\.json does not match its own digest/);
    expect(viewctlErrorOf(() => readPlanFile('{', 'plan.json'))).toMatchObject({
      code: 'plan.invalid',
      exitCode: EXIT.error,
    });
    expect(readPlanFile(renderJson(plan), 'plan.json')).toEqual(plan);
  });

  it("reports a plan schema missing from the installed package as viewctl's bug with its cause, never as the user's file", () => {
    const { plan } = mixed();
    const missing = (): string => {
      throw Object.assign(new Error("ENOENT: no such file or directory, open '/pkg/schemas/plan/plan.schema.json'"), {
        code: 'ENOENT',
      });
    };
    let thrown: unknown;
    try {
      readPlanFile(renderJson(plan), 'plan.json', missing);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(InternalError);
    expect(thrown).toMatchObject({
      message: 'the plan schema (schemas/plan/plan.schema.json in the installed package) cannot be loaded: ENOENT',
    });
    expect((thrown as InternalError).cause).toMatchObject({ code: 'ENOENT' });
    // At the top-level catch: a bug, exit 1, with the cause.
    const stderr = new PassThrough();
    expect(reportError(thrown, { stderr }, { exitCode: 0 })).toBe(EXIT.error);
    const text = String(stderr.read());
    expect(text).toContain(
      'internal error: the plan schema (schemas/plan/plan.schema.json in the installed package) cannot be loaded: ENOENT',
    );
    expect(text).toContain('This is a bug in viewctl, not in your manifests.');
    expect(text).toContain(
      "caused by: Error: ENOENT: no such file or directory, open '/pkg/schemas/plan/plan.schema.json'",
    );
    expect(text).not.toContain('plan.invalid');
    // An unreadable or corrupt schema is the same bug.
    expect(() => readPlanFile(renderJson(plan), 'plan.json', () => '{ not json')).toThrow(InternalError);
    // The user's malformed file is still theirs: plan.invalid, exit 1.
    expect(viewctlErrorOf(() => readPlanFile('{', 'plan.json', missing))).toMatchObject({
      code: 'plan.invalid',
      exitCode: EXIT.error,
    });
    expect(viewctlErrorOf(() => readPlanFile('{"formatVersion": 1}', 'plan.json'))).toMatchObject({
      code: 'plan.invalid',
      exitCode: EXIT.error,
    });
  });
});
