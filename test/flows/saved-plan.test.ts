import { describe, expect, it } from 'vitest';
import type { ReadyToApply } from '../../src/flows/apply-ready.js';
import { prepareSavedPlan } from '../../src/flows/saved-plan.js';
import { computePlan } from '../../src/plan/diff.js';
import { planDigest } from '../../src/plan/hash.js';
import type { Change, Plan } from '../../src/plan/types.js';
import type { ApiView } from '../../src/domain/api-types.js';
import { pinsKey } from '../../src/state/types.js';
import { renderJson } from '../../src/render/json.js';
import { createServiceClient } from '../../src/service/client.js';
import type { ServiceClient } from '../../src/service/types.js';
import type { Live } from '../../src/state/types.js';
import { mixedScenario, view } from '../plan/fixtures.js';
import { liveClient } from '../plan/live-client.js';

/**
 * The saved-plan flow the CLI calls (`apply --plan FILE`), with a fake service: which
 * gate refuses a plan that fails several, and what it read by then. The gates run
 * file → digest → `--expect-digest` → identity → (connect) → workspace guard → re-read
 * and what is left today for the re-reads and writes → re-read → stale → rules → nothing to apply →
 * `--max-deletes` → daily budget for the writes left.
 */

/** The mixed scenario's plan (a create, an update of rv_1, a delete of dv_9, mia's recordings tabs, drift) and the live state it was computed from. */
function scenario(): { plan: Plan; live: Live } {
  const { desired, live } = mixedScenario();
  return { plan: computePlan(desired, live).plan, live };
}

/** forged is the plan edited by `edit` with its digest recomputed, as anyone can (the digest is no signature). */
function forged(plan: Plan, edit: (copy: Plan) => void): string {
  const copy = structuredClone(plan);
  edit(copy);
  return renderJson({ ...copy, digest: planDigest(copy) });
}

/** misnamed shows the plan's update under another name than the view it updates: a change whose fields disagree. */
function misnamed(copy: Plan): void {
  const update = copy.changes.find((change) => change.action === 'update');
  if (update !== undefined) update.name = 'Elsewhere';
}

/** Prepared is how the flow ended: ready to apply, or refused with an error; what it connected to and read either way. */
interface Prepared {
  ready?: ReadyToApply;
  error?: { code?: string };
  log: string[];
  routes: string[];
}

/** run prepares `text` against `live`, recording whether the flow connected and every route it asked for. */
async function run(
  text: string,
  live: Live,
  options: { maxDeletes?: number; expectDigest?: string; dailyRemaining?: number; failing?: Map<string, Error> } = {},
): Promise<Prepared> {
  const service = liveClient(live, options.dailyRemaining ?? null, options.failing);
  const log: string[] = [];
  const connect = async (): Promise<ServiceClient> => {
    log.push('connect');
    return service.client;
  };
  const outcome = await prepareSavedPlan({ name: 'plan.json', text }, connect, {
    maxDeletes: options.maxDeletes ?? 10,
    ...(options.expectDigest === undefined ? {} : { expectDigest: options.expectDigest }),
  }).then(
    (ready): Pick<Prepared, 'ready' | 'error'> => ({ ready }),
    (error: unknown) => ({ error: error as { code?: string } }),
  );
  return { ...outcome, log, routes: service.routes };
}

/** stale is `live` with the updated view rv_1 changed in the app since the plan. */
function stale(live: Live): Live {
  const changed = structuredClone(live);
  changed.views.recordings = (changed.views.recordings ?? []).map((candidate) =>
    candidate.viewId === 'rv_1' ? view('rv_1', 'Renamed in the app') : candidate,
  );
  return changed;
}

/**
 * unavailable is the error the real client ends with after the service answered every
 * attempt of `route` with a 503: what a saved plan's re-read meets when the service is down.
 */
async function unavailable(route: string): Promise<Error> {
  const client = createServiceClient({
    baseUrl: 'http://service.test',
    apiKey: 'k'.repeat(32),
    fetch: async () =>
      new Response('{"error":{"type":"unavailable","message":"try again later"}}', {
        status: 503,
        headers: { 'content-type': 'application/json' },
      }),
    backoff: { baseMs: 0, capMs: 0 },
    rate: 1000,
    maxAttempts: 3,
  });
  return client.request({ method: 'GET', route }).then(
    () => {
      throw new Error('the 503s were answered');
    },
    (error: unknown) => error as Error,
  );
}

describe('prepareSavedPlan', () => {
  it.each(['/v1/recordings/views', '/v1/deals/views', '/v1/recordings/views/pinned', '/v1/users'])(
    "reports a re-read of %s that meets 503s as the service's failure, never as a stale plan",
    async (route) => {
      const { plan, live } = scenario();
      const failure = await unavailable(route);
      expect(failure).toMatchObject({ code: 'service.unavailable' });
      const { ready, error } = await run(renderJson(plan), live, { failing: new Map([[route, failure]]) });
      expect(ready).toBeUndefined();
      // Without the failed read, the targets it reads would look changed since the plan, and be held.
      expect(error).toBe(failure);
    },
  );

  it("passes a fresh plan: connects once, reads the workspace first, then only the plan's targets, and answers its operations", async () => {
    const { plan, live } = scenario();
    const { ready, log, routes } = await run(renderJson(plan), live);
    expect(ready?.operations.map((operation) => operation.action)).toEqual(['create', 'update', 'pin', 'delete']);
    expect(log).toEqual(['connect']);
    expect(routes[0]).toBe('/v1/workspaces/mine');
    expect([...routes].sort()).toEqual([
      '/v1/deals/views',
      '/v1/recordings/views',
      '/v1/recordings/views/pinned',
      '/v1/users',
      '/v1/workspaces/mine',
    ]);
    expect(ready?.plan.requests.used).toBe(routes.length);
  });

  it('refuses a file edited after its digest before anything else, without connecting', async () => {
    const { plan, live } = scenario();
    const edited = renderJson({ ...plan, warnings: [{ code: 'edited', message: 'edited after the plan' }] });
    const { error, log } = await run(edited, stale(live), { expectDigest: 'f'.repeat(64) });
    expect(error?.code).toBe('plan.digest-mismatch');
    expect(log).toEqual([]);
  });

  it('refuses a plan other than the one expected before checking its identity', async () => {
    const { plan, live } = scenario();
    const text = forged(plan, misnamed);
    const { error, log } = await run(text, live, { expectDigest: 'f'.repeat(64) });
    expect(error?.code).toBe('apply.digest-unexpected');
    expect(log).toEqual([]);
  });

  it('refuses a stale plan with a bad identity on its identity, without connecting or reading', async () => {
    const { plan, live } = scenario();
    const text = forged(plan, misnamed);
    const { error, log, routes } = await run(text, stale(live));
    expect(error?.code).toBe('plan.unsafe');
    expect(log).toEqual([]);
    expect(routes).toEqual([]);
  });

  it('refuses a stale plan for another workspace on the workspace, after the first request only', async () => {
    const { plan, live } = scenario();
    const text = forged(plan, (copy) => {
      copy.workspace = { id: 'ws_other', name: 'Other' };
    });
    const { error, routes } = await run(text, stale(live));
    expect(error?.code).toBe('workspace.mismatch');
    expect(routes).toEqual(['/v1/workspaces/mine']);
  });

  it('holds a stale target that also breaks a rule: the stale check comes before the rule re-checks, which meet only the changes left', async () => {
    const { plan, live } = scenario();
    // rv_1 renamed in the app: its hash differs (stale), and the update's before is no longer live (a rule);
    // mia's tabs were resolved against the old name: stale too. Both are held; the create and the delete go on.
    const { ready, error, routes } = await run(renderJson(plan), stale(live));
    expect(error).toBeUndefined();
    expect(routes).toContain('/v1/recordings/views');
    expect(ready?.held?.map((entry) => [entry.target, entry.code])).toEqual([
      ['view:recordings:id:rv_1', 'apply.stale-target'],
      ['pins:recordings:mia@acme.com', 'apply.stale-target'],
    ]);
    expect(ready?.operations.map((operation) => operation.action)).toEqual(['create', 'delete']);
    expect(ready?.plan.held?.map((entry) => entry.target)).toEqual([
      'view:recordings:id:rv_1',
      'pins:recordings:mia@acme.com',
    ]);
  });

  it('re-checks the rules before --max-deletes: a creator who left refuses the plan before its delete counts', async () => {
    const { plan, live } = scenario();
    const left = structuredClone(live);
    left.users = (left.users ?? []).map((user) =>
      user.email === 'ops@acme.com' ? { ...user, state: 'Deactivated' } : user,
    );
    const { error } = await run(renderJson(plan), left, { maxDeletes: 0 });
    expect(error?.code).toBe('plan.unsafe');
  });

  it('refuses before the first re-read when the re-reads and the writes do not fit in what is left today, then --max-deletes', async () => {
    const { plan, live } = scenario();
    // 4 re-reads after the workspace's answer (two listings, a pinned list, the users), then 4 writes and 2 listings to verify them.
    // The fake service counts each request off what is left: 10 less the workspace's answer leaves 9.
    const short = await run(renderJson(plan), live, { maxDeletes: 0, dailyRemaining: 10 });
    expect(short.error).toMatchObject({
      code: 'apply.daily-budget',
      message:
        'applying this plan file needs 10 requests (4 re-reads of its targets, then 6 to write and verify), but the service says only 9 are left today; nothing was re-read or written',
      hint: expect.stringContaining('wait until 1 more request free up (each frees 24 h after it was made)'),
    });
    expect(short.routes).toEqual(['/v1/workspaces/mine']);
    expect((await run(renderJson(plan), live, { maxDeletes: 0, dailyRemaining: 11 })).error?.code).toBe(
      'apply.max-deletes',
    );
    expect((await run(renderJson(plan), live, { maxDeletes: 1, dailyRemaining: 11 })).ready?.operations).toHaveLength(
      4,
    );
  });

  it('lets a plan with nothing to apply (drift only) through no gate of writes', async () => {
    const { plan, live } = scenario();
    const text = forged(plan, (copy) => {
      copy.changes = copy.changes.filter((change) => change.action === 'drift');
      copy.steps = [];
      copy.summary = { create: 0, update: 0, delete: 0, pin: 0, drift: copy.changes.length };
      delete copy.creatorEmail;
    });
    const { ready, routes } = await run(text, live, { maxDeletes: 0, dailyRemaining: 1 });
    expect(ready?.operations).toEqual([]);
    expect(routes).toEqual(['/v1/workspaces/mine']);
  });
});

/**
 * appliedLive is `live` once the plan's changes of the `landed` actions were carried
 * out as apply does: "Team calls" created under an id the plan never knew, rv_1
 * updated, dv_9 deleted, mia's recordings tabs replaced.
 */
function appliedLive(plan: Plan, live: Live, landed: readonly Change['action'][]): Live {
  const out = structuredClone(live);
  const created = new Map<string, ApiView>();
  for (const change of plan.changes) {
    if (!landed.includes(change.action)) continue;
    if (change.action === 'create') {
      const made = view('rv_new_77', change.after.name, { ...change.after });
      created.set(change.after.name, made);
      out.views[change.domain] = [
        ...(out.views[change.domain] ?? []).filter((candidate) => !candidate.isDefault),
        made,
        ...(out.views[change.domain] ?? []).filter((candidate) => candidate.isDefault),
      ];
    }
    if (change.action === 'update')
      out.views[change.domain] = (out.views[change.domain] ?? []).map((candidate) =>
        candidate.viewId === change.id ? { ...candidate, ...change.after } : candidate,
      );
    if (change.action === 'delete')
      out.views[change.domain] = (out.views[change.domain] ?? []).filter((candidate) => candidate.viewId !== change.id);
    if (change.action === 'pin') {
      const key = pinsKey(change.domain, change.userEmail);
      const known = [...(out.views[change.domain] ?? []), ...(live.pins[key] ?? []), ...created.values()];
      out.pins[key] = change.after.map(
        (tab) =>
          known.find((candidate) =>
            tab.viewId === null ? candidate.name === tab.name && !candidate.isDefault : candidate.viewId === tab.viewId,
          ) as ApiView,
      );
    }
  }
  return out;
}

describe('prepareSavedPlan of a plan applied before', () => {
  it('answers a plan applied in full as already applied: every change skipped, nothing to send, only the one re-read', async () => {
    const { plan, live } = scenario();
    const fresh = await run(renderJson(plan), live);
    const { ready, error, routes } = await run(
      renderJson(plan),
      appliedLive(plan, live, ['create', 'update', 'pin', 'delete']),
      // Before the re-reads nothing says the plan was applied: what is left must pay for its writes too.
      { maxDeletes: 0, dailyRemaining: 11 },
    );
    expect(error).toBeUndefined();
    expect(ready?.operations).toEqual([]);
    expect(ready?.alreadyApplied.map((outcome) => outcome.operation.action)).toEqual([
      'create',
      'update',
      'pin',
      'delete',
    ]);
    // The created view is known by the id the service gave it.
    expect(ready?.alreadyApplied[0]?.viewId).toBe('rv_new_77');
    expect([...routes].sort()).toEqual([...fresh.routes].sort());
  });

  it('applies the rest of a plan applied part-way: the create and the update landed, the pinned list (naming the created view) and the delete did not', async () => {
    const { plan, live } = scenario();
    const { ready, error } = await run(renderJson(plan), appliedLive(plan, live, ['create', 'update']));
    expect(error).toBeUndefined();
    expect(ready?.operations.map((operation) => operation.action)).toEqual(['pin', 'delete']);
    expect(ready?.alreadyApplied.map((outcome) => [outcome.operation.action, outcome.viewId])).toEqual([
      ['create', 'rv_new_77'],
      ['update', 'rv_1'],
    ]);
  });

  it('holds as stale only the target changed to something else, not those already applied, and sends the rest', async () => {
    const { plan, live } = scenario();
    const changed = appliedLive(plan, live, ['create', 'delete']);
    changed.views.recordings = (changed.views.recordings ?? []).map((candidate) =>
      candidate.viewId === 'rv_1' ? { ...candidate, filters: { sourceIn: ['Zoom'] } } : candidate,
    );
    const { ready, error } = await run(renderJson(plan), changed);
    expect(error).toBeUndefined();
    expect(ready?.held).toEqual([
      {
        target: 'view:recordings:id:rv_1',
        code: 'apply.stale-target',
        change: 'update RecordingView "Zoom and Meet calls" (rv_1)',
        reason:
          'changed since the plan was reviewed (in the app, or by another apply): its filters changed from what the plan expected',
      },
    ]);
    expect(ready?.alreadyApplied.map((outcome) => outcome.operation.action)).toEqual(['create', 'delete']);
    // Mia's tabs name the created view, which landed: her list is sent.
    expect(ready?.operations.map((operation) => operation.action)).toEqual(['pin']);
  });
});
