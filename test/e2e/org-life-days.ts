import { join } from 'node:path';
import { expect } from 'vitest';
import type { Plan } from '../../src/domain/generated/plan-types.js';
import type { GitRepo, LiveWorkspace, Organisation } from '../support/org-life.js';
import type { CliRun } from './harness.js';

/**
 * The script of the ten days of test/e2e/org-life.test.ts: who joins, leaves and
 * changes role on which day, what the admin does in the app, and the pull requests of
 * each day (day 4's two interleave, day 5's keeps an app rename with viewctl pull).
 */

/** PlanJson is the JSON plan (schemas/plan/plan.schema.json). */
export type PlanJson = Plan;

/** One CLI run of the days, for the messages of failed assertions. */
export interface Ran extends CliRun {
  day: number;
  args: string[];
}

/** The day an admin deletes the declared view bound by `viewId` (rv_customer_calls). */
export const DELETED_ON = 6;
/** Joiners, by day: each a sales rep, reached by the sales group's glob and the Members' role. */
export const JOINERS: Record<number, { id: string; email: string }> = {
  2: { id: 'u_rep_17', email: 'rep.17@sales.acme.test' },
  5: { id: 'u_rep_18', email: 'rep.18@sales.acme.test' },
  8: { id: 'u_rep_19', email: 'rep.19@sales.acme.test' },
};
/** Leavers, by day: Sam has a pins/ file; csm.05 is reached only by a role. */
export const LEAVERS: Record<number, string> = { 3: 'sam.okafor@acme.test', 7: 'csm.05@cs.acme.test' };
/** Sam's pins/ file is in the manifests from the day he leaves until day 8's pull request deletes it. */
export const LEAVERS_FILE_FROM = 3;
export const LEAVERS_FILE_UNTIL = 8;
/** The declared views an admin edits or renames in the app, by day: the day's first pull request labels the update. */
export const EDITED_DECLARED: Record<number, string> = {
  1: 'view:recordings:id:rv_video_meetings',
  2: 'view:deals:id:dv_big_renewals',
  4: 'view:deals:id:dv_pipeline_review',
  7: 'view:recordings:id:rv_deals_at_risk',
  10: 'view:recordings:id:rv_video_meetings',
};

/** The member who becomes an Admin, and when: the Admins' group newly reaches them. */
export const PROMOTED_ON = 4;
export const PROMOTED = 'csm.03@cs.acme.test';
/** The evenings Adam, creatorEmail, makes a public deal board in the app (a prune candidate the next day's apply deletes). */
export const ADAM_BOARD_ON = [5, 8];
/** The evening an admin renames a declared view after the day's apply: the night's sweep finds it. */
export const RENAMED_AT_NIGHT = 3;
/** The nights that repair (`apply --budget`) in the run with the memory; the others, and every night without it, report (`plan --budget`). */
export const REPAIR_ON = [3, 5, 8];
/** The day self-heal runs between a merge and its apply (with the memory), and is refused. */
export const REFUSED_ON = 7;

/** RepairEntry is one line of a self-heal report: what, how many, and every name. */
export interface RepairEntry {
  what: string;
  count: number;
  names: string[];
}

/** namesCustomerCalls tells whether a pinned list (`domain:email`) is one whose document names the deleted "Customer calls": Mia's, and the Owner's and Admins' recordings. */
export function namesCustomerCalls(
  users: readonly { email: string; role: string; state: string }[],
  list: string,
): boolean {
  if (list === 'recordings:mia.chen@acme.test') return true;
  const user = users.find((candidate) => `recordings:${candidate.email}` === list);
  return user !== undefined && user.role !== 'Member';
}

/** adminDay is what the admin does in the app: renames and edits shared views, declared or not, and deletes one once. */
export async function adminDay(org: Organisation, day: number): Promise<void> {
  switch (day) {
    case 1:
      return org.editView('recordings', 'rv_video_meetings', { icon: 'movie_camera' });
    case 2:
      return org.renameView('deals', 'dv_big_renewals', 'Big renewals FY27');
    case 3:
      return org.renameView('recordings', 'rv_budget_confirmed', 'Budget confirmed (Q4)');
    case 4:
      return org.editView('deals', 'dv_pipeline_review', { icon: 'chart_with_upwards_trend' });
    case 5:
      return org.renameView('deals', 'dv_big_renewals', 'Renewals over 50k');
    case DELETED_ON:
      return org.deleteView('recordings', 'rv_customer_calls');
    case 7:
      return org.editView('recordings', 'rv_deals_at_risk', { icon: 'fire' });
    case 9:
      return org.renameView('deals', 'dv_stalled_emea', 'Stalled deals EMEA');
    case 10:
      return org.editView('recordings', 'rv_video_meetings', { icon: 'film_frames' });
    default:
      return undefined;
  }
}

export interface DayTools {
  pullRequest(name: string, change: (git: GitRepo) => Promise<void>, check?: (plan: PlanJson) => void): Promise<void>;
  live: LiveWorkspace;
  /** A folder outside the repository, for plan files. */
  outside: string;
  cli(...args: string[]): Promise<Ran>;
  repo: GitRepo;
  json(ran: Ran): PlanJson;
  inSync(base: string): Promise<void>;
  nothingLost(): void;
  checkPullRequestPlan(plan: PlanJson, ran: Ran): void;
}

/** appendTab adds `tab` to the list under `domain:` of a pins document written in block style. */
export function appendTab(domain: string, tab: string): (text: string) => string {
  return (text) => text.replace(new RegExp(`(${domain}:\\n(?:  - .*\\n)*)`), `$1  - ${tab}\n`);
}

/** pullRequestsOf runs the day's pull requests. */
export async function pullRequestsOf(day: number, tools: DayTools): Promise<void> {
  const { pullRequest, repo } = tools;
  switch (day) {
    case 1:
      // Lena adds a tab; the admin edited the Zoom view in the app this morning: hedged.
      return pullRequest(
        'lena-pipeline',
        (git) => git.edit('manifests/pins/lena.yaml', appendTab('deals', 'Pipeline review')),
        (plan) => {
          expect(plan.changes.find((change) => change.target === 'pins:deals:lena.fischer@acme.test')).toMatchObject({
            action: 'pin',
          });
          expect(
            plan.changes.find((change) => change.target === 'pins:deals:lena.fischer@acme.test')?.origin,
          ).toBeUndefined();
        },
      );
    case 2:
      return pullRequest(
        'deals-at-risk-icon',
        (git) =>
          git.edit('manifests/views/deals-at-risk.yaml', (text) =>
            text.replace('icon: warning', 'icon: rotating_light'),
          ),
        (plan) => {
          expect(plan.changes.find((change) => change.target === 'view:recordings:id:rv_deals_at_risk')).toMatchObject({
            action: 'update',
          });
          expect(
            plan.changes.find((change) => change.target === 'view:recordings:id:rv_deals_at_risk')?.origin,
          ).toBeUndefined();
        },
      );
    case 3:
      // A new view, added to the sales reps' tabs: every rep's deals list is read and written.
      return pullRequest('renewals-this-quarter', async (git) => {
        await git.writeAll({
          'manifests/views/renewals-this-quarter.yaml':
            'kind: DealView\nname: Renewals this quarter\nicon: calendar\nfilters:\n  typeIn: [Renewal]\n',
        });
        await git.edit('manifests/pins/sales-deals.yaml', appendTab('deals', 'Renewals this quarter'));
      });
    case 4:
      return interleaved(tools);
    case 5:
      // The team keeps the admin's rename of this morning: viewctl pull writes it into the manifests, then Noah pins it by its new name.
      await keepAppRename(tools);
      return pullRequest('noah-renewals', (git) =>
        git.edit('manifests/pins/noah.yaml', appendTab('deals', 'Renewals over 50k')),
      );
    case 6:
      return pullRequest('members-deals-at-risk', (git) =>
        git.edit('manifests/pins/members-recordings.yaml', appendTab('recordings', 'Deals at risk')),
      );
    case 7:
      return pullRequest('mia-reorder', (git) =>
        git.edit('manifests/pins/mia.yaml', (text) =>
          text.replace('  - Customer calls\n  - All recordings\n', '  - All recordings\n  - Customer calls\n'),
        ),
      );
    case 8:
      // Sam left on day 3; the warning named the file to delete.
      return pullRequest('sam-left', (git) => git.remove('manifests/pins/sam.yaml'));
    case 9:
      await pullRequest('lena-renewals', (git) =>
        git.edit('manifests/pins/lena.yaml', appendTab('deals', 'Renewals this quarter')),
      );
      return pullRequest('pipeline-icon', (git) =>
        git.edit('manifests/views/pipeline-review.yaml', (text) => text.replace('icon: bar_chart', 'icon: clipboard')),
      );
    case 10:
      return pullRequest('admin-reorder', (git) =>
        git.edit('manifests/pins/admin-recordings.yaml', (text) =>
          text.replace('  - Deals at risk\n  - All recordings\n', '  - All recordings\n  - Deals at risk\n'),
        ),
      );
    default:
      return void repo;
  }
}

/**
 * keepAppRename is day 5's first pull request: `viewctl pull --target` writes the name
 * the admin gave "Big renewals" in the app this morning into its document and into
 * every pins document naming it, changing no other byte; the pull request's plan then
 * finds nothing to do for the view, and the apply keeps the app's name.
 */
export async function keepAppRename(tools: DayTools): Promise<void> {
  const { pullRequest, cli, live } = tools;
  await pullRequest(
    'keep-renewals-name',
    async (git) => {
      const pulled = await cli('pull', 'manifests', '--target', 'DealView/Big renewals', '--format', 'json');
      expect(pulled.code, describeRun(pulled)).toBe(0);
      const written = (JSON.parse(pulled.stdout) as { written: { file: string; attribute: string; after: unknown }[] })
        .written;
      expect(written.map((entry) => entry.file).sort(), describeRun(pulled)).toEqual([
        'manifests/pins/lena.yaml',
        'manifests/pins/sales-deals.yaml',
        'manifests/views/big-renewals.yaml',
      ]);
      // Every changed line is the old line with the new name spliced in: no other byte moved.
      const diff = await git.git('diff', '-U0', '--', 'manifests');
      const removed = diff
        .split('\n')
        .filter((line) => line.startsWith('-') && !line.startsWith('---'))
        .map((line) => line.slice(1));
      const added = diff
        .split('\n')
        .filter((line) => line.startsWith('+') && !line.startsWith('+++'))
        .map((line) => line.slice(1));
      expect(added, diff).toEqual(removed.map((line) => line.replace('Big renewals', 'Renewals over 50k')));
      expect(added, diff).toHaveLength(3);
    },
    (plan) => {
      expect(plan.changes.filter((change) => change.target === 'view:deals:id:dv_big_renewals')).toEqual([]);
    },
  );
  expect(live.snapshot().views.deals.find((view) => view.viewId === 'dv_big_renewals')?.name).toBe('Renewals over 50k');
}

/**
 * interleaved is day 4's two pull requests planned before either merges: A reorders the
 * sales reps' deal tabs, B gives rep.03 a document of their own. Both are planned
 * against main; A is merged and its saved plan applied; B's saved plan is then stale
 * (A wrote rep.03's list since), so apply holds its one change (exit 0, nothing
 * written) and B is applied by a fresh plan of main.
 */
export async function interleaved(tools: DayTools): Promise<void> {
  const { cli, repo, json, inSync, nothingLost, checkPullRequestPlan } = tools;
  const fileA = join(tools.outside, 'sales-reorder.plan.json');
  const fileB = join(tools.outside, 'rep03-own-tabs.plan.json');
  const before = await repo.head('main');
  await repo.pullRequest('sales-reorder', (git) =>
    git.edit('manifests/pins/sales-deals.yaml', (text) =>
      text.replace('  - Pipeline review\n  - Big renewals\n', '  - Big renewals\n  - Pipeline review\n'),
    ),
  );
  const planA = await cli('plan', 'manifests', '--base', 'main', '--format', 'json', '--out', fileA);
  checkPullRequestPlan(json(planA), planA);
  await repo.pullRequest('rep03-own-tabs', (git) =>
    git.writeAll({
      'manifests/pins/rep03.yaml':
        'kind: PinnedViews\nuserEmail: rep.03@sales.acme.test\ndeals:\n  - Renewals this quarter\n  - All deals\n',
    }),
  );
  const planB = await cli('plan', 'manifests', '--base', 'main', '--format', 'json', '--out', fileB);
  checkPullRequestPlan(json(planB), planB);
  expect(json(planA).changes.map((change) => change.target)).toContain('pins:deals:rep.03@sales.acme.test');
  expect(json(planB).changes.map((change) => change.target)).toContain('pins:deals:rep.03@sales.acme.test');

  await repo.merge('sales-reorder');
  const appliedA = await cli('apply', '--plan', fileA);
  expect(appliedA.code, describeRun(appliedA)).toBe(0);
  nothingLost();
  await repo.merge('rep03-own-tabs');
  const afterA = await repo.head('main~1');
  const untouched = tools.live.snapshot();
  const appliedB = await cli('apply', '--plan', fileB);
  // B's plan read rep.03's list before A wrote it: stale, so held (its only change), nothing written, exit 0.
  expect(appliedB.code, describeRun(appliedB)).toBe(0);
  expect(appliedB.stdout, describeRun(appliedB)).toMatch(
    /^Held, nothing written: plan \w+: one change is held and the other/,
  );
  expect(appliedB.stdout, describeRun(appliedB)).toContain(
    'pinned deals tabs of rep.03@sales.acme.test  [apply.stale-target]',
  );
  expect(tools.live.snapshot()).toEqual(untouched);
  const replanned = await cli('apply', 'manifests', '--base', afterA, '--auto-approve');
  expect(replanned.code, describeRun(replanned)).toBe(0);
  nothingLost();
  await inSync(before);
}

/** describeRun is a failed assertion's context: the day, the command, its exit and what it printed. */
export function describeRun(ran: Ran): string {
  return `day ${String(ran.day)}: viewctl ${ran.args.join(' ')} exited ${String(ran.code)}\n--- stdout\n${ran.stdout.slice(0, 4000)}\n--- stderr\n${ran.stderr.slice(0, 4000)}`;
}
