import { createRng } from '../../src/emulator/rng.js';
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ApiUser, ApiView } from '../../src/domain/api-types.js';
import { scaledWorkspace } from '../../src/emulator/demo/scaled-workspace.js';
import { driftGroups } from '../../src/plan/drift-causes.js';
import type { Plan } from '../../src/plan/types.js';
import type { SweepMemory } from '../../src/state/sweep-memory.js';
import { exampleRepository, git, simulatedDays } from '../e2e/days.js';
import { LiveWorkspace } from '../support/org-life.js';

/**
 * The simulated month (issue 33 item 8): D days of an organisation of M members run as
 * the shipped workflows run the product, through the built CLI's run() with its clock
 * set to each day, against the emulator. Each day members leave and join (joiners are
 * reached by the sales group), members re-order their tabs in the app, an admin edits a
 * declared view (and deletes one on day 12, while `creatorEmail` is commented out as
 * export writes it, until a pull request names it on day 14), one to three pull
 * requests are planned (`plan --base main`, given a copy of the memory), merged and
 * applied (`apply --base HEAD^1 --ledger`; an apply refused past `--max-pin-changes`
 * applied again with the limit its refusal names, as a team that reviewed the lists
 * does, and listed), and the nightly reports
 * (`plan --budget 1000 --ledger --detailed-exitcode`, report only, as the drift
 * workflow runs it). Prints: broken plans, joiners' days to their tabs, the stated vs
 * measured sweep cycle, drift found and how it was labelled, requests on the busiest
 * day, anything lost.
 *
 * `node --import tsx test/bench/month.ts [--days 30] [--members 1000]` after
 * `npm run build`, or `npm run bench -- --month`.
 */

/** MonthOptions: how many days and members, and where progress lines go. */
export interface MonthOptions {
  days: number;
  members: number;
  log: (line: string) => void;
}

const LEDGER = '.viewctl/ledger.json';
const SALES_TABS = ['dv_pipeline_review', 'dv_big_renewals'];
const FIRST = '2026-12-01T06:00:00.000Z';

/** seeded is a small deterministic generator: the month is the same every run. */
function seeded(seed: number): { int(below: number): number; pick<T>(items: readonly T[]): T } {
  const { next } = createRng(seed);
  return {
    int: (below) => Math.floor(next() * below),
    pick: (items) => {
      const item = items[Math.floor(next() * items.length)];
      if (item === undefined) throw new Error('pick from nothing');
      return item;
    },
  };
}

/** MonthReport is what the month measured. */
export interface MonthReport {
  days: number;
  members: number;
  lists: number;
  broken: string[];
  /** Each joiner: the day they joined, the day their deals tabs were the group's, the day they left again. */
  joiners: { email: string; joined: number; tabsOn?: number; left?: number }[];
  statedCycle: number;
  measuredCycle: number;
  drift: Map<string, number>;
  requestsByDay: number[];
  lost: string[];
  /** Each merged pull request's apply refused (exit 3): the day, the code, and what the team did. */
  refused: string[];
  seconds: number;
}

/** runMonth runs the month and answers its report. */
export async function runMonth(options: MonthOptions): Promise<MonthReport> {
  const started = Date.now();
  const random = seeded(33);
  const root = await mkdtemp(join(tmpdir(), 'viewctl-month-'));
  const days = simulatedDays(FIRST);
  const data = scaledWorkspace(options.members);
  const privates = Object.entries(data.views).flatMap(([domain, views]) =>
    (views as ApiView[]).flatMap((view) =>
      view.visibility === 'Private' ? [{ domain, viewId: view.viewId, ownerId: view.ownerId }] : [],
    ),
  );
  const live = new LiveWorkspace(data);
  const report: MonthReport = {
    days: options.days,
    members: options.members,
    lists: 0,
    broken: [],
    joiners: [],
    statedCycle: 0,
    measuredCycle: 0,
    drift: new Map(),
    requestsByDay: [],
    lost: [],
    refused: [],
    seconds: 0,
  };
  const lastRead = new Map<string, number>();
  const gaps = new Map<string, number>();
  try {
    await exampleRepository(root);
    await setUpManifests(root);
    await live.start();
    let runs = 0;
    const run = async (
      day: number,
      args: string[],
      what: string,
    ): Promise<{ code: number; stdout: string; stderr: string }> => {
      // The emulator's rate limiter refills by its clock: each run a minute later, or a frozen day's bucket empties.
      runs += 1;
      live.now = Date.parse(days.on(day)) + runs * 60_000;
      const ran = await days.run(day, args, live.env, root);
      // 2 is --detailed-exitcode's "changes"; 3 a stale apply, refused: both are answers, not breakage.
      if (ran.code === 1 || ran.code > 3)
        report.broken.push(`day ${String(day)} ${what}: exit ${String(ran.code)}: ${firstLine(ran.stderr)}`);
      return ran;
    };
    const requestsOf = (stdout: string): number => {
      try {
        const parsed = JSON.parse(stdout) as { requests?: number | { used: number } };
        return typeof parsed.requests === 'number' ? parsed.requests : (parsed.requests?.used ?? 0);
      } catch {
        return 0;
      }
    };
    options.log(`month: day 1, the first apply of ${String(options.members)} members`);
    const first = await run(
      1,
      // The adoption's one apply writes every member's lists: past --max-pin-changes' default of 100, as a team raises it once.
      ['apply', 'manifests', '--auto-approve', '--max-pin-changes', '100000', '--ledger', LEDGER, '--format', 'json'],
      'apply',
    );
    report.requestsByDay[1] = requestsOf(first.stdout);
    if (first.code !== 0)
      throw new Error(
        `the first apply exited ${String(first.code)}: ${first.stderr.trim().split('\n').slice(-3).join(' ')}`,
      );
    await commentCreator(root);
    // That commit is merged and applied as any other: the memory's last applied commit is then main's.
    const exported = await run(
      1,
      ['apply', 'manifests', '--base', 'HEAD^1', '--ledger', LEDGER, '--auto-approve', '--format', 'json'],
      'apply of the export',
    );
    report.requestsByDay[1] = (report.requestsByDay[1] ?? 0) + requestsOf(exported.stdout);
    let joinerCount = 0;
    for (let day = 1; day <= options.days; day += 1) {
      let requests = day === 1 ? (report.requestsByDay[1] ?? 0) : 0;
      live.now = Date.parse(days.on(day));
      // The organisation's day: one or two leave, one or two join the sales team.
      const active = live.snapshot().users.filter((user) => user.state === 'Active' && user.role === 'Member');
      const leavers = Array.from({ length: 1 + random.int(2) }, () => random.pick(active).email);
      const joiners = Array.from({ length: 1 + random.int(2) }, () => {
        joinerCount += 1;
        return `joiner.${String(joinerCount).padStart(3, '0')}@sales.acme.test`;
      });
      await live.edit((world) => {
        for (const email of leavers) {
          const user = world.users.find((candidate) => candidate.email === email);
          if (user !== undefined) Object.assign(user, { state: 'Deactivated', license: 'None' });
        }
        for (const email of joiners) world.users.push(joiner(email));
      });
      for (const email of joiners) report.joiners.push({ email, joined: day });
      for (const entry of report.joiners)
        if (leavers.includes(entry.email) && entry.tabsOn === undefined) entry.left = day;
      // Tabs re-ordered in the app by three members; an admin edits a declared view every fifth day.
      const stayed = live.snapshot().users.filter((user) => user.state === 'Active' && user.role === 'Member');
      for (let n = 0; n < 3; n += 1) await reorder(live, random.pick(stayed).email, 'deals');
      if (day % 5 === 0) await live.api('PATCH', '/v1/deals/views/dv_won_recently', { icon: `star${String(day)}` });
      if (day === 12) await live.api('DELETE', '/v1/deals/views/dv_stalled_emea');
      // One to three pull requests, each planned given the memory, merged and applied.
      const prs = 1 + random.int(3);
      for (let n = 0; n < prs; n += 1) {
        const name = `day${String(day)}-pr${String(n)}`;
        await pullRequestChange(root, name, day, n);
        await copyFile(join(root, LEDGER), join(root, '.viewctl/restored.json'));
        const planned = await run(
          day,
          ['plan', 'manifests', '--base', 'main', '--ledger', '.viewctl/restored.json', '--format', 'json'],
          `plan of ${name}`,
        );
        requests += requestsOf(planned.stdout);
        git(root, 'checkout', '--quiet', 'main');
        git(root, 'merge', '--quiet', '--no-ff', '-m', `Merge ${name}`, name);
        const apply = [
          'apply',
          'manifests',
          '--base',
          'HEAD^1',
          '--ledger',
          LEDGER,
          '--auto-approve',
          '--format',
          'json',
        ];
        const applied = await run(day, apply, `apply of ${name}`);
        requests += requestsOf(applied.stdout);
        if (applied.code === 3) {
          // Refused, nothing written: the team reads why. Past --max-pin-changes, it checks the
          // lists the refusal names (the reviewed plan said so above its list) and applies again
          // with the limit the refusal gives, as its hint says; any other refusal stays refused.
          const code = /error\[([a-z.-]+)\]/.exec(applied.stderr)?.[1] ?? 'unknown';
          const limit = /pass --max-pin-changes (\d+)/.exec(applied.stderr)?.[1];
          if (code === 'apply.max-pin-changes' && limit !== undefined) {
            const again = await run(day, [...apply, '--max-pin-changes', limit], `apply of ${name} again`);
            requests += requestsOf(again.stdout);
            report.refused.push(
              `day ${String(day)} ${name}: ${code}, applied again with --max-pin-changes ${limit}: exit ${String(again.code)}`,
            );
          } else report.refused.push(`day ${String(day)} ${name}: ${code}: ${firstLine(applied.stderr)}`);
        }
      }
      // The nightly, report only, as the drift workflow runs it.
      const night = await run(
        day + 0.75,
        ['plan', 'manifests', '--budget', '1000', '--ledger', LEDGER, '--detailed-exitcode', '--format', 'json'],
        'nightly',
      );
      requests += requestsOf(night.stdout);
      report.requestsByDay[day] = requests;
      if (night.stdout.trim() !== '') {
        const plan = JSON.parse(night.stdout) as Plan;
        report.lists = Math.max(report.lists, plan.scope?.lists ?? 0);
        report.statedCycle = Math.max(report.statedCycle, plan.scope?.coverage?.cycle ?? 0);
        for (const group of driftGroups(plan.changes))
          bump(report.drift, `${group.cause} (${group.origin}, ${group.scope})`, group.changes.length);
        for (const held of plan.held ?? []) bump(report.drift, `held: ${held.code}`, 1);
      }
      const memory = JSON.parse(await readFile(join(root, LEDGER), 'utf8')) as SweepMemory;
      for (const [key, list] of Object.entries(memory.lists)) {
        const read = Date.parse(list.lastRead);
        const before = lastRead.get(key);
        if (before !== undefined && read !== before)
          gaps.set(key, Math.max(gaps.get(key) ?? 0, Math.round((read - before) / 86_400_000)));
        lastRead.set(key, read);
      }
      // Joiners whose deals tabs now start with the sales group's.
      const users = live.snapshot();
      for (const entry of report.joiners) {
        if (entry.tabsOn !== undefined || entry.left !== undefined) continue;
        const id = users.users.find((user) => user.email === entry.email)?.id ?? '';
        const tabs = users.pinned.deals[id] ?? [];
        if (SALES_TABS.every((viewId, index) => tabs[index] === viewId)) entry.tabsOn = day;
      }
      options.log(
        `month: day ${String(day)}: ${String(prs)} pull requests, ${String(requests)} requests, ${String(report.broken.length)} broken so far`,
      );
    }
    report.measuredCycle = Math.max(0, ...gaps.values());
    const end = live.snapshot();
    for (const { domain, viewId, ownerId } of privates) {
      const views = end.views[domain as keyof typeof end.views] as ApiView[];
      if (!views.some((view) => view.viewId === viewId))
        report.lost.push(`${domain} view ${viewId} of ${ownerId} deleted`);
      else if (
        !((end.pinned[domain as keyof typeof end.pinned] as Record<string, string[]>)[ownerId] ?? []).includes(viewId)
      )
        report.lost.push(`${domain} tab ${viewId} unpinned from ${ownerId}`);
    }
  } finally {
    await live.close();
    await rm(root, { recursive: true, force: true });
  }
  report.seconds = Math.round((Date.now() - started) / 1000);
  return report;
}

/** setUpManifests adds a sales group to the examples. */
async function setUpManifests(root: string): Promise<void> {
  await writeFile(
    join(root, 'manifests/pins/sales-deals.yaml'),
    'kind: PinnedViews\nname: Sales deal tabs\nusers: ["*@sales.acme.test"]\ndeals:\n  - Pipeline review\n  - Big renewals\n  - Stalled in EMEA\n  - All deals\n',
  );
  git(root, 'add', '-A');
  git(root, 'commit', '--quiet', '-m', 'the sales group');
}

/** commentCreator comments `creatorEmail` out, as export writes it, after the first apply made what the examples create. */
async function commentCreator(root: string): Promise<void> {
  const workspace = join(root, 'manifests/workspace.yaml');
  await writeFile(workspace, (await readFile(workspace, 'utf8')).replace('creatorEmail: adam', '# creatorEmail: adam'));
  git(root, 'commit', '--quiet', '-am', 'creatorEmail as export writes it');
}

/** pullRequestChange makes the day's n-th pull request: a member's tabs, a view's icon, or (day 14) naming the creator. */
async function pullRequestChange(root: string, name: string, day: number, n: number): Promise<void> {
  git(root, 'checkout', '--quiet', '-b', name, 'main');
  const edit = async (file: string, change: (text: string) => string): Promise<void> => {
    const path = join(root, 'manifests', file);
    await writeFile(path, change(await readFile(path, 'utf8')));
  };
  if (day === 14 && n === 0) {
    await edit('workspace.yaml', (text) => text.replace('# creatorEmail: adam', 'creatorEmail: adam'));
  } else if ((day + n) % 2 === 0) {
    await edit('pins/noah.yaml', (text) =>
      text.includes('  - All deals\n  - Big renewals\n')
        ? text.replace('  - All deals\n  - Big renewals\n', '  - All deals\n')
        : text.replace('  - All deals\n', '  - All deals\n  - Big renewals\n'),
    );
  } else {
    await edit('views/deals/pipeline-review.yaml', (text) =>
      text.replace(/^icon: .*$/m, `icon: chart${String(day)}x${String(n)}`),
    );
  }
  git(root, 'commit', '--quiet', '-am', name);
}

function joiner(email: string): ApiUser {
  return {
    id: `u_${email.split('@')[0]?.replace(/\W/g, '_') ?? email}`,
    email,
    name: email,
    license: 'Full',
    role: 'Member',
    state: 'Active',
    isDesktopAppInstalled: false,
    isMobileAppInstalled: false,
  };
}

/** reorder swaps a member's first two tabs of a domain, as they would by dragging them in the app. */
async function reorder(live: LiveWorkspace, email: string, domain: 'deals'): Promise<void> {
  const tabs = await live.pinned(domain, email);
  if (tabs.length < 2) return;
  const [a = '', b = '', ...rest] = tabs;
  await live.setPinned(domain, email, [b, a, ...rest]);
}

function bump(counts: Map<string, number>, key: string, by: number): void {
  counts.set(key, (counts.get(key) ?? 0) + by);
}

function firstLine(text: string): string {
  return text.split('\n').find((line) => line.trim() !== '') ?? '(no output)';
}

/** renderMonth prints the report. */
export function renderMonth(report: MonthReport): string {
  const waits = report.joiners.map((entry) => (entry.tabsOn === undefined ? undefined : entry.tabsOn - entry.joined));
  const got = waits.filter((wait): wait is number => wait !== undefined);
  const busiest = Math.max(0, ...report.requestsByDay.filter((n) => n !== undefined));
  const busiestDay = report.requestsByDay.indexOf(busiest);
  const lines = [
    `The simulated month: ${String(report.days)} days, ${String(report.members)} members, ${String(report.lists)} pinned lists declared (${String(report.seconds)} s)`,
    `  broken plans: ${String(report.broken.length)}`,
    ...report.broken.slice(0, 20).map((line) => `    ${line}`),
    `  applies refused (exit 3): ${String(report.refused.length)}`,
    ...report.refused.slice(0, 10).map((line) => `    ${line}`),
    `  joiners: ${String(report.joiners.length)}; with their tabs: ${String(got.length)}; days to their tabs: ` +
      (got.length === 0
        ? '-'
        : `least ${String(Math.min(...got))}, most ${String(Math.max(...got))}, mean ${(got.reduce((a, b) => a + b, 0) / got.length).toFixed(1)}`),
    `    left again before they had them: ${String(report.joiners.filter((entry) => entry.left !== undefined).length)}`,
    ...report.joiners
      .filter((entry) => entry.tabsOn === undefined && entry.left === undefined)
      .slice(0, 10)
      .map((entry) => `    still without: ${entry.email} (joined day ${String(entry.joined)})`),
    `  sweep cycle: stated ${String(report.statedCycle)} nights, measured ${String(report.measuredCycle)} (the longest wait between two reads of a list)`,
    '  drift found, by how it was labelled:',
    ...[...report.drift].sort(([a], [b]) => (a < b ? -1 : 1)).map(([label, count]) => `    ${label}: ${String(count)}`),
    `  requests on the busiest day: ${String(busiest)} (day ${String(busiestDay)})`,
    `  lost: ${report.lost.length === 0 ? 'nothing' : String(report.lost.length)}`,
    ...report.lost.slice(0, 10).map((line) => `    ${line}`),
  ];
  return `${lines.join('\n')}\n`;
}

function numberFlag(argv: readonly string[], flag: string, fallback: number): number {
  const at = argv.indexOf(flag);
  if (at < 0) return fallback;
  const value = Number(argv[at + 1]);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${flag} needs a whole number above 0`);
  return value;
}

/** monthOptionsOf reads `--days N` (30) and `--members N` (1,000). */
export function monthOptionsOf(argv: readonly string[]): Omit<MonthOptions, 'log'> {
  return { days: numberFlag(argv, '--days', 30), members: numberFlag(argv, '--members', 1000) };
}

if (process.argv[1]?.endsWith('month.ts') === true) {
  const report = await runMonth({
    ...monthOptionsOf(process.argv.slice(2)),
    log: (line) => process.stderr.write(`${line}\n`),
  });
  process.stdout.write(renderMonth(report));
}
