import { carryOut } from '../../src/apply/carry-out.js';
import { buildOperations } from '../../src/apply/operations.js';
import type { ApiUser } from '../../src/domain/api-types.js';
import { DOMAINS } from '../../src/domain/domains.js';
import { demoWorkspace } from '../../src/emulator/demo/demo-workspace.js';
import type { EmulatorData } from '../../src/emulator/model.js';
import { startEmulator } from '../../src/emulator/server.js';
import { computePlan } from '../../src/plan/diff.js';
import { createServiceClient } from '../../src/service/client.js';
import { readNeeds } from '../../src/state/needs.js';
import { readLive } from '../../src/state/read-live.js';
import type { Desired, DesiredPins } from '../../src/state/types.js';

/** ApplyBenchResult is one measured apply: wall time, requests, 429s, and the rate-limit floor. */
export interface ApplyBenchResult {
  wallMs: number;
  requests: number;
  rateLimited: number;
  /** The fastest any client could go: the busiest endpoint's writes at 3 per second. */
  floorMs: number;
}

const at = { file: 'bench.yaml', line: 1, column: 1 };

/** benchData is the demo workspace plus `users` active members who never changed their tabs. */
function benchData(users: number): EmulatorData {
  const data = structuredClone(demoWorkspace());
  for (let index = 0; index < users; index += 1) {
    const user: ApiUser = {
      id: `u_bench_${index}`, email: `bench${index}@acme.test`, name: `Bench ${index}`, license: 'Full', role: 'Member',
      state: 'Active', isDesktopAppInstalled: false, isMobileAppInstalled: false,
    };
    data.users.push(user);
  }
  return data;
}

/**
 * benchDesired pins, for every bench user and domain, the first public saved view
 * then the built-in defaults: a change for each (they have the defaults today).
 */
function benchDesired(data: EmulatorData, users: number): Desired {
  const pins: DesiredPins[] = [];
  for (let index = 0; index < users; index += 1) {
    for (const domain of DOMAINS) {
      const views = data.views[domain];
      const saved = views.find((view) => !view.isDefault && view.visibility === 'Public');
      const defaults = views.filter((view) => view.isDefault);
      const refs = [...(saved === undefined ? [] : [saved]), ...defaults].map((view) => ({ viewId: view.viewId }));
      pins.push({ domain, userEmail: `bench${index}@acme.test`, refs, unpinPrivate: false, source: at, refSources: refs.map(() => at) });
    }
  }
  return { workspace: { prune: false, ignore: [] }, views: [], pins };
}

/**
 * benchApplyPins measures apply changing the pinned tabs of `users` users in all four
 * domains against an emulator at the service's limits (3/s per endpoint, burst 3).
 * The plan is computed on a twin emulator with raised limits, so only the apply is timed.
 */
export async function benchApplyPins(users = 40): Promise<ApplyBenchResult> {
  const data = benchData(users);
  const wanted = benchDesired(data, users);
  const twin = await startEmulator({ data, port: 0, rate: 1000, burst: 1000, quota: 100_000 });
  let planned;
  try {
    const client = createServiceClient({ baseUrl: twin.url, apiKey: twin.apiKey, rate: 1000, burst: 1000 });
    const live = await readLive(client, readNeeds(wanted));
    planned = { plan: computePlan(wanted, live).plan, live };
  } finally {
    await twin.close();
  }

  const emulator = await startEmulator({ data, port: 0 });
  try {
    const client = createServiceClient({ baseUrl: emulator.url, apiKey: emulator.apiKey });
    const operations = buildOperations(planned.plan);
    const started = performance.now();
    const report = await carryOut(planned.plan, operations, { client, live: planned.live, fromPlanFile: false });
    const wallMs = performance.now() - started;
    if (report.status !== 'applied') throw new Error(`bench apply did not complete: ${report.failed.map((entry) => entry.error?.message).join('; ')}`);
    const perEndpoint = new Map<string, number>();
    for (const operation of operations) perEndpoint.set(operation.endpoint, (perEndpoint.get(operation.endpoint) ?? 0) + 1);
    const busiest = Math.max(0, ...perEndpoint.values());
    const stats = emulator.stats();
    return { wallMs, requests: stats.requests, rateLimited: stats.rateLimited, floorMs: (busiest / 3) * 1000 };
  } finally {
    await emulator.close();
  }
}
