import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { loadManifestSet } from '../../src/flows/manifest-set.js';
import type { ApiUser, ApiView } from '../../src/domain/api-types.js';
import { DOMAINS, isDomain } from '../../src/domain/domains.js';
import type { Desired } from '../../src/domain/desired.js';
import type { EmulatorData } from '../../src/emulator/model.js';
import { planWorkspace } from '../../src/flows/plan-workspace.js';
import { keyedPins } from '../../src/plan/desired-values.js';
import type { ServiceClient, ServiceRequest } from '../../src/service/types.js';
import { emptyMemory, type SweepMemory } from '../../src/state/sweep-memory.js';

/**
 * Nights of organisational life under the nightly sweep (README, "The nightly sweep's
 * promise"): a workspace whose members leave, join and change role every day, and a
 * `plan --budget N` through planWorkspace each night, with a moving clock, against an
 * in-process service over the workspace's data (no rate limits, no HTTP: what is
 * measured is which lists are read, not how fast). With `memory`, the memory each night
 * builds is what the nights before read (lastRead of every list read). Shared by the
 * bench row and the test that holds the promise (test/plan/sweep-nights.test.ts).
 */

/**
 * loadGroupManifests writes and loads the manifests: the workspace and one group
 * document per domain by role, so joiners and role changes reach lists with no
 * manifest edit. Companies tabs go to members only: a member made admin loses that
 * list, an admin made member gains one.
 */
export async function loadGroupManifests(data: EmulatorData, dir: string): Promise<Desired> {
  await mkdir(join(dir, 'pins'), { recursive: true });
  await writeFile(join(dir, 'workspace.yaml'), `kind: Workspace\nworkspaceId: ${data.workspace.id}\n`);
  for (const domain of DOMAINS) {
    const first = data.views[domain].find((view) => view.isDefault);
    if (first === undefined) throw new Error(`no default ${domain} view`);
    const roles = domain === 'companies' ? '[Member]' : '[Owner, Admin, Member]';
    await writeFile(
      join(dir, 'pins', `${domain}.yaml`),
      `kind: PinnedViews\nname: Everyone's ${domain}\nroles: ${roles}\n${domain}: [${JSON.stringify(first.name)}]\n`,
    );
  }
  return loadManifestSet([dir], dir).then((set) => set.desired);
}

/** SweepNightsOptions shape the run. */
export interface SweepNightsOptions {
  data: EmulatorData;
  desired: Desired;
  nights: number;
  budget: number;
  withMemory: boolean;
  /** Members changing a day: one leaves, one joins, the rest change role (Member ↔ Admin). */
  changesPerDay: number;
  /** Seed of who leaves and who changes role. */
  seed?: number;
}

/** SweepNightsReport is what the nights measured. */
export interface SweepNightsReport {
  /** The largest cycle any night stated, and the smallest. */
  statedMost: number;
  statedLeast: number;
  /** The longest wait between two reads of a list, in nights. */
  worstGap: number;
  /** Waits longer than the cycles stated on the nights between, with no night saying so (overdue). */
  silentBreaks: string[];
  /** Nights until every list that existed on the first night was read. */
  firstCover: number;
  /** Per joiner or member a role newly reached: the night they were reached, and sweeps until their new lists were all read (1: that night). */
  joinerWaits: { night: number; wait: number }[];
  /** Joiners whose lists were still unread at the end. */
  joinersPending: number;
  /** Requests per night, least and most; lists read per night, least. */
  requestsLeast: number;
  requestsMost: number;
  readLeast: number;
  /** Whether every night read exactly min(room, lists). */
  filled: boolean;
  lists: number;
  activeMembers: number;
  lastText: string;
  nightsOverdue: number;
}

const DAY_MS = 86_400_000;
const START = Date.UTC(2026, 3, 1, 2, 0, 0);

/** runSweepNights runs the nights and measures them. */
export async function runSweepNights(options: SweepNightsOptions): Promise<SweepNightsReport> {
  const data = structuredClone(options.data);
  const service = memoryService(data);
  const random = seeded(options.seed ?? 25);
  const memory: SweepMemory | undefined = options.withMemory ? emptyMemory() : undefined;
  const lastRead = new Map<string, number>();
  const firstSeen = new Map<string, number>();
  const stated: { cycle: number; overdue: number }[] = [];
  const report: SweepNightsReport = {
    statedMost: 0,
    statedLeast: Infinity,
    worstGap: 0,
    silentBreaks: [],
    firstCover: -1,
    joinerWaits: [],
    joinersPending: 0,
    requestsLeast: Infinity,
    requestsMost: 0,
    readLeast: Infinity,
    filled: true,
    lists: 0,
    activeMembers: 0,
    lastText: '',
    nightsOverdue: 0,
  };
  // Lists a joiner or a role change newly reached, by member and night, until read.
  const pending = new Map<string, { night: number; keys: Set<string> }>();
  let firstLists: Set<string> | undefined;
  let joined = 0;
  for (let night = 0; night < options.nights; night += 1) {
    const before = new Set(keyedPins(options.desired, data.users).map((entry) => entry.key));
    if (night > 0) churn(data, options.changesPerDay, random, () => (joined += 1));
    const lists = keyedPins(options.desired, data.users);
    const keys = new Set(lists.map((entry) => entry.key));
    for (const key of keys) {
      if (!firstSeen.has(key)) firstSeen.set(key, night);
      if (night > 0 && !before.has(key)) {
        const member = key.slice(key.indexOf(':') + 1);
        const entry = pending.get(member) ?? { night, keys: new Set<string>() };
        entry.keys.add(key);
        pending.set(member, entry);
      }
    }
    // A list gone (its member left or changed role) starts afresh if it comes back.
    for (const key of [...lastRead.keys()]) if (!keys.has(key)) lastRead.delete(key);
    firstLists ??= new Set(keys);
    for (const key of [...firstLists]) if (!keys.has(key)) firstLists.delete(key);

    service.reset();
    const clock = { now: () => START + night * DAY_MS };
    const { plan, live } = await planWorkspace(options.desired, service.client, {
      scope: { budget: options.budget },
      clock,
      ...(memory === undefined ? {} : { memory }),
    });
    const read = Object.keys(live.pins);
    const coverage = plan.scope?.coverage;
    const cycle = coverage?.cycle ?? 1;
    stated.push({ cycle, overdue: coverage?.overdue ?? 0 });
    if ((coverage?.overdue ?? 0) > 0) report.nightsOverdue += 1;
    report.statedMost = Math.max(report.statedMost, cycle);
    report.statedLeast = Math.min(report.statedLeast, cycle);
    const requests = service.requests();
    report.requestsLeast = Math.min(report.requestsLeast, requests);
    report.requestsMost = Math.max(report.requestsMost, requests);
    report.readLeast = Math.min(report.readLeast, read.length);
    const room = options.budget - (requests - read.length);
    if (read.length !== Math.min(room, keys.size)) report.filled = false;
    for (const key of read) {
      const last = lastRead.get(key);
      if (last !== undefined) {
        const gap = night - last;
        report.worstGap = Math.max(report.worstGap, gap);
        const promised = Math.max(...stated.slice(last + 1).map((entry) => entry.cycle));
        const said = stated.slice(last + 1).some((entry) => entry.overdue > 0);
        if (gap > promised && !said)
          report.silentBreaks.push(`${key}: read on nights ${last} and ${night}, ${promised} promised`);
      }
      lastRead.set(key, night);
      firstLists.delete(key);
      if (memory !== undefined) memory.lists[key] = { lastRead: new Date(clock.now()).toISOString(), viewIds: [] };
    }
    // The members as this night saw them, as the memory keeps them.
    if (memory !== undefined)
      for (const user of live.users ?? [])
        memory.members[user.email.toLowerCase()] = {
          role: user.role,
          state: user.state,
          lastSeen: new Date(clock.now()).toISOString(),
        };
    if (firstLists.size === 0 && report.firstCover < 0) report.firstCover = night + 1;
    for (const [member, entry] of pending) {
      for (const key of read) entry.keys.delete(key);
      for (const key of [...entry.keys]) if (!keys.has(key)) entry.keys.delete(key);
      if (entry.keys.size === 0) {
        report.joinerWaits.push({ night: entry.night, wait: night - entry.night + 1 });
        pending.delete(member);
      }
    }
    report.lists = keys.size;
    report.activeMembers = data.users.filter((user) => user.state === 'Active').length;
    report.lastText = plan.scope === undefined ? '' : JSON.stringify(plan.scope.coverage);
  }
  report.joinersPending = pending.size;
  return report;
}

/** churn changes `count` members: one leaves, one joins, the rest change role. */
function churn(data: EmulatorData, count: number, random: () => number, nextJoiner: () => number): void {
  const active = (): ApiUser[] => data.users.filter((user) => user.state === 'Active' && user.role !== 'Owner');
  const leaver = pick(active(), random);
  if (leaver !== undefined) leaver.state = 'Deactivated';
  const serial = nextJoiner();
  data.users.push({
    id: `u_new_${serial}`,
    email: `new${serial}@acme.test`,
    name: `New ${serial}`,
    license: 'Full',
    role: 'Member',
    state: 'Active',
    isDesktopAppInstalled: false,
    isMobileAppInstalled: false,
  });
  for (let change = 2; change < count; change += 1) {
    const member = pick(active(), random);
    if (member !== undefined) member.role = member.role === 'Admin' ? 'Member' : 'Admin';
  }
}

function pick<T>(items: readonly T[], random: () => number): T | undefined {
  return items[Math.floor(random() * items.length)];
}

/** seeded is a small deterministic generator (mulberry32). */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/**
 * memoryService answers the reads a plan sends (the workspace, the users by page, the
 * view listings, the automations, a member's pinned list) from `data` as it is at each
 * request, and counts them.
 */
function memoryService(data: EmulatorData): { client: ServiceClient; requests: () => number; reset: () => void } {
  let requests = 0;
  const client: ServiceClient = {
    async request<T>(request: ServiceRequest): Promise<T> {
      requests += 1;
      const { route } = request;
      if (route === '/v1/workspaces/mine') {
        return {
          workspace: { ...data.workspace, membersCount: data.users.filter((user) => user.state === 'Active').length },
        } as T;
      }
      if (route === '/v1/admin-automations') return [] as T;
      if (route === '/v1/users') {
        const offset = Number(request.query?.cursor ?? 0);
        const limit = Number(request.query?.limit ?? 100);
        const next = offset + limit;
        return {
          users: data.users.slice(offset, next),
          pagination: {
            totalCount: data.users.length,
            ...(next < data.users.length ? { nextCursor: String(next) } : {}),
          },
        } as T;
      }
      const [, , domain = '', , pinned] = route.split('/');
      if (!isDomain(domain)) throw new Error(`unexpected ${route}`);
      const views = data.views[domain];
      if (pinned !== 'pinned')
        return [
          ...views.filter((view) => view.visibility === 'Public' && !view.isDefault),
          ...views.filter((view) => view.isDefault),
        ] as T;
      const email = String(request.query?.userEmail).toLowerCase();
      const user = data.users.find(
        (candidate) => candidate.email.toLowerCase() === email && candidate.state === 'Active',
      );
      // Group documents reach active members only: a pinned read of anyone else is the bench's bug.
      if (user === undefined) throw new Error(`${email} is not an active member`);
      const ids = data.pinned[domain][user.id];
      const byId = new Map(views.map((view) => [view.viewId, view]));
      return (
        ids === undefined
          ? views.filter((view) => view.isDefault)
          : ids.map((id) => byId.get(id)).filter((view): view is ApiView => view !== undefined)
      ) as T;
    },
    stats: () => ({ requests, retries: 0, rateLimited: 0, dailyRemaining: null }),
  };
  return {
    client,
    requests: () => requests,
    reset: () => {
      requests = 0;
    },
  };
}
