import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadManifestSet } from '../../src/flows/manifest-set.js';
import { planWorkspace } from '../../src/flows/plan-workspace.js';
import type { ApiUser } from '../../src/domain/api-types.js';
import { DOMAINS, type Domain } from '../../src/domain/domains.js';
import { demoWorkspace } from '../../src/emulator/demo/demo-workspace.js';
import type { EmulatorData } from '../../src/emulator/model.js';
import { startEmulator } from '../../src/emulator/server.js';
import { createServiceClient } from '../../src/service/client.js';
import { planReads } from '../../src/plan/plan-reads.js';
import { uniqueReads } from '../../src/state/live-read.js';
import { pinnedRead } from '../../src/state/reads.js';
import { quietIo } from '../support/cli.js';
import { formatMs, SERVICE_LIMITS, type LiveMeasurement } from './table.js';

/** PlanLiveResult is one measured plan against the emulator at the service's limits. */
export interface PlanLiveResult extends LiveMeasurement {
  /** Changes in the computed plan, so a plan that read nothing useful shows. */
  changes: number;
  users: number;
}

const EXAMPLES = fileURLToPath(new URL('../../examples/', import.meta.url));
const USERS_PAGE = 100;

/**
 * benchPlanLive times the real plan path (`loadManifestSet` + `planWorkspace`, the flows
 * `viewctl plan` runs, in-process so process start does not count) against a fresh
 * emulator at its default limits. The manifests are the examples' Workspace,
 * automations and views, plus PinnedViews for `users` active members in all four
 * domains; the demo's members are topped up with bench members to reach `users`.
 */
export async function benchPlanLive(users = 40): Promise<PlanLiveResult> {
  const data = benchData(users);
  const emails = data.users
    .filter((user) => user.state === 'Active')
    .slice(0, users)
    .map((user) => user.email);
  const dir = await mkdtemp(join(tmpdir(), 'viewctl-bench-plan-'));
  const emulator = await startEmulator({ data, port: 0 });
  try {
    await writeManifests(dir, data, emails);
    const io = quietIo(dir);
    const client = createServiceClient({ baseUrl: emulator.url, apiKey: emulator.apiKey, rate: SERVICE_LIMITS.rate });
    const started = performance.now();
    const desired = await loadManifestSet([dir], io.cwd).then((set) => set.desired);
    const loadedMs = performance.now() - started;
    const { plan, elapsedMs } = await planWorkspace(desired, client);
    const wallMs = performance.now() - started;

    const reads = planReads(desired);
    const pinned = uniqueReads(desired.pins.map((pins) => pinnedRead(pins.domain, pins.userEmail)));
    const checksCreator =
      desired.workspace.creatorEmail !== undefined && plan.changes.some((change) => change.action === 'create');
    const userPages = checksCreator ? Math.max(1, Math.ceil(data.users.length / USERS_PAGE)) : 0;
    const parts = [
      '1 workspace',
      `${reads.filter((read) => read.into === 'views').length} lists`,
      `${pinned.length} pinned`,
      ...(reads.some((read) => read.into === 'automations') ? ['1 automations'] : []),
      ...(userPages > 0 ? [`${userPages} users (the plan creates a view, so creatorEmail is checked)`] : []),
    ];
    const stats = emulator.stats();
    return {
      wallMs,
      requests: stats.requests,
      minimumRequests: 1 + reads.length + pinned.length + userPages,
      minimumBreakdown: parts.join(' + '),
      byEndpoint: stats.byEndpoint,
      rateLimited: stats.rateLimited,
      limits: SERVICE_LIMITS,
      detail: `load + validate ${formatMs(loadedMs)}, read + diff ${formatMs(elapsedMs)}; the plan has ${plan.changes.length} changes`,
      changes: plan.changes.length,
      users: emails.length,
    };
  } finally {
    await emulator.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/** benchData is the demo workspace topped up with active members until `users` are active. */
function benchData(users: number): EmulatorData {
  const data = structuredClone(demoWorkspace());
  const active = data.users.filter((user) => user.state === 'Active').length;
  for (let index = 0; index < users - active; index += 1) {
    const member: ApiUser = {
      id: `u_bench_${index}`,
      email: `bench.member${index}@acme.test`,
      name: `Bench Member ${index}`,
      license: 'Full',
      role: 'Member',
      state: 'Active',
      isDesktopAppInstalled: false,
      isMobileAppInstalled: false,
    };
    data.users.push(member);
  }
  return data;
}

/**
 * writeManifests copies the examples' Workspace, automations and views (a few per
 * domain, one of them a create) and writes one PinnedViews per user: in every domain
 * the private views the user pins today (kept, as fail-safe rules require), two public
 * saved views rotating by user, then the domain's first built-in default.
 */
async function writeManifests(dir: string, data: EmulatorData, emails: readonly string[]): Promise<void> {
  await cp(join(EXAMPLES, 'workspace.yaml'), join(dir, 'workspace.yaml'));
  await cp(join(EXAMPLES, 'automations.yaml'), join(dir, 'automations.yaml'));
  await cp(join(EXAMPLES, 'views'), join(dir, 'views'), { recursive: true });
  await mkdir(join(dir, 'pins'));
  for (const [index, email] of emails.entries()) {
    const lines = ['kind: PinnedViews', `userEmail: ${email}`];
    for (const domain of DOMAINS) {
      const saved = data.views[domain]
        .filter((view) => !view.isDefault && view.visibility === 'Public')
        .map((view) => view.name);
      const fallback = data.views[domain].find((view) => view.isDefault)?.name;
      if (saved.length < 2 || fallback === undefined)
        throw new Error(`the demo's ${domain} views no longer suit the bench`);
      const names = [saved[index % saved.length], saved[(index + 1) % saved.length], fallback].map((name) =>
        JSON.stringify(name),
      );
      lines.push(`${domain}: [${[...keptPrivate(data, domain, email), ...names].join(', ')}]`);
    }
    await writeFile(join(dir, 'pins', `user-${String(index).padStart(2, '0')}.yaml`), `${lines.join('\n')}\n`);
  }
}

/** keptPrivate lists, as `{viewId}` refs, the private views `email` has pinned in `domain` today. */
function keptPrivate(data: EmulatorData, domain: Domain, email: string): string[] {
  const userId = data.users.find((user) => user.email === email)?.id;
  const pinned = userId === undefined ? [] : (data.pinned[domain][userId] ?? []);
  const privateIds = new Set(
    data.views[domain].filter((view) => view.visibility === 'Private').map((view) => view.viewId),
  );
  return pinned.filter((viewId) => privateIds.has(viewId)).map((viewId) => `{viewId: ${viewId}}`);
}
