import { carryOut } from '../../src/apply/carry-out.js';
import { buildOperations } from '../../src/plan/operations.js';
import type { ApiUser } from '../../src/domain/api-types.js';
import { DOMAINS } from '../../src/domain/domains.js';
import { demoWorkspace } from '../../src/emulator/demo/demo-workspace.js';
import type { EmulatorData } from '../../src/emulator/model.js';
import { startEmulator } from '../../src/emulator/server.js';
import { createServiceClient } from '../../src/service/client.js';
import type { Desired, DesiredPins } from '../../src/state/types.js';
import { rateFloor, SERVICE_LIMITS, type LiveMeasurement } from './table.js';
import { planWorkspace } from '../../src/flows/plan-workspace.js';

/** ApplyBenchResult is one measured apply: wall time, requests by endpoint, 429s, and the rate-limit floor. */
export interface ApplyBenchResult extends LiveMeasurement {
  /** The fastest any client could go (see rateFloor), from the requests the emulator saw. */
  floorMs: number;
}

const at = { file: 'bench.yaml', line: 1, column: 1 };

/** benchData is the demo workspace plus `users` active members who never changed their tabs. */
function benchData(users: number): EmulatorData {
  const data = structuredClone(demoWorkspace());
  for (let index = 0; index < users; index += 1) {
    const user: ApiUser = {
      id: `u_bench_${index}`,
      email: `bench${index}@acme.test`,
      name: `Bench ${index}`,
      license: 'Full',
      role: 'Member',
      state: 'Active',
      isDesktopAppInstalled: false,
      isMobileAppInstalled: false,
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
      pins.push({
        domain,
        userEmail: `bench${index}@acme.test`,
        refs,
        unpinPrivate: false,
        source: at,
        refSources: refs.map(() => at),
      });
    }
  }
  return { workspace: { prune: false, ignore: [] }, views: [], pins };
}

/**
 * benchApplyPins measures apply changing the pinned tabs of `users` users in all four
 * domains against a fresh emulator at its default limits (the service's: 3/s per endpoint, burst 3).
 * The plan is computed on a twin emulator with raised limits, so only the apply is timed.
 */
export async function benchApplyPins(users = 40): Promise<ApplyBenchResult> {
  const data = benchData(users);
  const wanted = benchDesired(data, users);
  const twin = await startEmulator({ data, port: 0, rate: 1000, burst: 1000, quota: 100_000 });
  let planned: Pick<Awaited<ReturnType<typeof planWorkspace>>, 'plan' | 'live'>;
  try {
    const client = createServiceClient({ baseUrl: twin.url, apiKey: twin.apiKey, rate: 1000, burst: 1000 });
    const { plan, live } = await planWorkspace(wanted, client);
    planned = { plan, live };
  } finally {
    await twin.close();
  }

  const emulator = await startEmulator({ data, port: 0 });
  try {
    const client = createServiceClient({ baseUrl: emulator.url, apiKey: emulator.apiKey, rate: SERVICE_LIMITS.rate });
    const operations = buildOperations(planned.plan);
    const strays = operations.filter((operation) => operation.action !== 'pin');
    if (strays.length > 0)
      throw new Error(
        `bench plan has ${strays.length} operations besides pinned tabs; the request floor would be wrong`,
      );
    const started = performance.now();
    const report = await carryOut(planned.plan, operations, { client, live: planned.live, fromPlanFile: false });
    const wallMs = performance.now() - started;
    if (report.status !== 'applied')
      throw new Error(`bench apply did not complete: ${report.failed.map((entry) => entry.error?.message).join('; ')}`);
    const stats = emulator.stats();
    return {
      wallMs,
      requests: stats.requests,
      // One PUT per pinned list that changes; pinned lists are verified from the PUT answers.
      minimumRequests: operations.length,
      minimumBreakdown: `${operations.length} pinned-tab PUTs (one per user and domain)`,
      byEndpoint: stats.byEndpoint,
      rateLimited: stats.rateLimited,
      limits: SERVICE_LIMITS,
      detail: `carry-out only (the plan is computed beforehand on an unthrottled twin); ${operations.length} pinned lists written and verified`,
      floorMs: rateFloor(stats.byEndpoint, SERVICE_LIMITS).floorMs,
    };
  } finally {
    await emulator.close();
  }
}
