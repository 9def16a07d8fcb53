import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { carryOut } from '../../src/apply/carry-out.js';
import { reportExitCode, type ApplyReport } from '../../src/apply/report.js';
import type { ApiView } from '../../src/domain/api-types.js';
import { DOMAINS } from '../../src/domain/domains.js';
import { ServiceError } from '../../src/errors.js';
import type { EmulatorData } from '../../src/emulator/model.js';
import { buildOperations } from '../../src/plan/operations.js';
import { planWorkspace } from '../../src/flows/plan-workspace.js';
import { PlanRefusedError } from '../../src/plan/refusal.js';
import type { Plan } from '../../src/plan/types.js';
import { createServiceClient } from '../../src/service/client.js';
import type { ServiceClient } from '../../src/service/types.js';
import type { Desired, Live } from '../../src/state/types.js';
import { duplicateNames } from '../support/cli.js';
import {
  faultyService,
  MEMORY_URL,
  VIRTUAL_TIMEOUT_MS,
  virtualClock,
  type Fault,
  type FaultKind,
  type FaultyService,
  type Schedule,
} from './faulty-service.js';
import { memoryService } from './memory-service.js';
import { scenario, type Scenario } from './state-arbitraries.js';

/**
 * Convergence under faults, as one property: for random live workspaces, random
 * desired states over them and random fault schedules (503s, 429s with and without
 * Retry-After, answers lost after the service acted, 502s after it acted, connections
 * reset before it acted, outages longer or shorter than the client's retries, writes
 * that land after the client gave up, answers that overtake each other, a restart
 * between runs, and two applies at once of the same or of differing manifests),
 * plan and apply are run again and again, as a user re-runs the same command:
 *
 * - the first run no fault touches leaves nothing to plan, so the runs reach a plan
 *   with no changes within (runs faults touched) + 1;
 * - no view is ever doubled, and nothing people made (private views, views `ignore`
 *   keeps, views no manifest names, other people's tabs) is lost or changed;
 * - every exit code tells the truth: 1 only when the run changed nothing, 0 only when
 *   a plan right after finds nothing to do.
 *
 * The client is the real one (retries, backoff, Retry-After, its rate limiter) on a
 * virtual clock, and the service is the emulator's route table in memory
 * (faulty-service.ts), so a schedule replays exactly. The built CLI against the
 * emulator's own fault injection, restarted between runs, is test/e2e/convergence.test.ts.
 */

/** Runs at most, faults or not: far more than any case needs. */
const MAX_RUNS = 8;
/** Faults fall on the first requests of a case: about its first two runs. */
const SCHEDULE_SPAN = 90;

const FAULT: fc.Arbitrary<Fault> = fc.oneof(
  fc.constant<Fault>({ kind: 'unavailable' }),
  fc.record({
    kind: fc.constant('rate-limited' as const),
    retryAfterS: fc.option(fc.integer({ min: 1, max: 5 }), { nil: null }),
  }),
  fc.constant<Fault>({ kind: 'lost-answer' }),
  fc.constant<Fault>({ kind: 'bad-gateway' }),
  fc.constant<Fault>({ kind: 'reset' }),
  fc.record({ kind: fc.constant('outage' as const), requests: fc.integer({ min: 1, max: 16 }) }),
  fc.record({ kind: fc.constant('late' as const), after: fc.nat(6) }),
  fc.record({ kind: fc.constant('slow' as const), turns: fc.integer({ min: 1, max: 4 }) }),
);

const SCHEDULE: fc.Arbitrary<Schedule> = fc
  .array(fc.tuple(fc.nat(SCHEDULE_SPAN - 1), FAULT), { maxLength: 10 })
  .map((entries) => new Map(entries));

/** Together says whether the first apply runs alone, or beside a second of the same or of differing manifests. */
type Together = 'alone' | 'same' | 'variant';

interface Case {
  scenario: Scenario;
  schedule: Schedule;
  together: Together;
  /** Whether the service restarts (from its state file) between runs. */
  restarts: boolean;
}

const CASE: fc.Arbitrary<Case> = fc.record({
  scenario: scenario().map(withPeoplesViews),
  schedule: SCHEDULE,
  together: fc.constantFrom<Together>('alone', 'alone', 'same', 'variant'),
  restarts: fc.boolean(),
});

/** The private view, its owner's tabs and the `ignore`d view people keep in every domain. */
const TOM = 'u_tom';
const KEPT_BY_HAND = 'Kept by hand';

/**
 * withPeoplesViews adds what people made and no manifest manages: in every domain a
 * private view pinned by its owner (deactivated, so no manifest pins for him) and a
 * public view an `ignore` glob keeps from prune.
 */
function withPeoplesViews({ data, desired }: Scenario): Scenario {
  // The records (recordings, deals...) play no part in views: left out, every copy and restart is cheaper.
  const out = { ...structuredClone({ ...data, recordings: [], deals: [], companies: [], contacts: [] }) };
  for (const domain of DOMAINS) {
    const own: ApiView = {
      viewId: `${domain}_tom_private`,
      name: "Tom's own",
      visibility: 'Private',
      isDefault: false,
      ownerId: TOM,
      columns: [],
      filters: {},
      sort: [],
    };
    const kept: ApiView = {
      viewId: `${domain}_kept`,
      name: KEPT_BY_HAND,
      visibility: 'Public',
      isDefault: false,
      ownerId: 'u_mia',
      columns: [],
      filters: {},
      sort: [],
    };
    out.views[domain].push(own, kept);
    const fallback = out.views[domain].find((view) => view.isDefault)?.viewId;
    out.pinned[domain][TOM] = [own.viewId, ...(fallback === undefined ? [] : [fallback])];
  }
  return { data: out, desired: { ...desired, workspace: { ...desired.workspace, ignore: ['Kept by *'] } } };
}

/** variantOf sets the same views differently: every view declared by name or created gets another icon. */
function variantOf(desired: Desired): Desired {
  return {
    ...desired,
    views: desired.views.map((view) =>
      view.viewId !== undefined
        ? view
        : { ...view, managed: { ...view.managed, icon: view.managed.icon === 'star' ? 'warning' : 'star' } },
    ),
  };
}

/** clientOf is the real client on a virtual clock, talking to the in-memory service; one per run, as one per process. */
function clientOf(service: FaultyService): ServiceClient {
  return createServiceClient({
    baseUrl: MEMORY_URL,
    apiKey: 'memory-key',
    rate: 1000,
    timeoutMs: VIRTUAL_TIMEOUT_MS,
    fetch: service.fetch,
    clock: virtualClock(),
    random: () => 0.5,
  });
}

/**
 * planOrFailure plans, or says the service failed the plan (as the CLI exits 1 then). A
 * refusal is a failure of the property: the first plan of every case was accepted, so
 * a later refusal (copies two runs left, say) is something the runs did not converge from.
 */
async function planOrFailure(
  desired: Desired,
  client: ServiceClient,
  history: readonly string[],
): Promise<{ plan: Plan; live: Live } | 'failed'> {
  try {
    return await planWorkspace(desired, client);
  } catch (error) {
    if (error instanceof ServiceError) return 'failed';
    if (error instanceof PlanRefusedError)
      throw new Error(`a plan after ${history.length} runs is refused: ${error.message}\n${history.join('\n')}`);
    throw error;
  }
}

/** Tally counts what the cases met, so the generator is seen to reach every path. */
const tally = {
  cases: 0,
  refused: 0,
  multiRun: 0,
  restarts: 0,
  races: 0,
  adopted: 0,
  cleanRuns: 0,
  exits: { 0: 0, 1: 0, 4: 0 } as Record<number, number>,
  met: {} as Partial<Record<FaultKind, number>>,
};

/** Comparable content of a view or a pinned list, to tell changed from unchanged. */
const json = (value: unknown): string => JSON.stringify(value);

/**
 * untouched lists what no reference plan (the plans of the manifests, fault-free, on
 * the workspace as it was) touches: every view that no change names and every pinned
 * list that no change sets and that holds no view a plan deletes.
 */
function untouched(data: EmulatorData, plans: readonly Plan[]): { views: ApiView[]; pinned: [string, string[]][] } {
  const changes = plans.flatMap((plan) => plan.changes);
  const named = new Set(
    changes.flatMap((change) => ('id' in change && typeof change.id === 'string' ? [change.id] : [])),
  );
  const deleted = new Set(changes.flatMap((change) => (change.action === 'delete' ? [change.id] : [])));
  const idOf = new Map(data.users.map((user) => [user.email, user.id]));
  const pinned = new Set(
    changes.flatMap((change) =>
      change.action === 'pin' ? [`${change.domain}:${idOf.get(change.userEmail) ?? change.userEmail}`] : [],
    ),
  );
  return {
    views: DOMAINS.flatMap((domain) => data.views[domain].filter((view) => !named.has(view.viewId))),
    pinned: DOMAINS.flatMap((domain) =>
      Object.entries(data.pinned[domain])
        .filter(([user, ids]) => !pinned.has(`${domain}:${user}`) && !ids.some((id) => deleted.has(id)))
        .map(([user, ids]): [string, string[]] => [`${domain}:${user}`, ids]),
    ),
  };
}

/** describeCase says what a case does, short of its workspace. */
function describeCase({ scenario: { desired }, schedule, together, restarts }: Case): string {
  const faults = [...schedule].sort(([a], [b]) => a - b).map(([index, fault]) => `${index}:${JSON.stringify(fault)}`);
  return `${desired.views.length} views declared, ${desired.pins.length} pin lists, prune ${String(desired.workspace.prune)}; ${together}; restarts ${String(restarts)}; faults ${faults.join(' ') || 'none'}`;
}

/** runCase re-runs plan and apply under the case's faults until a plan has no changes; it throws what broke. */
async function runCase({ scenario: { data, desired }, schedule, together, restarts }: Case): Promise<void> {
  const variant = variantOf(desired);
  const manifests = together === 'alone' ? [desired] : [desired, together === 'same' ? desired : variant];
  // What the manifests ask for, planned fault-free on the workspace as it was.
  const references: Plan[] = [];
  for (const wanted of manifests) {
    try {
      references.push((await planWorkspace(wanted, memoryService(data).client)).plan);
    } catch (error) {
      // A random pin list may still name a view the plan deletes: a refusal, not a crash.
      if (!(error instanceof PlanRefusedError)) throw error;
      tally.refused += 1;
      return;
    }
  }
  tally.cases += 1;
  const kept = untouched(data, references);
  const final = manifests.at(-1) ?? desired;
  const service = faultyService(data, schedule);
  const history: string[] = [];
  let cleanBefore = false;
  for (let run = 1; ; run += 1) {
    const first = service.requests();
    const wanted = run === 1 ? manifests : [final];
    // Every run plans before any writes: two runs at once both plan the same creates.
    const planned = [];
    for (const manifest of wanted) {
      const client = clientOf(service);
      planned.push({ client, result: await planOrFailure(manifest, client, history) });
    }
    const mine = planned.at(-1)?.result;
    if (cleanBefore && mine !== 'failed') tally.cleanRuns += 1;
    if (mine !== undefined && mine !== 'failed' && mine.plan.changes.length === 0 && planned.length === 1) {
      if (run > 2) tally.multiRun += 1;
      break;
    }
    // The first run no fault touched must have left nothing to plan.
    if (cleanBefore && mine !== 'failed')
      throw new Error(
        `a run no fault touched left changes to plan:\n${history.join('\n')}\n${json(mine?.plan.changes)}`,
      );
    if (run > MAX_RUNS) throw new Error(`no plan without changes after ${MAX_RUNS} runs:\n${history.join('\n')}`);
    const before = json(service.data());
    const reports = await Promise.all(
      planned.map(async ({ client, result }): Promise<ApplyReport | 'failed'> => {
        if (result === 'failed') return 'failed';
        const instant = { sleep: (ms: number) => virtualClock().sleep(ms) };
        return carryOut(result.plan, buildOperations(result.plan), {
          client,
          live: result.live,
          fromPlanFile: false,
          ...instant,
        });
      }),
    );
    service.settle();
    if (restarts) {
      service.restart();
      tally.restarts += 1;
    }
    const codes = reports.map((report) => (report === 'failed' ? 1 : reportExitCode(report)));
    history.push(
      `run ${run}: requests ${first}-${service.requests() - 1}, exits ${codes.join(',')}${reports.map((report) => (report === 'failed' ? ' (plan failed)' : ` ${json({ failed: report.failed, may: report.mayHaveLanded, problems: report.verification?.problems })}`)).join('')}`,
    );
    for (const code of codes) tally.exits[code] = (tally.exits[code] ?? 0) + 1;
    for (const report of reports) {
      if (report === 'failed') continue;
      tally.adopted += report.landed.filter((entry) => entry.note === 'adopted').length;
      tally.races += (report.verification?.problems ?? []).filter((problem) =>
        problem.message.includes('a concurrent run created'),
      ).length;
    }
    // Exit 1 says the run changed nothing; a run alone is the only writer, so that is checkable.
    if (codes.length === 1 && codes[0] === 1) expect(json(service.data()), history.join('\n')).toBe(before);
    // Two runs at once are a fault of their own: each may undo some of the other's work.
    const touched =
      planned.length > 1 ||
      [...schedule.keys()].some((index) => index >= first && index < service.requests()) ||
      service.down();
    // Exit 0 from a run alone says everything landed: the next plan must be empty, faults or not.
    cleanBefore = !touched || (codes.length === 1 && codes[0] === 0);
  }
  const end = service.data();
  const context = history.join('\n');
  expect(duplicateNames(end), context).toEqual([]);
  const now = new Map(DOMAINS.flatMap((domain) => end.views[domain].map((view) => [view.viewId, view] as const)));
  for (const view of kept.views) expect(json(now.get(view.viewId)), `${view.viewId} ${context}`).toBe(json(view));
  const pinnedNow = new Map<string, string[]>(
    DOMAINS.flatMap((domain) =>
      Object.entries(end.pinned[domain]).map(([user, ids]): [string, string[]] => [`${domain}:${user}`, ids]),
    ),
  );
  for (const [list, ids] of kept.pinned) expect(pinnedNow.get(list), `${list} ${context}`).toEqual(ids);
  for (const [kind, count] of Object.entries(service.met))
    tally.met[kind as FaultKind] = (tally.met[kind as FaultKind] ?? 0) + count;
}

describe('convergence under faults', () => {
  it('re-running plan and apply converges after any faults, doubles nothing, keeps what people made, and exits truthfully', async () => {
    await fc.assert(fc.asyncProperty(CASE, runCase), {
      numRuns: 60,
      seed: 20260115,
      endOnFailure: true,
      // A case holds a whole workspace: say which one failed, and why, without printing it.
      reporter: (details) => {
        if (!details.failed) return;
        const [failing] = details.counterexample ?? [];
        throw new Error(
          `case failed (seed ${details.seed}, path "${details.counterexamplePath ?? ''}"): ${failing === undefined ? '' : describeCase(failing)}\n${String(details.errorInstance)}`,
        );
      },
    });
    // The generator reaches every path: each fault kind, runs no fault touched, a create
    // found again by re-listing after its answer was lost, copies two runs made
    // settled, partial runs and failed ones, and cases that took more than two runs.
    const context = JSON.stringify(tally);
    for (const kind of [
      'unavailable',
      'rate-limited',
      'lost-answer',
      'bad-gateway',
      'reset',
      'outage',
      'late',
      'slow',
    ] as const) {
      expect(tally.met[kind] ?? 0, `${kind}: ${context}`).toBeGreaterThan(0);
    }
    expect(tally.cases, context).toBeGreaterThan(45);
    expect(tally.cleanRuns, context).toBeGreaterThan(20);
    expect(tally.adopted, context).toBeGreaterThan(0);
    expect(tally.races, context).toBeGreaterThan(0);
    expect(tally.exits[1], context).toBeGreaterThan(0);
    expect(tally.exits[4], context).toBeGreaterThan(0);
    expect(tally.multiRun, context).toBeGreaterThan(0);
    expect(tally.restarts, context).toBeGreaterThan(0);
  });
});
