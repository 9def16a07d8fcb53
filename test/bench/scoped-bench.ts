import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CliIo } from '../../src/cli/io.js';
import { loadManifestSet } from '../../src/flows/manifest-set.js';
import { planWorkspaceOptions } from '../../src/flows/plan-options.js';
import { planWorkspace } from '../../src/flows/plan-workspace.js';
import { run } from '../../src/cli/run.js';
import { resolveScope } from '../../src/flows/plan-scope.js';
import { DOMAINS } from '../../src/domain/domains.js';
import { scaledWorkspace } from '../../src/emulator/demo/scaled-workspace.js';
import type { EmulatorData } from '../../src/emulator/model.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/server.js';
import { ViewctlError } from '../../src/errors.js';
import { keyedPins } from '../../src/plan/desired-values.js';
import { utcDay } from '../../src/plan/scope.js';
import { sweepNight } from '../../src/plan/sweep-schedule.js';
import { renderJson } from '../../src/render/json.js';
import { scopeText } from '../../src/render/format.js';
import { createServiceClient } from '../../src/service/client.js';
import { quietIo } from '../support/cli.js';
import { SERVICE_LIMITS, type BenchRow } from './table.js';

/**
 * Scoped and budgeted plans at company size (README, "Scoped and budgeted plans"): a
 * scaled workspace of `members` members, at the service's real limits (3/s per
 * endpoint, burst 3, 3,000 a day), with manifests that match it (every active member's
 * tabs, by id, and two recording views) committed to a git repository, then a pull
 * request that changes five members' recording tabs and the icon of the two views.
 * Each row gets a fresh emulator, so no row spends another's daily quota; each shows
 * the requests a full plan of the same workspace needs beside its own.
 */

const PR_MEMBERS = 5;
const BUDGET = 400;
const GROUP_MEMBERS = 50;

/** benchScoped measures the five rows. */
export async function benchScoped(members = 1000): Promise<BenchRow[]> {
  const data = scaledWorkspace(members);
  const dir = await mkdtemp(join(tmpdir(), 'viewctl-bench-scoped-'));
  try {
    const lists = await writeRepository(dir, data);
    const manifests = join(dir, 'manifests');
    const full = 1 + DOMAINS.length + lists;
    const io = quietIo(dir);
    const desired = await loadManifestSet([manifests], io.cwd).then((set) => set.desired);
    const rows: BenchRow[] = [];
    const planFile = join(dir, 'plan.json');

    await withServiceLimits(data, async (emulator, client) => {
      const started = performance.now();
      const scoped = await resolveScope({ base: 'HEAD' }, [manifests], io);
      const { plan } = await planWorkspace(desired, client, planWorkspaceOptions({ scoped }));
      await writeFile(planFile, renderJson(plan));
      // Every change is the pull request's own: none labelled with an origin.
      const labelled = plan.changes.filter((change) => change.origin !== undefined).length;
      const checks = [
        ...(plan.summary.update === 2 && plan.summary.pin === PR_MEMBERS
          ? []
          : [`the plan has ${plan.summary.update} updates and ${plan.summary.pin} pin lists, not 2 and ${PR_MEMBERS}`]),
        ...(labelled === 0 ? [] : [`${labelled} changes labelled outside or not applied`]),
      ];
      rows.push(
        budgeted(
          '5a',
          `PR plan --base, ${PR_MEMBERS} members' pins + 2 views changed, ${members.toLocaleString('en-US')} members`,
          emulator,
          started,
          30,
          full,
          checks,
          scopeText(plan) ?? '',
        ),
      );

      emulator.resetStats();
      const applyStarted = performance.now();
      const code = await run(['apply', '--plan', planFile], {
        ...io,
        env: { VIEWCTL_BASE_URL: emulator.url, VIEWCTL_API_KEY: emulator.apiKey },
      });
      const writes = emulator.stats().writes;
      const applyChecks = [
        ...(code === 0 ? [] : [`apply exited ${code}`]),
        ...(writes === 2 + PR_MEMBERS ? [] : [`${writes} writes, not exactly ${2 + PR_MEMBERS}`]),
      ];
      rows.push(
        budgeted(
          '5b',
          'apply --plan of that saved plan',
          emulator,
          applyStarted,
          45,
          full,
          applyChecks,
          `${writes} writes`,
        ),
      );
    });

    await withServiceLimits(data, async (emulator, client) => {
      const started = performance.now();
      const now = Date.now();
      const { plan } = await planWorkspace(
        desired,
        client,
        planWorkspaceOptions({ scoped: { scope: { budget: BUDGET }, clock: { now: () => now }, warnings: [] } }),
      );
      const scope = plan.scope;
      const checks: string[] = [];
      if (scope?.coverage === undefined || scope.unread === 0) checks.push('no rotation: every list was read');
      else {
        // Every list is read within the cycle stated, at the same room.
        const all = keyedPins(desired);
        const room = BUDGET - (plan.requests.used - (scope.lists - scope.unread));
        const covered = new Set<string>();
        for (let day = utcDay(now); day < utcDay(now) + scope.coverage.cycle; day += 1)
          for (const entry of sweepNight(all, room, day).read) covered.add(entry.key);
        if (covered.size !== all.length)
          checks.push(`${scope.coverage.cycle} nights cover ${covered.size} of ${all.length} lists`);
      }
      rows.push(
        budgeted('5c', `plan --budget ${BUDGET}`, emulator, started, BUDGET, full, checks, scopeText(plan) ?? ''),
      );
    });

    await withServiceLimits(data, async (emulator, client) => {
      const started = performance.now();
      let code = 'planned';
      try {
        await planWorkspace(desired, client);
      } catch (error) {
        if (!(error instanceof ViewctlError)) throw error;
        code = error.code;
      }
      const pinned = DOMAINS.reduce(
        (sum, domain) => sum + (emulator.stats().byEndpoint[`GET /v1/${domain}/views/pinned`] ?? 0),
        0,
      );
      const checks = [
        ...(code === 'plan.exceeds-daily-quota' ? [] : [`not refused (${code})`]),
        ...(pinned === 0 ? [] : [`${pinned} pinned lists read`]),
      ];
      rows.push(
        budgeted(
          '5d',
          `full plan of ${lists.toLocaleString('en-US')} lists: refused, 0 pinned lists read`,
          emulator,
          started,
          1 + DOMAINS.length,
          full,
          checks,
          `refused with ${code}`,
        ),
      );
    });
    rows.push(await benchGroup(data, join(dir, 'group'), io));
    return rows;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * benchGroup is the pull request that adds one group document for 50 members who had
 * no tabs of their own in the manifests, planned with `--base`: the users are read once
 * to find the members, then exactly their 50 lists.
 */
async function benchGroup(data: EmulatorData, dir: string, io: CliIo): Promise<BenchRow> {
  const root = join(dir, 'manifests');
  await mkdir(join(root, 'pins'), { recursive: true });
  await writeFile(join(root, 'workspace.yaml'), `kind: Workspace\nworkspaceId: ${data.workspace.id}\n`);
  const git = (...args: string[]): void => {
    execFileSync('git', ['-c', 'user.email=bench@acme.test', '-c', 'user.name=bench', ...args], {
      cwd: dir,
      stdio: 'ignore',
    });
  };
  git('init', '-q');
  git('add', '-A');
  git('commit', '-qm', 'the workspace, no tabs managed yet');
  const members = data.users.filter((user) => user.state === 'Active').slice(0, GROUP_MEMBERS);
  const first = data.views.recordings.find((view) => view.isDefault);
  if (first === undefined) throw new Error('the scaled workspace has no default recording view');
  await writeFile(
    join(root, 'pins', 'sales-team.yaml'),
    `kind: PinnedViews\nname: Sales team\nusers: [${members.map((user) => JSON.stringify(user.email)).join(', ')}]\nrecordings: [${JSON.stringify(first.name)}]\n`,
  );
  const desired = await loadManifestSet([root], io.cwd).then((set) => set.desired);
  let row: BenchRow | undefined;
  await withServiceLimits(data, async (emulator, client) => {
    const started = performance.now();
    const scoped = await resolveScope({ base: 'HEAD' }, [root], io);
    const { plan } = await planWorkspace(desired, client, planWorkspaceOptions({ scoped }));
    const pinned = emulator.stats().byEndpoint['GET /v1/recordings/views/pinned'] ?? 0;
    const checks = [
      ...(pinned === GROUP_MEMBERS ? [] : [`${pinned} pinned lists read, not ${GROUP_MEMBERS}`]),
      ...(plan.scope?.unread === 0 ? [] : [`${plan.scope?.unread ?? '?'} lists left unread`]),
    ];
    const userPages = Math.ceil(data.users.length / 100);
    row = budgeted(
      '5e',
      `PR adding a group document for ${GROUP_MEMBERS} members, plan --base`,
      emulator,
      started,
      70,
      1 + 1 + userPages + GROUP_MEMBERS,
      checks,
      `${plan.summary.pin} pin lists to change`,
    );
  });
  if (row === undefined) throw new Error('the group row did not run');
  return row;
}

function budgeted(
  id: string,
  label: string,
  emulator: RunningEmulator,
  started: number,
  target: number,
  full: number,
  checks: string[],
  detail: string,
): BenchRow {
  return {
    kind: 'budgeted',
    id,
    label,
    wallMs: performance.now() - started,
    requests: emulator.stats().requests,
    targetRequests: target,
    fullPlanRequests: full,
    checks,
    detail,
  };
}

async function withServiceLimits(
  data: EmulatorData,
  body: (emulator: RunningEmulator, client: ReturnType<typeof createServiceClient>) => Promise<void>,
): Promise<void> {
  const emulator = await startEmulator({ data: structuredClone(data), port: 0 });
  try {
    await body(
      emulator,
      createServiceClient({ baseUrl: emulator.url, apiKey: emulator.apiKey, rate: SERVICE_LIMITS.rate }),
    );
  } finally {
    await emulator.close();
  }
}

/**
 * writeRepository commits manifests that match `data` (every active member's tabs by
 * id, two recording views bound by id), then edits them as a pull request would:
 * the two views get an icon, five members' recording tabs are reversed. Returns how
 * many pinned lists the manifests declare.
 */
async function writeRepository(dir: string, data: EmulatorData): Promise<number> {
  const root = join(dir, 'manifests');
  await mkdir(join(root, 'pins'), { recursive: true });
  await mkdir(join(root, 'views'));
  await writeFile(join(root, 'workspace.yaml'), `kind: Workspace\nworkspaceId: ${data.workspace.id}\n`);
  const views = data.views.recordings.filter((view) => view.visibility === 'Public' && !view.isDefault).slice(0, 2);
  for (const view of views)
    await writeFile(
      join(root, 'views', `${view.viewId}.yaml`),
      `kind: RecordingView\nname: ${JSON.stringify(view.name)}\nviewId: ${view.viewId}\n`,
    );
  const active = data.users.filter((user) => user.state === 'Active').sort((a, b) => a.email.localeCompare(b.email));
  let lists = 0;
  for (const user of active) {
    const lines = ['kind: PinnedViews', `userEmail: ${user.email}`];
    for (const domain of DOMAINS) {
      const ids = data.pinned[domain][user.id] ?? [];
      if (ids.length === 0) continue;
      lines.push(`${domain}: [${ids.map((id) => `{viewId: ${id}}`).join(', ')}]`);
      lists += 1;
    }
    // A member without tabs of their own keeps the defaults: no document.
    if (lines.length > 2) await writeFile(join(root, 'pins', `${user.id}.yaml`), `${lines.join('\n')}\n`);
  }
  const git = (...args: string[]): void => {
    execFileSync('git', ['-c', 'user.email=bench@acme.test', '-c', 'user.name=bench', ...args], {
      cwd: dir,
      stdio: 'ignore',
    });
  };
  git('init', '-q');
  git('add', '-A');
  git('commit', '-qm', 'manifests that match the workspace');
  for (const view of views) {
    const file = join(root, 'views', `${view.viewId}.yaml`);
    await writeFile(file, `${await readFile(file, 'utf8')}icon: ${view.icon === 'star' ? 'tv' : 'star'}\n`);
  }
  const changed = active.filter((user) => (data.pinned.recordings[user.id] ?? []).length >= 2).slice(0, PR_MEMBERS);
  for (const user of changed) {
    const ids = [...(data.pinned.recordings[user.id] ?? [])].reverse();
    const file = join(root, 'pins', `${user.id}.yaml`);
    const text = await readFile(file, 'utf8');
    await writeFile(
      file,
      text.replace(/^recordings: .*$/m, `recordings: [${ids.map((id) => `{viewId: ${id}}`).join(', ')}]`),
    );
  }
  return lists;
}
