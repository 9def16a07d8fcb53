import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fakeGitHub, runGithubScript, runStepScript, type FakeGitHub } from './run-step.js';
import { allSteps, loadWorkflow, stepById, stepByName, type Workflow } from './workflow-files.js';

// The workflows' scripts run here as the runner would run them, with stand-ins for
// viewctl, git and the GitHub API: the exit-code contract (plan: 0 and 2 pass; drift:
// 2 fails; apply: anything but 0 fails) and the comment round trip are behaviour, so
// they are tested as behaviour.

const plan = loadWorkflow('examples/.github/workflows/viewctl-plan.yml');
const apply = loadWorkflow('examples/.github/workflows/viewctl-apply.yml');
const drift = loadWorkflow('examples/.github/workflows/viewctl-drift.yml');

const scriptOf = (workflow: Workflow, predicate: (uses: string, name: string) => boolean): string => {
  const found = allSteps(workflow).find(({ step }) => step.uses !== undefined && predicate(step.uses, step.name ?? ''));
  const script = found?.step.with?.['script'];
  if (typeof script !== 'string') throw new Error(`${workflow.path}: no such github-script step`);
  return script;
};
const runOf = (workflow: Workflow, step: { run?: string }): string => {
  if (step.run === undefined) throw new Error(`${workflow.path}: the step has no run script`);
  return step.run;
};

const PLAN_MD = '### viewctl plan: Acme Sales (ws_acme)\n**1 create**\n';
const DIGEST = 'ab'.repeat(32);
const HEAD = 'c0ffee'.padEnd(40, '0');
const MERGE = 'feed'.padEnd(40, '1');
const BOT = { login: 'github-actions[bot]' };

describe('the plan step of the pull request workflow', () => {
  const script = runOf(plan, stepById(plan, 'plan'));

  it.each([0, 2])('succeeds when viewctl exits %i, and puts the plan in the summary', (code) => {
    const run = runStepScript(script, { viewctlExit: code, viewctlStdout: PLAN_MD, gitTree: 'tree-1', env: { VIEWCTL_API_KEY: 'k' } });
    expect(run.status).toBe(0);
    expect(run.outputs).toEqual({ 'exit-code': String(code), 'manifests-tree': 'tree-1' });
    expect(run.summary).toBe(PLAN_MD);
    expect(run.viewctlCalls).toEqual([['plan', '.', '--format', 'markdown', '--out', 'plan.json', '--detailed-exitcode']]);
  });

  it.each([1, 3, 4])('fails when viewctl exits %i, keeping the exit code for the comment', (code) => {
    const run = runStepScript(script, { viewctlExit: code, viewctlStderr: 'error[manifest.invalid]: ...', env: { VIEWCTL_API_KEY: 'k' } });
    expect(run.status).not.toBe(0);
    expect(run.outputs['exit-code']).toBe(String(code));
    expect(run.stderr).toContain('error[manifest.invalid]');
    expect(run.stdout).toContain(`::error title=viewctl plan failed::exit code ${code}`);
  });

  it('says when the key is missing, as it is for pull requests from forks', () => {
    const run = runStepScript(script, { viewctlExit: 1, env: { VIEWCTL_API_KEY: '' } });
    expect(run.status).not.toBe(0);
    expect(run.stdout).toContain('comes from a fork');
  });
});

describe('the drift workflow', () => {
  const script = runOf(drift, stepByName(drift, 'Check for drift'));

  it('succeeds when the workspace is in sync (exit 0)', () => {
    const run = runStepScript(script, { viewctlExit: 0 });
    expect(run.status).toBe(0);
    expect(run.summary).toContain('in sync');
    expect(run.viewctlCalls[0]).toContain('--detailed-exitcode');
  });

  it('fails on drift (exit 2) with the plan in the step summary', () => {
    const run = runStepScript(script, { viewctlExit: 2, viewctlStdout: PLAN_MD });
    expect(run.status).not.toBe(0);
    expect(run.summary).toContain('the workspace differs from main');
    expect(run.summary).toContain(PLAN_MD);
  });

  it('fails with the error in the summary when the check cannot run (exit 1)', () => {
    const run = runStepScript(script, { viewctlExit: 1, viewctlStderr: 'error[service.unauthorized]: the service did not accept the API key' });
    expect(run.status).not.toBe(0);
    expect(run.summary).toContain('drift check failed (exit 1)');
    expect(run.summary).toContain('service.unauthorized');
  });
});

describe('the apply steps of the merge workflow', () => {
  const applyScript = runOf(apply, stepById(apply, 'apply'));
  const treeCheck = runOf(apply, stepByName(apply, 'Check that main holds the manifests that were planned'));

  it('applies the saved plan with the expected digest and succeeds on exit 0', () => {
    const run = runStepScript(applyScript, { viewctlExit: 0, viewctlStdout: 'Applied: 1 created.\n', env: { DIGEST } });
    expect(run.status).toBe(0);
    expect(run.viewctlCalls).toEqual([['apply', '--plan', 'reviewed/plan.json', '--expect-digest', DIGEST, '--format', 'markdown']]);
    expect(run.summary).toContain('viewctl apply: applied');
  });

  it.each([
    [1, 'failed before any write'],
    [3, 'refused, nothing written'],
    [4, 'failed part-way'],
  ])('fails on exit %i and says it %s', (code, says) => {
    const run = runStepScript(applyScript, { viewctlExit: code, viewctlStderr: 'error[apply.stale-plan]: the plan is stale', env: { DIGEST } });
    expect(run.status).not.toBe(0);
    expect(run.outputs['exit-code']).toBe(String(code));
    expect(run.summary).toContain(says);
    expect(run.summary).toContain('apply.stale-plan');
  });

  it('goes on only when main holds the manifests tree that was planned', () => {
    expect(runStepScript(treeCheck, { viewctlExit: 0, gitTree: 'tree-1', env: { PLANNED_TREE: 'tree-1', PR: '5' } }).status).toBe(0);
    const moved = runStepScript(treeCheck, { viewctlExit: 0, gitTree: 'tree-2', env: { PLANNED_TREE: 'tree-1', PR: '5' } });
    expect(moved.status).not.toBe(0);
    expect(moved.summary).toContain('differ from the ones planned on #5');
  });
});

const planComment = scriptOf(plan, (uses) => uses.startsWith('actions/github-script@'));
const findReviewed = scriptOf(apply, (_uses, name) => name === 'Find the reviewed plan');

/** postPlan runs the comment step of the pull request workflow against `api`. */
async function postPlan(api: FakeGitHub, exitCode: number, options: { uploaded?: string; stderr?: string } = {}) {
  const { dir } = runStepScript('true', { viewctlExit: 0 });
  writeFileSync(join(dir, 'plan.md'), PLAN_MD);
  writeFileSync(join(dir, 'plan.json'), JSON.stringify({ formatVersion: 1, digest: DIGEST }));
  writeFileSync(join(dir, 'plan.err'), options.stderr ?? '');
  return runGithubScript(planComment, {
    api,
    dir,
    context: {
      repo: { owner: 'acme', repo: 'views' },
      runId: 4242,
      serverUrl: 'https://github.com',
      payload: { pull_request: { number: 5, base: { ref: 'main' } } },
    },
    env: { EXIT_CODE: String(exitCode), UPLOADED: options.uploaded ?? 'success', HEAD_SHA: HEAD, MANIFESTS_TREE: 'tree-1' },
  });
}

/** lookUp runs the step of the merge workflow that finds the reviewed plan. */
function lookUp(api: FakeGitHub) {
  return runGithubScript(findReviewed, {
    api,
    dir: '.',
    context: { repo: { owner: 'acme', repo: 'views' }, sha: MERGE, runId: 9, serverUrl: 'https://github.com', payload: {} },
    env: {},
  });
}

const mergedPull = { number: 5, merged_at: '2026-01-01T00:00:00Z', merge_commit_sha: MERGE, head: { sha: HEAD } };
const planRun = { path: '.github/workflows/viewctl-plan.yml', event: 'pull_request', head_sha: HEAD, conclusion: 'success' };

describe('the plan comment', () => {
  it('is created once, starting with the marker, carrying the digest, run, commit and tree', async () => {
    const api = fakeGitHub();
    expect((await postPlan(api, 2)).error).toBeUndefined();
    expect(api.created).toHaveLength(1);
    const body = api.created[0]?.body ?? '';
    expect(body.startsWith('<!-- viewctl-plan -->\n')).toBe(true);
    expect(body).toContain(`<!-- viewctl-plan-meta {"digest":"${DIGEST}","runId":4242,"headSha":"${HEAD}","manifestsTree":"tree-1"} -->`);
    expect(body).toContain(PLAN_MD.trim());
  });

  it('is updated in place, and a marker in someone else\'s comment is ignored', async () => {
    const api = fakeGitHub({
      comments: [
        { id: 1, user: { login: 'mallory' }, body: '<!-- viewctl-plan -->\n<!-- viewctl-plan-meta {"digest":"00"} -->' },
        { id: 2, user: BOT, body: '<!-- viewctl-plan -->\nold plan' },
      ],
    });
    await postPlan(api, 0);
    expect(api.created).toEqual([]);
    expect(api.updated.map((update) => update.comment_id)).toEqual([2]);
  });

  it('shows the error and carries no digest when the plan failed', async () => {
    const api = fakeGitHub();
    await postPlan(api, 1, { stderr: 'error[pins.drops-private]: the recordings tabs of mia@acme.test would drop ...' });
    const body = api.created[0]?.body ?? '';
    expect(body).toContain('"digest":null');
    expect(body).toContain('viewctl plan failed (exit 1)');
    expect(body).toContain('pins.drops-private');
  });

  it('carries no digest when the plan file could not be saved', async () => {
    const api = fakeGitHub();
    await postPlan(api, 2, { uploaded: 'failure' });
    expect(api.created[0]?.body).toContain('"digest":null');
    expect(api.created[0]?.body).toContain('cannot apply this plan');
  });
});

describe('finding the reviewed plan after the merge', () => {
  /** reviewed builds the API state after a successful plan on the pull request. */
  async function reviewed(): Promise<FakeGitHub> {
    const api = fakeGitHub({ pulls: [mergedPull], runs: { 4242: planRun } });
    await postPlan(api, 2);
    api.comments = api.created.map((created, index) => ({ id: index + 1, user: BOT, body: created.body }));
    return api;
  }

  it('reads back what the plan comment recorded', async () => {
    const result = await lookUp(await reviewed());
    expect(result.error).toBeUndefined();
    expect(result.outputs).toEqual({ pr: '5', digest: DIGEST, 'run-id': '4242', 'manifests-tree': 'tree-1' });
  });

  it('refuses a push that merged no pull request', async () => {
    const api = await reviewed();
    api.pulls = [];
    expect((await lookUp(api)).error?.message).toContain('no merged pull request');
  });

  it('refuses a push whose commit is not what the pull request was merged as', async () => {
    const api = await reviewed();
    api.pulls = [{ ...mergedPull, merge_commit_sha: 'beef'.padEnd(40, '3') }];
    expect((await lookUp(api)).error?.message).toContain('no merged pull request');
  });

  it('refuses a plan comment written by anyone but the bot', async () => {
    const api = await reviewed();
    api.comments = api.comments.map((comment) => ({ ...comment, user: { login: 'mallory' } }));
    expect((await lookUp(api)).error?.message).toContain('has no viewctl plan comment');
  });

  it('refuses a plan of an earlier commit than the last one merged', async () => {
    const api = await reviewed();
    api.pulls = [{ ...mergedPull, head: { sha: 'beef'.padEnd(40, '2') } }];
    expect((await lookUp(api)).error?.message).toContain('not its last commit');
  });

  it('refuses when the last plan failed', async () => {
    const api = fakeGitHub({ pulls: [mergedPull], runs: { 4242: planRun } });
    await postPlan(api, 1);
    api.comments = [{ id: 1, user: BOT, body: api.created[0]?.body ?? '' }];
    expect((await lookUp(api)).error?.message).toContain('failed or was not saved');
  });

  it.each([
    ['another workflow', { path: '.github/workflows/other.yml' }],
    ['a failed run', { conclusion: 'failure' }],
    ['a run of another commit', { head_sha: 'beef'.padEnd(40, '2') }],
  ])('refuses the plan of %s', async (_what, change) => {
    const api = await reviewed();
    api.runs = { 4242: { ...planRun, ...change } };
    expect((await lookUp(api)).error?.message).toContain('is not a successful viewctl plan');
  });
});

describe('the drift workflow\'s one issue', () => {
  const driftIssue = scriptOf(drift, (_uses, name) => name === 'Open, update or close the drift issue');
  const BOT = { login: 'github-actions[bot]' };

  async function report(api: FakeGitHub, exitCode: number) {
    const { dir } = runStepScript('true', { viewctlExit: 0 });
    writeFileSync(join(dir, 'plan.md'), PLAN_MD);
    writeFileSync(join(dir, 'plan.err'), 'error[service.unauthorized]: the service did not accept the API key\n');
    return runGithubScript(driftIssue, {
      api,
      dir,
      context: { repo: { owner: 'acme', repo: 'views' }, runId: 77, serverUrl: 'https://github.com', payload: {} },
      env: { EXIT_CODE: String(exitCode) },
    });
  }

  it('opens one issue on drift, with the plan, and updates that same issue on the next drift', async () => {
    const api = fakeGitHub();
    expect((await report(api, 2)).error).toBeUndefined();
    expect(api.issues).toHaveLength(1);
    expect(api.issues[0]).toMatchObject({ title: 'viewctl: the workspace differs from main', state: 'open' });
    expect(api.issues[0]?.body).toContain(PLAN_MD.trim());
    await report(api, 2);
    expect(api.issues).toHaveLength(1);
  });

  it('says so in the same issue when the check cannot run, and closes it once in sync', async () => {
    const api = fakeGitHub();
    await report(api, 2);
    await report(api, 1);
    expect(api.issues).toHaveLength(1);
    expect(api.issues[0]).toMatchObject({ title: 'viewctl: the drift check cannot run' });
    expect(api.issues[0]?.body).toContain('service.unauthorized');
    await report(api, 0);
    expect(api.issues[0]?.state).toBe('closed');
    expect(api.created.at(-1)?.body).toMatch(/^In sync again/);
  });

  it('opens nothing when in sync, and trusts only its own issue, not one anybody wrote the marker in', async () => {
    const api = fakeGitHub({ issues: [{ number: 1, user: { login: 'mallory' }, title: 'x', body: '<!-- viewctl-drift -->', state: 'open' }] });
    await report(api, 0);
    expect(api.issues.filter((issue) => issue.user.login === BOT.login)).toHaveLength(0);
    await report(api, 2);
    expect(api.issues.find((issue) => issue.number === 1)?.body).toBe('<!-- viewctl-drift -->');
    expect(api.issues.filter((issue) => issue.user.login === BOT.login)).toHaveLength(1);
  });
});
