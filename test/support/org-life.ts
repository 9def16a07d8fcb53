import { execFile } from 'node:child_process';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import type { ApiUser, ApiView, JsonObject } from '../../src/domain/api-types.js';
import { demoWorkspace } from '../../src/emulator/demo/demo-workspace.js';
import type { EmulatorData } from '../../src/emulator/model.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/server.js';
import { DAY_MS } from '../../src/emulator/time.js';
import { createRng } from '../../src/emulator/rng.js';

/**
 * The life of a small organisation over the emulator, for the simulated days of
 * test/e2e/org-life.test.ts (README, "Living with an organisation"): a seeded,
 * deterministic workspace of 40 members in which people make private views and pin
 * them, swap and unpin tabs, an admin renames and edits shared views and deletes one,
 * members leave, join and change role, while pull requests change the manifests in a
 * real git repository. Everything a member can do through the API is done through it
 * (tabs, renames, edits, deletions); what the API cannot do (a private view, a member
 * leaving, joining or changing role) is done to the emulator's model, which restarts
 * on the changed workspace.
 */

const run = promisify(execFile);

/** FAST_LIMITS are the emulator's limits raised: the days are not about the quota. */
const FAST_LIMITS = { rate: 1000, burst: 1000, quota: 1_000_000 } as const;

/** SIM_START is midnight UTC of the first simulated day. */
export const SIM_START = Date.parse('2026-12-01T00:00:00Z');

/** dayOf is the UTC date (YYYY-MM-DD) of simulated day `day` (0 is SIM_START). */
export function dayOf(day: number): string {
  return new Date(SIM_START + day * DAY_MS).toISOString().slice(0, 10);
}

/** seeded is a small deterministic generator (the emulator's mulberry32): the same seed, the same organisation and the same days. */
export function seeded(seed: number): { next(): number; int(below: number): number; pick<T>(items: readonly T[]): T } {
  const { next } = createRng(seed);
  const int = (below: number): number => Math.floor(next() * below);
  return {
    next,
    int,
    pick: <T>(items: readonly T[]): T => {
      const item = items[int(items.length)];
      if (item === undefined) throw new Error('pick from an empty list');
      return item;
    },
  };
}

/** SimDomain is one of the two domains the organisation's manifests manage; SIM_DOMAINS lists both. */
export type SimDomain = 'recordings' | 'deals';
export const SIM_DOMAINS: readonly SimDomain[] = ['recordings', 'deals'];

function member(id: string, email: string, role: ApiUser['role'] = 'Member'): ApiUser {
  return {
    id,
    email,
    name: email.split('@')[0] ?? id,
    license: 'Full',
    role,
    state: 'Active',
    isDesktopAppInstalled: true,
    isMobileAppInstalled: false,
  };
}

/**
 * organisation is the demo workspace grown to 40 members: the demo's nine, 16 sales reps
 * (`rep.NN@sales.acme.test`, reached by the sales group's glob), 10 customer success
 * managers and 5 in operations (one an Admin). Reps and managers start with tabs of
 * their own, and every fifth a private view pinned first.
 */
export function organisation(): EmulatorData {
  const data = demoWorkspace();
  const random = seeded(25);
  const add = (user: ApiUser): void => {
    data.users.push(user);
  };
  for (let n = 1; n <= 16; n += 1) add(member(`u_rep_${pad(n)}`, `rep.${pad(n)}@sales.acme.test`));
  for (let n = 1; n <= 10; n += 1) add(member(`u_csm_${pad(n)}`, `csm.${pad(n)}@cs.acme.test`));
  for (let n = 1; n <= 5; n += 1)
    add(member(`u_ops_${pad(n)}`, `ops.${pad(n)}@ops.acme.test`, n === 1 ? 'Admin' : 'Member'));
  const publicIds = (domain: SimDomain): string[] =>
    data.views[domain].filter((view) => view.visibility === 'Public').map((view) => view.viewId);
  for (const [index, user] of data.users.entries()) {
    if (!user.id.startsWith('u_rep_') && !user.id.startsWith('u_csm_')) continue;
    for (const domain of SIM_DOMAINS) {
      if (domain === 'deals' && !user.id.startsWith('u_rep_')) continue;
      const candidates = publicIds(domain);
      const tabs = [
        candidates[random.int(candidates.length)] ?? '',
        candidates[random.int(candidates.length)] ?? '',
      ].filter((id, at, all) => all.indexOf(id) === at);
      if (index % 5 === 0) {
        const own = privateView(data, domain, user.id, `${user.name}'s ${domain}`);
        tabs.unshift(own.viewId);
      }
      data.pinned[domain][user.id] = tabs;
    }
  }
  return data;
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

/**
 * privateView adds a private view of `ownerId` to the model and returns it (the API
 * makes only public views). Its id comes from a counter kept in the workspace, so two
 * runs of the same days make the same ids.
 */
function privateView(data: EmulatorData, domain: SimDomain, ownerId: string, name: string): ApiView {
  const serial = data.nextIds['sim:private'] ?? 1;
  data.nextIds['sim:private'] = serial + 1;
  const view: ApiView = {
    viewId: `${domain === 'recordings' ? 'rv' : 'dv'}_private_${String(serial)}`,
    name,
    visibility: 'Private',
    isDefault: false,
    ownerId,
    columns: [],
    filters: {},
    sort: [],
  };
  data.views[domain].push(view);
  return view;
}

/** Files are files of the manifests' repository, text by path relative to its root. */
type Files = Record<string, string>;

/**
 * initialManifests are the organisation's manifests on day 0, `prune: owned`: six
 * declared views (two domains; no pins document names SDR coaching), three group documents (Members' and Admins' recordings tabs by role, the
 * sales reps' deal tabs by glob) and per-member documents for Mia, Noah, Lena and Sam.
 */
export async function initialManifests(examples: string): Promise<Files> {
  const example = (path: string): Promise<string> => readFile(join(examples, path), 'utf8');
  return {
    // prune: owned: the views Adam (creatorEmail) owns that no manifest declares are viewctl's to delete.
    'manifests/workspace.yaml':
      'kind: Workspace\nworkspaceId: ws_acme\ncreatorEmail: adam.reyes@acme.test\nprune: owned\n',
    'manifests/views/customer-calls.yaml': await example('views/recordings/customer-calls.yaml'),
    'manifests/views/zoom-and-meet-calls.yaml': await example('views/recordings/zoom-and-meet-calls.yaml'),
    'manifests/views/deals-at-risk.yaml': await example('views/recordings/deals-at-risk.yaml'),
    'manifests/views/sdr-coaching.yaml': await example('views/recordings/sdr-coaching.yaml'),
    'manifests/views/big-renewals.yaml': await example('views/deals/big-renewals.yaml'),
    'manifests/views/pipeline-review.yaml': await example('views/deals/pipeline-review.yaml'),
    'manifests/pins/members-recordings.yaml':
      'kind: PinnedViews\nname: Member recordings tabs\nroles: [Member]\nrecordings:\n  - Zoom and Meet calls\n  - All recordings\n',
    'manifests/pins/admin-recordings.yaml':
      'kind: PinnedViews\nname: Admin recordings tabs\nroles: [Owner, Admin]\nrecordings:\n  - Customer calls\n  - Deals at risk\n  - All recordings\n',
    'manifests/pins/sales-deals.yaml':
      'kind: PinnedViews\nname: Sales deal tabs\nusers: ["*@sales.acme.test"]\ndeals:\n  - Pipeline review\n  - Big renewals\n  - All deals\n',
    'manifests/pins/mia.yaml':
      'kind: PinnedViews\nuserEmail: mia.chen@acme.test\nrecordings:\n  - {viewId: rv_mia_followups}\n  - Customer calls\n  - All recordings\n',
    'manifests/pins/noah.yaml':
      'kind: PinnedViews\nuserEmail: noah.patel@acme.test\ndeals:\n  - {viewId: dv_noah_focus}\n  - Pipeline review\n  - All deals\n',
    'manifests/pins/lena.yaml':
      'kind: PinnedViews\nuserEmail: lena.fischer@acme.test\ndeals:\n  - Big renewals\n  - All deals\n',
    'manifests/pins/sam.yaml':
      'kind: PinnedViews\nuserEmail: sam.okafor@acme.test\nrecordings:\n  - Deals at risk\n  - All recordings\ndeals:\n  - Pipeline review\n  - All deals\n',
  };
}

/** GitRepo is the manifests' repository: a real git repository in a temporary folder, on branch main. */
export class GitRepo {
  constructor(readonly root: string) {}

  /** git runs a git command in the repository and returns its trimmed output. */
  async git(...args: string[]): Promise<string> {
    const { stdout } = await run(
      'git',
      ['-c', 'user.email=ci@acme.test', '-c', 'user.name=CI', '-c', 'init.defaultBranch=main', ...args],
      { cwd: this.root },
    );
    return stdout.trim();
  }

  /** init makes the repository with `files` committed on main. */
  async init(files: Files): Promise<void> {
    await this.git('init', '-q');
    await this.writeAll(files);
    await this.git('add', '-A');
    await this.git('commit', '-qm', "day 0: the organisation's manifests");
  }

  async writeAll(files: Files): Promise<void> {
    for (const [path, text] of Object.entries(files)) {
      const target = join(this.root, path);
      await mkdir(dirname(target), { recursive: true });
      await writeFile(target, text);
    }
  }

  async read(path: string): Promise<string> {
    return readFile(join(this.root, path), 'utf8');
  }

  /** edit rewrites one file of the checked-out branch with `change`. */
  async edit(path: string, change: (text: string) => string): Promise<void> {
    const before = await this.read(path);
    const after = change(before);
    if (after === before) throw new Error(`the edit of ${path} changed nothing`);
    await writeFile(join(this.root, path), after);
  }

  async remove(path: string): Promise<void> {
    await rm(join(this.root, path));
  }

  async head(ref = 'HEAD'): Promise<string> {
    return this.git('rev-parse', ref);
  }

  /** pullRequest branches `name` off main, lets `change` edit the files, and commits: the branch is left checked out. */
  async pullRequest(name: string, change: (repo: GitRepo) => Promise<void>): Promise<void> {
    await this.git('checkout', '-q', '-b', name, 'main');
    await change(this);
    await this.git('add', '-A');
    await this.git('commit', '-qm', name);
  }

  async checkout(ref: string): Promise<void> {
    await this.git('checkout', '-q', ref);
  }

  /** merge merges branch `name` into main (a merge commit, as a pull request's merge button makes) and leaves main checked out. */
  async merge(name: string): Promise<void> {
    await this.checkout('main');
    await this.git('merge', '-q', '--no-ff', '-m', `Merge ${name}`, name);
  }
}

/**
 * LiveWorkspace is the emulator serving the organisation on a free loopback port, with
 * a clock the test moves. Model edits (what the API cannot do) restart it on the
 * changed workspace; its URL changes then, so callers take `env` afresh.
 */
export class LiveWorkspace {
  private emulator: RunningEmulator | undefined;
  /** The simulated time, epoch ms: the emulator's clock. */
  now = SIM_START;

  constructor(private data: EmulatorData) {}

  async start(): Promise<void> {
    this.emulator = await startEmulator({ data: this.data, port: 0, ...FAST_LIMITS, now: () => this.now });
  }

  private get running(): RunningEmulator {
    if (this.emulator === undefined) throw new Error('the emulator is not running');
    return this.emulator;
  }

  /** env is what the CLI needs to reach the emulator. */
  get env(): Record<string, string> {
    return { VIEWCTL_BASE_URL: this.running.url, VIEWCTL_API_KEY: this.running.apiKey };
  }

  snapshot(): EmulatorData {
    return this.running.snapshot();
  }

  /** edit changes the model as the app does where the API cannot (a private view, a member leaving or joining): stop, change, restart. */
  async edit(change: (data: EmulatorData) => void): Promise<void> {
    const data = this.snapshot();
    change(data);
    await this.running.close();
    this.data = data;
    await this.start();
  }

  async close(): Promise<void> {
    await this.emulator?.close();
  }

  /** api sends one request as a member's app does, and returns `result`; a refusal throws (the day's script is wrong). */
  async api(method: string, path: string, body?: JsonObject): Promise<unknown> {
    const response = await fetch(`${this.running.url}${path}`, {
      method,
      headers: {
        'X-Service-Key': this.running.apiKey,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const answer = (await response.json()) as { result?: unknown; error?: unknown };
    if (response.status !== 200)
      throw new Error(`${method} ${path} answered ${String(response.status)}: ${JSON.stringify(answer)}`);
    return answer.result;
  }

  /** pinned is a member's tabs as the app shows them (ids, in order). */
  async pinned(domain: SimDomain, email: string): Promise<string[]> {
    const views = (await this.api(
      'GET',
      `/v1/${domain}/views/pinned?userEmail=${encodeURIComponent(email)}`,
    )) as ApiView[];
    return views.map((view) => view.viewId);
  }

  async setPinned(domain: SimDomain, email: string, viewIds: string[]): Promise<void> {
    await this.api('PUT', `/v1/${domain}/views/pinned?userEmail=${encodeURIComponent(email)}`, { viewIds });
  }
}

/** AppEvent is one thing people did in the app on a day, as the day's log says it. */
export interface AppEvent {
  who: string;
  what: string;
  /** The target it changed, as plans name targets (`pins:domain:email`, `view:domain:id:ID`), and when (the simulated time). */
  target?: string;
  at: number;
}

/**
 * Organisation is the world of the simulated days: the live workspace, the members'
 * private views and tabs (what must never be lost), and what people did each day.
 */
export class Organisation {
  /** The private views people made, with the list their owner pinned them to. */
  readonly privates: { domain: SimDomain; viewId: string; ownerId: string }[] = [];
  readonly log: AppEvent[] = [];
  private readonly random = seeded(2025);

  constructor(readonly live: LiveWorkspace) {
    for (const domain of SIM_DOMAINS) {
      for (const view of live.snapshot().views[domain]) {
        if (view.visibility === 'Private') this.privates.push({ domain, viewId: view.viewId, ownerId: view.ownerId });
      }
    }
  }

  /** activeMembers are the active members with the Member role, the ones who make and move tabs in this world. */
  activeMembers(): ApiUser[] {
    return this.live.snapshot().users.filter((user) => user.state === 'Active' && user.role === 'Member');
  }

  /**
   * appChurn is a day of ordinary use: two members each make a private view and pin it
   * at the end of their tabs, two swap their first two tabs, one unpins a public tab.
   * Returns the members who touched their tabs, by list key (`domain:email`).
   */
  async appChurn(day: number): Promise<string[]> {
    const touched: string[] = [];
    const makers = [this.random.pick(this.activeMembers()), this.random.pick(this.activeMembers())];
    const made: { domain: SimDomain; user: ApiUser; view: ApiView }[] = [];
    await this.live.edit((data) => {
      for (const [index, user] of makers.entries()) {
        const domain = SIM_DOMAINS[index % 2] ?? 'recordings';
        const view = privateView(data, domain, user.id, `${user.name}'s day ${String(day)} ${domain}`);
        made.push({ domain, user, view });
      }
    });
    for (const { domain, user, view } of made) {
      const tabs = await this.live.pinned(domain, user.email);
      await this.live.setPinned(domain, user.email, [...tabs, view.viewId]);
      this.privates.push({ domain, viewId: view.viewId, ownerId: user.id });
      this.log.push({
        who: user.email,
        what: `made the private ${domain} view ${view.viewId} and pinned it last`,
        target: `pins:${domain}:${user.email}`,
        at: this.live.now,
      });
      touched.push(`${domain}:${user.email}`);
    }
    for (let n = 0; n < 2; n += 1) {
      const user = this.random.pick(this.activeMembers());
      const domain = this.random.pick(SIM_DOMAINS);
      const tabs = await this.live.pinned(domain, user.email);
      if (tabs.length < 2) continue;
      const [first = '', second = '', ...rest] = tabs;
      await this.live.setPinned(domain, user.email, [second, first, ...rest]);
      this.log.push({
        who: user.email,
        what: `swapped their first two ${domain} tabs`,
        target: `pins:${domain}:${user.email}`,
        at: this.live.now,
      });
      touched.push(`${domain}:${user.email}`);
    }
    const unpinner = this.random.pick(this.activeMembers());
    const domain = this.random.pick(SIM_DOMAINS);
    const tabs = await this.live.pinned(domain, unpinner.email);
    const views = this.live.snapshot().views[domain];
    const publicTab = tabs.find((id) => views.find((view) => view.viewId === id)?.visibility === 'Public');
    if (tabs.length >= 2 && publicTab !== undefined) {
      await this.live.setPinned(
        domain,
        unpinner.email,
        tabs.filter((id) => id !== publicTab),
      );
      this.log.push({
        who: unpinner.email,
        what: `unpinned ${publicTab} from their ${domain} tabs`,
        target: `pins:${domain}:${unpinner.email}`,
        at: this.live.now,
      });
      touched.push(`${domain}:${unpinner.email}`);
    }
    return touched;
  }

  /** renameView renames a shared view in the app (an admin's PATCH). */
  async renameView(domain: SimDomain, viewId: string, name: string): Promise<void> {
    await this.live.api('PATCH', `/v1/${domain}/views/${viewId}`, { name });
    this.log.push({
      who: 'adam.reyes@acme.test',
      what: `renamed ${viewId} to "${name}"`,
      target: `view:${domain}:id:${viewId}`,
      at: this.live.now,
    });
  }

  /** editView changes attributes of a shared view in the app. */
  async editView(domain: SimDomain, viewId: string, body: JsonObject): Promise<void> {
    await this.live.api('PATCH', `/v1/${domain}/views/${viewId}`, body);
    this.log.push({
      who: 'adam.reyes@acme.test',
      what: `edited ${Object.keys(body).join(', ')} of ${viewId}`,
      target: `view:${domain}:id:${viewId}`,
      at: this.live.now,
    });
  }

  /** createView makes a public view in the app as `creatorEmail` (an admin's quick board). */
  async createView(domain: SimDomain, creatorEmail: string, name: string): Promise<string> {
    const view = (await this.live.api('POST', `/v1/${domain}/views`, { creatorEmail, name })) as ApiView;
    this.log.push({
      who: creatorEmail,
      what: `made the public ${domain} view ${view.viewId} "${name}"`,
      target: `view:${domain}:id:${view.viewId}`,
      at: this.live.now,
    });
    return view.viewId;
  }

  /** deleteView deletes a shared view in the app: the service unpins it everywhere. */
  async deleteView(domain: SimDomain, viewId: string): Promise<void> {
    await this.live.api('DELETE', `/v1/${domain}/views/${viewId}`);
    this.log.push({
      who: 'adam.reyes@acme.test',
      what: `deleted ${viewId}`,
      target: `view:${domain}:id:${viewId}`,
      at: this.live.now,
    });
  }

  /** leave deactivates a member, as an admin does when someone leaves. */
  async leave(email: string): Promise<void> {
    await this.live.edit((data) => {
      const user = findUser(data, email);
      user.state = 'Deactivated';
      user.license = 'None';
    });
    this.log.push({ who: email, what: 'left (deactivated)', at: this.live.now });
  }

  /** join adds an active Member who never changed their tabs (the domain's defaults). */
  async join(id: string, email: string): Promise<void> {
    await this.live.edit((data) => {
      data.users.push(member(id, email));
    });
    this.log.push({ who: email, what: 'joined', at: this.live.now });
  }

  /** promote gives a member another role. */
  async promote(email: string, role: ApiUser['role']): Promise<void> {
    await this.live.edit((data) => {
      findUser(data, email).role = role;
    });
    this.log.push({ who: email, what: `became ${role}`, at: this.live.now });
  }

  /** lastChanged is when people last changed `target` in the app, or undefined when they never did. */
  lastChanged(target: string): number | undefined {
    const times = this.log.filter((event) => event.target === target).map((event) => event.at);
    return times.length === 0 ? undefined : Math.max(...times);
  }

  /**
   * lostPrivates lists what people made that is gone: a private view no longer in the
   * workspace, or no longer pinned by its owner (no manifest here says unpinPrivate).
   * Leavers' lists are kept by the service as they were, so they are checked too.
   */
  lostPrivates(): string[] {
    const data = this.live.snapshot();
    const lost: string[] = [];
    for (const { domain, viewId, ownerId } of this.privates) {
      if (!data.views[domain].some((view) => view.viewId === viewId))
        lost.push(`${domain} view ${viewId} of ${ownerId} deleted`);
      else if (!(data.pinned[domain][ownerId] ?? []).includes(viewId))
        lost.push(`${domain} tab ${viewId} unpinned from ${ownerId}`);
    }
    return lost;
  }
}

function findUser(data: EmulatorData, email: string): ApiUser {
  const user = data.users.find((candidate) => candidate.email === email);
  if (user === undefined) throw new Error(`no member ${email}`);
  return user;
}

/** PINNED_READ matches a `--verbose` line of a pinned-list read: domain and member. */
const PINNED_READ = /^GET \/v1\/(\w+)\/views\/pinned\?userEmail=([^ ]+) 200/gm;

/** pinnedReads are the lists (`domain:email`) a `--verbose` run read. */
export function pinnedReads(stderr: string): string[] {
  return [...stderr.matchAll(PINNED_READ)].map((match) => `${match[1] ?? ''}:${decodeURIComponent(match[2] ?? '')}`);
}
