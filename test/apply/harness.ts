import type { ApiView, JsonObject } from '../../src/domain/api-types.js';
import type { Domain } from '../../src/domain/domains.js';
import { carryOut } from '../../src/apply/carry-out.js';
import { buildOperations } from '../../src/plan/operations.js';
import type { ApplyReport } from '../../src/apply/report.js';
import type { EmulatorData } from '../../src/emulator/model.js';
import { startEmulator } from '../../src/emulator/server.js';
import type { EmulatorOptions, RunningEmulator } from '../../src/emulator/server.js';
import type { Plan } from '../../src/plan/types.js';
import { createServiceClient } from '../../src/service/client.js';
import type { ServiceClient } from '../../src/service/types.js';
import type { Desired, DesiredPins, DesiredView, Live, ManagedViewAttributes, PinRef } from '../../src/state/types.js';
import { planWorkspace } from '../../src/flows/plan-workspace.js';

/** Test harness: a small hand-made workspace, the real emulator, the real client. */

const at = { file: 'test.yaml', line: 1, column: 1 };

function view(viewId: string, name: string, extra: Partial<ApiView> = {}): ApiView {
  return {
    viewId,
    name,
    visibility: 'Public',
    isDefault: false,
    ownerId: 'u_ops',
    columns: [],
    filters: {},
    sort: [],
    ...extra,
  };
}

function defaultView(viewId: string, name: string): ApiView {
  return view(viewId, name, { isDefault: true, ownerId: '#global' });
}

/** testWorkspace is a small workspace: three users, a few views per domain, one private view pinned. */
export function testWorkspace(extraUsers = 0): EmulatorData {
  const user = (id: string, email: string, role: 'Owner' | 'Admin' | 'Member') => ({
    id,
    email,
    name: email.split('@')[0] ?? email,
    license: 'Full' as const,
    role,
    state: 'Active' as const,
    isDesktopAppInstalled: false,
    isMobileAppInstalled: false,
  });
  const users = [
    user('u_ops', 'ops@acme.test', 'Owner'),
    user('u_mia', 'mia@acme.test', 'Member'),
    user('u_max', 'max@acme.test', 'Admin'),
  ];
  for (let index = 0; index < extraUsers; index += 1)
    users.push(user(`u_extra_${index}`, `user${index}@acme.test`, 'Member'));
  return {
    workspace: { id: 'ws_test', name: 'Test Co', createdAt: '2026-01-01T00:00:00.000Z' },
    users,
    teams: [],
    userGroups: [],
    labels: [],
    channels: [],
    topics: [],
    views: {
      recordings: [
        view('rv_1', 'Customer calls', {
          icon: 'telephone_receiver',
          columns: [{ type: 'Default', columnId: 'title' }],
          filters: { sourceIn: ['Call', 'Zoom'] },
          sort: [{ field: 'CreatedAt', order: 'Desc' }],
        }),
        view('rv_2', 'Old calls'),
        view('rv_p', "Mia's private", { visibility: 'Private', ownerId: 'u_mia' }),
        defaultView('rv_default_all', 'All recordings'),
      ],
      deals: [
        view('dv_1', 'Pipeline', { filters: { statusIn: ['Open'] } }),
        view('dv_2', 'Old pipeline'),
        defaultView('dv_default_all', 'All deals'),
      ],
      companies: [view('cv_1', 'Key accounts'), defaultView('cv_default_all', 'All companies')],
      contacts: [view('ctv_1', 'Champions'), defaultView('ctv_default_all', 'All contacts')],
    },
    pinned: { recordings: { u_mia: ['rv_p', 'rv_1'] }, deals: {}, companies: {}, contacts: {} },
    automations: [],
    recordings: [],
    deals: [],
    companies: [],
    contacts: [],
    webhooks: [],
    nextIds: {},
  };
}

/** startTestEmulator starts the emulator with limits raised unless the test overrides them. */
export function startTestEmulator(
  data: EmulatorData,
  options: Partial<EmulatorOptions> = {},
): Promise<RunningEmulator> {
  return startEmulator({ data, port: 0, rate: 1000, burst: 1000, quota: 100_000, ...options });
}

/** testClient is the real client with millisecond backoff. */
export function testClient(emulator: RunningEmulator, rate = 1000): ServiceClient {
  return createServiceClient({
    baseUrl: emulator.url,
    apiKey: emulator.apiKey,
    rate,
    burst: 3,
    backoff: { baseMs: 1, capMs: 4 },
    timeoutMs: 5000,
  });
}

/** desiredView declares a view. */
export function desiredView(
  domain: Domain,
  name: string,
  managed: ManagedViewAttributes,
  viewId?: string,
): DesiredView {
  return { domain, name, managed, source: at, ...(viewId === undefined ? {} : { viewId }) };
}

/** desiredPins declares one user's tabs in one domain. */
export function desiredPins(domain: Domain, userEmail: string, refs: PinRef[], unpinPrivate = false): DesiredPins {
  return { domain, userEmail, refs, unpinPrivate, source: at, refSources: refs.map(() => at) };
}

/** desired assembles a Desired owned by ops@acme.test. */
export function desired(views: DesiredView[], pins: DesiredPins[] = [], prune = false): Desired {
  return { workspace: { creatorEmail: 'ops@acme.test', prune, ignore: [] }, views, pins };
}

/** planFor plans `wanted` through the core's read-then-diff flow, as `viewctl plan` does. */
export async function planFor(wanted: Desired, client: ServiceClient): Promise<{ plan: Plan; live: Live }> {
  const { plan, live } = await planWorkspace(wanted, client);
  return { plan, live };
}

/**
 * TEST_RELIST_DELAYS_MS are the waits before re-listing after a lost create, in
 * milliseconds: the emulator commits a write before it drops the answer.
 */
export const TEST_RELIST_DELAYS_MS = [1, 5, 20] as const;

/** applyPlan carries a plan out against the live state it came from. */
export function applyPlan(
  plan: Plan,
  live: Live,
  client: ServiceClient,
  options: { inFlightPerEndpoint?: number } = {},
): Promise<ApplyReport> {
  return carryOut(plan, buildOperations(plan), {
    client,
    live,
    fromPlanFile: false,
    relistDelaysMs: TEST_RELIST_DELAYS_MS,
    ...options,
  });
}

/** columns, filters and sort values the schemas accept. */
export const SAMPLE: { columns: JsonObject[]; filters: JsonObject; sort: JsonObject[] } = {
  columns: [
    { type: 'Default', columnId: 'title' },
    { type: 'Default', columnId: 'duration' },
  ],
  filters: { sourceIn: ['GoogleMeet', 'MsTeams'] },
  sort: [{ field: 'Title', order: 'Asc' }],
};
