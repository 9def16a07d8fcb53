import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { computePlan } from '../../src/plan/diff.js';
import { MARKDOWN_LIMIT, renderMarkdown } from '../../src/render/markdown.js';
import { createsScenario } from '../render/scale-fixtures.js';
import { mixedScenario } from '../plan/fixtures.js';
import { fakeGitHub, runGithubScript, runStepScript, type FakeGitHub } from './run-step.js';
import {
  ACTION,
  allSteps,
  evaluate,
  loadAction,
  loadWorkflow,
  stepById,
  stepByName,
  type ExpressionContext,
  type Step,
  type Workflow,
} from './workflow-files.js';

// The action's scripts (the example workflows only call it) run here as the runner
// would run them, with stand-ins for viewctl, git, gh and the GitHub API: the exit-code
// contract (plan: 0 and 2 pass; drift: 2 fails; apply: anything but 0 fails), the
// comment round trip and the catch-up of dropped apply runs are behaviour, so they are
// tested as behaviour.

const action = loadAction(ACTION);
const plan = action;
const apply = action;
const drift = action;

const scriptOf = (workflow: Workflow, predicate: (uses: string, name: string) => boolean): string => {
  const found = allSteps(workflow).find(({ step }) => step.uses !== undefined && predicate(step.uses, step.name ?? ''));
  const script = found?.step.with?.script;
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
/** LEDGER is how the action names the sweep memory to viewctl: the file the Actions cache keeps. */
const LEDGER = ['--ledger', '.viewctl/ledger.json'];

describe('the workflows as copied, with only the secret and VIEWCTL_BASE_URL set', () => {
  // What the README says to set; every other value is a default of the workflow or the action.
  const repository: ExpressionContext = {
    vars: { VIEWCTL_BASE_URL: 'https://api.example.com' },
    secrets: { VIEWCTL_API_KEY: 'key' },
  };

  /** inputsOf is what the action receives from a user workflow: its `with:`, evaluated, over the action's defaults. */
  const inputsOf = (path: string): Record<string, string> => {
    const step = allSteps(loadWorkflow(path)).find(({ step: candidate }) =>
      candidate.uses?.includes('/.github/actions/viewctl@'),
    )?.step;
    const given = Object.entries(step?.with ?? {}).map(
      ([name, value]) => [name, evaluate(String(value), repository)] as const,
    );
    const defaults = Object.entries(action.inputs).map(
      ([name, input]) => [name, evaluate(input.default ?? '', repository)] as const,
    );
    return Object.fromEntries([...defaults, ...given]);
  };
  /** envOf is a step's environment as the runner builds it from the action's inputs and earlier steps. */
  const envOf = (step: Step, inputs: Record<string, string>, more: ExpressionContext = {}): Record<string, string> =>
    Object.fromEntries(
      Object.entries(step.env ?? {}).map(([name, value]) => [
        name,
        evaluate(value, { inputs, github: { event: {} }, ...more }),
      ]),
    );

  it('plans the manifests in manifests/', () => {
    const inputs = inputsOf('examples/.github/workflows/viewctl-plan.yml');
    const step = stepById(plan, 'plan');
    const github = { event: {}, server_url: 'https://github.com', repository: 'acme/views', run_id: '42' };
    const run = runStepScript(runOf(plan, step), { viewctlExit: 0, env: envOf(step, inputs, { github }) });
    expect(run.status, run.stderr).toBe(0);
    // The comment links the run, which keeps plan.json.
    expect(run.viewctlCalls).toEqual([
      [
        'plan',
        'manifests',
        '--ledger',
        '.viewctl/ledger.json',
        '--format',
        'markdown',
        '--out',
        'plan.json',
        '--detailed-exitcode',
        '--details-url',
        'https://github.com/acme/views/actions/runs/42',
      ],
    ]);
    expect(run.gitCalls).toEqual([['rev-parse', 'HEAD:./manifests']]);
  });

  it('checks drift in manifests/ within the default budget', () => {
    const inputs = inputsOf('examples/.github/workflows/viewctl-drift.yml');
    const step = stepByName(drift, 'Check for drift');
    const run = runStepScript(runOf(drift, step), { viewctlExit: 0, env: envOf(step, inputs) });
    expect(run.viewctlCalls[0]?.slice(0, 6)).toEqual([
      'plan',
      'manifests',
      '--budget',
      '1000',
      '--ledger',
      '.viewctl/ledger.json',
    ]);
  });

  it('applies the reviewed plan of manifests/ with the default --max-deletes', () => {
    const inputs = inputsOf('examples/.github/workflows/viewctl-apply.yml');
    const step = stepById(apply, 'apply');
    const queue = JSON.stringify([{ pr: 4, digest: DIGEST, runId: 4204, manifestsTree: 'tree-4', mergeSha: 'm4' }]);
    const run = runStepScript(runOf(apply, step), {
      viewctlExit: 0,
      gitTrees: { m4: 'tree-4' },
      env: envOf(step, inputs, { steps: { reviewed: { outputs: { queue } } } }),
    });
    expect(run.status, run.stderr).toBe(0);
    expect(run.gitCalls).toContainEqual(['rev-parse', 'm4:./manifests']);
    expect(run.viewctlCalls).toEqual([
      [
        'apply',
        '--plan',
        'reviewed/4/plan.json',
        '--expect-digest',
        DIGEST,
        '--max-deletes',
        '5',
        '--max-pin-changes',
        '100',
        '--ledger',
        '.viewctl/ledger.json',
        '--format',
        'markdown',
      ],
    ]);
  });
});

describe('the plan step of the pull request workflow', () => {
  const script = runOf(plan, stepById(plan, 'plan'));

  it.each([0, 2])('succeeds when viewctl exits %i, and puts the plan in the summary', (code) => {
    const run = runStepScript(script, {
      viewctlExit: code,
      viewctlStdout: PLAN_MD,
      gitTree: 'tree-1',
      env: { VIEWCTL_API_KEY: 'k' },
    });
    expect(run.status).toBe(0);
    expect(run.outputs).toEqual({ 'exit-code': String(code), 'manifests-tree': 'tree-1' });
    expect(run.summary).toBe(PLAN_MD);
    expect(run.viewctlCalls).toEqual([
      ['plan', '.', ...LEDGER, '--format', 'markdown', '--out', 'plan.json', '--detailed-exitcode'],
    ]);
  });

  it.each([1, 3, 4])('fails when viewctl exits %i, keeping the exit code for the comment', (code) => {
    const run = runStepScript(script, {
      viewctlExit: code,
      viewctlStderr: 'error[manifest.invalid]: ...',
      env: { VIEWCTL_API_KEY: 'k' },
    });
    expect(run.status).not.toBe(0);
    expect(run.outputs['exit-code']).toBe(String(code));
    expect(run.stderr).toContain('error[manifest.invalid]');
    expect(run.stdout).toContain(`::error title=viewctl plan failed::exit code ${code}`);
  });

  it('fetches the base commit when the checkout lacks it and plans against it, or plans every list when the fetch fails', () => {
    const base = 'ba5e'.padEnd(40, '0');
    const run = runStepScript(script, {
      viewctlExit: 2,
      viewctlStdout: PLAN_MD,
      gitAbsent: [base],
      env: { VIEWCTL_API_KEY: 'k', BASE_SHA: base },
    });
    expect(run.status).toBe(0);
    expect(run.gitCalls[1]).toEqual(['fetch', '--quiet', '--no-tags', '--depth=1', 'origin', base]);
    expect(run.viewctlCalls).toEqual([
      ['plan', '.', '--base', base, ...LEDGER, '--format', 'markdown', '--out', 'plan.json', '--detailed-exitcode'],
    ]);

    const unfetched = runStepScript(script, {
      viewctlExit: 0,
      gitFetchFails: true,
      gitAbsent: [base],
      env: { VIEWCTL_API_KEY: 'k', BASE_SHA: base },
    });
    expect(unfetched.status).toBe(0);
    expect(unfetched.stdout).toContain('could not fetch the base commit');
    expect(unfetched.viewctlCalls).toEqual([
      ['plan', '.', ...LEDGER, '--format', 'markdown', '--out', 'plan.json', '--detailed-exitcode'],
    ]);
  });

  it("plans from the sweep memory's last applied commit (--since-applied) when the memory was restored and the base is in the checkout", () => {
    const base = 'ba5e'.padEnd(40, '0');
    const withMemory = runStepScript(script, {
      viewctlExit: 2,
      viewctlStdout: PLAN_MD,
      files: { '.viewctl/ledger.json': '{}' },
      env: { VIEWCTL_API_KEY: 'k', BASE_SHA: base },
    });
    expect(withMemory.status).toBe(0);
    // A full checkout has the base: no --depth fetch makes it shallow.
    expect(withMemory.gitCalls.filter((call) => call[0] === 'fetch')).toEqual([]);
    expect(withMemory.viewctlCalls).toEqual([
      [
        'plan',
        '.',
        '--base',
        base,
        '--since-applied',
        ...LEDGER,
        '--format',
        'markdown',
        '--out',
        'plan.json',
        '--detailed-exitcode',
      ],
    ]);
    // No memory restored (a first pull request, an evicted cache), or no base: no --since-applied.
    const fresh = runStepScript(script, { viewctlExit: 2, env: { VIEWCTL_API_KEY: 'k', BASE_SHA: base } });
    expect(fresh.viewctlCalls[0]).not.toContain('--since-applied');
    const baseless = runStepScript(script, {
      viewctlExit: 2,
      files: { '.viewctl/ledger.json': '{}' },
      env: { VIEWCTL_API_KEY: 'k' },
    });
    expect(baseless.viewctlCalls[0]).not.toContain('--since-applied');
  });

  it("reads every member's list of a deleted view's domain when the pinned-by input is 'true' (--pinned-by), and not otherwise", () => {
    const base = 'ba5e'.padEnd(40, '0');
    const run = runStepScript(script, {
      viewctlExit: 2,
      viewctlStdout: PLAN_MD,
      env: { VIEWCTL_API_KEY: 'k', BASE_SHA: base, PINNED_BY: 'true' },
    });
    expect(run.status).toBe(0);
    expect(run.viewctlCalls).toEqual([
      [
        'plan',
        '.',
        '--base',
        base,
        '--pinned-by',
        ...LEDGER,
        '--format',
        'markdown',
        '--out',
        'plan.json',
        '--detailed-exitcode',
      ],
    ]);
    const off = runStepScript(script, { viewctlExit: 0, env: { VIEWCTL_API_KEY: 'k', PINNED_BY: 'false' } });
    expect(off.viewctlCalls).toEqual([
      ['plan', '.', ...LEDGER, '--format', 'markdown', '--out', 'plan.json', '--detailed-exitcode'],
    ]);
  });

  it('links the run that keeps the plan file from the markdown (--details-url)', () => {
    const url = 'https://github.com/acme/views/actions/runs/4242';
    const run = runStepScript(script, {
      viewctlExit: 2,
      viewctlStdout: PLAN_MD,
      env: { VIEWCTL_API_KEY: 'k', DETAILS_URL: url },
    });
    expect(run.status).toBe(0);
    expect(run.viewctlCalls).toEqual([
      [
        'plan',
        '.',
        ...LEDGER,
        '--format',
        'markdown',
        '--out',
        'plan.json',
        '--detailed-exitcode',
        '--details-url',
        url,
      ],
    ]);
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

  it('spends at most the budget input when one is given', () => {
    expect(runStepScript(script, { viewctlExit: 0, env: { BUDGET: '1000' } }).viewctlCalls[0]?.slice(0, 4)).toEqual([
      'plan',
      '.',
      '--budget',
      '1000',
    ]);
    expect(runStepScript(script, { viewctlExit: 0 }).viewctlCalls[0]).not.toContain('--budget');
  });

  it('links the run that keeps the plan file from the markdown (--details-url)', () => {
    const url = 'https://github.com/acme/views/actions/runs/77';
    expect(runStepScript(script, { viewctlExit: 0, env: { DETAILS_URL: url } }).viewctlCalls[0]?.slice(-2)).toEqual([
      '--details-url',
      url,
    ]);
  });

  it('fails on drift (exit 2) with the plan in the step summary', () => {
    const run = runStepScript(script, { viewctlExit: 2, viewctlStdout: PLAN_MD });
    expect(run.status).not.toBe(0);
    expect(run.summary).toContain('the workspace differs from main');
    expect(run.summary).toContain(PLAN_MD);
  });

  it('fails with the error in the summary when the check cannot run (exit 1)', () => {
    const run = runStepScript(script, {
      viewctlExit: 1,
      viewctlStderr: 'error[service.unauthorized]: the service did not accept the API key',
    });
    expect(run.status).not.toBe(0);
    expect(run.summary).toContain('drift check failed (exit 1)');
    expect(run.summary).toContain('service.unauthorized');
  });
});

describe('the drift workflow with repair: true', () => {
  const script = runOf(drift, stepByName(drift, 'Check for drift'));
  const REPAIRED =
    '### viewctl plan: Acme Sales (ws_acme)\n```text\nApplied: 0 created, 0 updated, 3 pin lists, 0 deleted (9 requests in 2.0 s).\nRepaired: 3 pin lists (members ana@acme.test, bo@acme.test).\n```\n';
  const LEFT = REPAIRED.replace(
    '```\n',
    'Left for a reviewed apply (self-heal never carries them out): 1 deletion ("Scratch").\n```\n',
  );
  const repairing = { REPAIR: 'true', BUDGET: '1000', MAX_PIN_CHANGES: '100' };

  it('repairs with apply --budget --ledger --auto-approve, and succeeds with "repaired" in the summary when nothing is left', () => {
    const run = runStepScript(script, { viewctlExit: 0, viewctlStdout: REPAIRED, env: repairing });
    expect(run.viewctlCalls).toEqual([
      [
        'apply',
        '.',
        '--budget',
        '1000',
        '--max-pin-changes',
        '100',
        '--ledger',
        '.viewctl/ledger.json',
        '--auto-approve',
        '--format',
        'markdown',
      ],
    ]);
    expect(run.status, run.stderr).toBe(0);
    expect(run.outputs).toEqual({ 'exit-code': '0', outcome: 'repaired' });
    expect(run.summary).toContain('viewctl drift check: repaired');
    expect(run.summary).toContain('Repaired: 3 pin lists (members ana@acme.test, bo@acme.test).');
  });

  it('is in sync when it repaired nothing and left nothing', () => {
    const run = runStepScript(script, {
      viewctlExit: 0,
      viewctlStdout: 'No changes.\nRepaired: nothing.\n',
      env: repairing,
    });
    expect([run.status, run.outputs.outcome]).toEqual([0, 'in-sync']);
  });

  it('fails when it left something to a person (a deletion for a reviewed apply), with the report in the summary', () => {
    const run = runStepScript(script, { viewctlExit: 0, viewctlStdout: LEFT, env: repairing });
    expect(run.status).not.toBe(0);
    expect(run.outputs.outcome).toBe('left');
    expect(run.summary).toContain('repaired what it could; the rest needs a person');
    expect(run.summary).toContain('1 deletion ("Scratch")');
  });

  it('says a reviewed apply is due when the night only swept (exit 2), with what it found in the summary', () => {
    const run = runStepScript(script, {
      viewctlExit: 2,
      viewctlStdout:
        'Self-heal (apply --budget 1,000): a reviewed apply is due, so this night only reads and reports, as plan --budget does; nothing was written.\n\nmia.chen@acme.test re-ordered tabs\nA reviewed apply is due: the manifests at HEAD (abc1234) are not the last applied (def5678).\n',
      env: repairing,
    });
    expect(run.status).not.toBe(0);
    expect(run.outputs.outcome).toBe('review-due');
    expect(run.summary).toContain('a reviewed apply is due');
    expect(run.summary).toContain('not the last applied (def5678)');
    expect(run.summary).toContain('mia.chen@acme.test re-ordered tabs');
  });

  it('says a reviewed apply is due when viewctl refuses the manifests as not the last applied (exit 3)', () => {
    const run = runStepScript(script, {
      viewctlExit: 3,
      viewctlStderr:
        'error[apply.review-due]: a reviewed apply is due: the manifests at HEAD (abc1234) are not the last applied (def5678)',
      env: repairing,
    });
    expect(run.status).not.toBe(0);
    expect(run.outputs.outcome).toBe('review-due');
    expect(run.summary).toContain('a reviewed apply is due');
    expect(run.summary).toContain('not the last applied (def5678)');
  });

  it('needs a budget to repair, and runs no viewctl without one', () => {
    const run = runStepScript(script, { viewctlExit: 0, env: { REPAIR: 'true' } });
    expect(run.status).not.toBe(0);
    expect(run.viewctlCalls).toEqual([]);
    expect(run.outputs).toEqual({ 'exit-code': '1', outcome: 'failed' });
  });
});

describe('the apply step', () => {
  const applyScript = runOf(apply, stepById(apply, 'apply'));
  const entry = (pr: number, merge: string) => ({
    pr,
    digest: DIGEST,
    runId: 4200 + pr,
    manifestsTree: `tree-${pr}`,
    mergeSha: merge,
  });
  const queue = (...entries: ReturnType<typeof entry>[]) => ({
    QUEUE: JSON.stringify(entries),
    MAX_DELETES: '5',
    MAX_PIN_CHANGES: '100',
  });

  it('downloads each reviewed plan and applies it with its digest, and succeeds when all applied', () => {
    const run = runStepScript(applyScript, {
      viewctlExit: 0,
      viewctlStdout: 'Applied: 1 created.\n',
      gitTrees: { m4: 'tree-4', m5: 'tree-5' },
      env: queue(entry(4, 'm4'), entry(5, 'm5')),
    });
    expect(run.status).toBe(0);
    expect(run.ghCalls).toEqual([
      ['run', 'download', '4204', '--name', 'viewctl-plan', '--dir', 'reviewed/4'],
      ['run', 'download', '4205', '--name', 'viewctl-plan', '--dir', 'reviewed/5'],
    ]);
    expect(run.viewctlCalls).toEqual([
      [
        'apply',
        '--plan',
        'reviewed/4/plan.json',
        '--expect-digest',
        DIGEST,
        '--max-deletes',
        '5',
        '--max-pin-changes',
        '100',
        '--ledger',
        '.viewctl/ledger.json',
        '--format',
        'markdown',
      ],
      [
        'apply',
        '--plan',
        'reviewed/5/plan.json',
        '--expect-digest',
        DIGEST,
        '--max-deletes',
        '5',
        '--max-pin-changes',
        '100',
        '--ledger',
        '.viewctl/ledger.json',
        '--format',
        'markdown',
      ],
    ]);
    expect(run.summary).toContain('viewctl apply of #4: applied');
    expect(run.summary).toContain('viewctl apply of #5: applied');
  });

  it.each([
    [1, 'failed before any write'],
    [3, 'refused, nothing written'],
    [4, 'failed part-way'],
  ])('fails on exit %i, says it %s, and applies no later plan', (code, says) => {
    const run = runStepScript(applyScript, {
      viewctlExit: 0,
      viewctlExits: [code],
      viewctlStderr: 'error[apply.digest-unexpected]: the plan is not the reviewed one',
      gitTrees: { m4: 'tree-4', m5: 'tree-5' },
      env: queue(entry(4, 'm4'), entry(5, 'm5')),
    });
    expect(run.status).not.toBe(0);
    expect(run.outputs['exit-code']).toBe(String(code));
    expect(run.viewctlCalls).toHaveLength(1);
    expect(run.summary).toContain(`viewctl apply of #4: ${says}`);
    expect(run.summary).toContain('apply.digest-unexpected');
    expect(run.summary).toContain('viewctl apply of #5: not applied: a plan merged before it was not applied');
    // The recovery plans what was not carried out; the summary says so.
    expect(run.outputs.recover).toBe('the reviewed plan of #4 was not applied');
    expect(run.stdout).toContain('the recovery plan is in the run summary');
  });

  it('skips, without running viewctl, a plan an earlier apply report recorded as applied, and says "already applied"', () => {
    const run = runStepScript(applyScript, {
      viewctlExit: 0,
      gitTrees: { m4: 'tree-4', m5: 'tree-5' },
      env: queue({ ...entry(4, 'm4'), applied: true } as ReturnType<typeof entry>, entry(5, 'm5')),
    });
    expect(run.status).toBe(0);
    expect(run.viewctlCalls).toEqual([
      [
        'apply',
        '--plan',
        'reviewed/5/plan.json',
        '--expect-digest',
        DIGEST,
        '--max-deletes',
        '5',
        '--max-pin-changes',
        '100',
        '--ledger',
        '.viewctl/ledger.json',
        '--format',
        'markdown',
      ],
    ]);
    expect(run.ghCalls).toHaveLength(1);
    expect(run.summary).toContain('viewctl apply of #4: already applied');
    expect(run.summary).toContain('viewctl apply of #5: applied');
  });

  it('fetches a merge commit only when the checkout lacks it: a --depth fetch would make the full checkout shallow', () => {
    const run = runStepScript(applyScript, {
      viewctlExit: 0,
      gitTrees: { m4: 'tree-4', m5: 'tree-5' },
      gitAbsent: ['m5'],
      env: queue(entry(4, 'm4'), entry(5, 'm5')),
    });
    expect(run.status).toBe(0);
    expect(run.gitCalls.filter((call) => call[0] === 'fetch')).toEqual([
      ['fetch', '--quiet', '--no-tags', '--depth=1', 'origin', 'm5'],
    ]);
  });

  it('applies a plan only when its merge holds the manifests tree that was planned', () => {
    const moved = runStepScript(applyScript, {
      viewctlExit: 0,
      gitTrees: { m5: 'tree-other' },
      env: queue(entry(5, 'm5')),
    });
    expect(moved.status).not.toBe(0);
    expect(moved.viewctlCalls).toEqual([]);
    expect(moved.gitCalls).toContainEqual(['rev-parse', 'm5:./.']);
    expect(moved.summary).toContain('the manifests merged differ from the ones planned');
  });

  it('says so when the plan file can no longer be downloaded, and applies nothing', () => {
    const run = runStepScript(applyScript, {
      viewctlExit: 0,
      missingArtifacts: [4205],
      gitTrees: { m5: 'tree-5' },
      env: queue(entry(5, 'm5')),
    });
    expect(run.status).not.toBe(0);
    expect(run.viewctlCalls).toEqual([]);
    expect(run.summary).toContain('could not be downloaded');
  });
});

const planComment = scriptOf(plan, (_uses, name) => name === 'Post the plan on the pull request');
const findReviewed = scriptOf(apply, (_uses, name) => name === 'Find the reviewed plans');
const reportApplies = scriptOf(apply, (_uses, name) => name === 'Report on the pull requests');

/** postPlan runs the comment step of the pull request workflow against `api`. */
async function postPlan(
  api: FakeGitHub,
  exitCode: number,
  options: {
    uploaded?: string;
    stderr?: string;
    pr?: number;
    head?: string;
    runId?: number;
    planMd?: string;
    baseRef?: string;
    warnings?: { code: string; message: string }[];
  } = {},
) {
  const { dir } = runStepScript('true', { viewctlExit: 0 });
  writeFileSync(join(dir, 'plan.md'), options.planMd ?? PLAN_MD);
  writeFileSync(
    join(dir, 'plan.json'),
    JSON.stringify({ formatVersion: 1, digest: DIGEST, warnings: options.warnings ?? [] }),
  );
  writeFileSync(join(dir, 'plan.err'), options.stderr ?? '');
  return runGithubScript(planComment, {
    api,
    dir,
    context: {
      repo: { owner: 'acme', repo: 'views' },
      runId: options.runId ?? 4242,
      serverUrl: 'https://github.com',
      payload: { pull_request: { number: options.pr ?? 5, base: { ref: options.baseRef ?? 'main' } } },
    },
    env: {
      EXIT_CODE: String(exitCode),
      UPLOADED: options.uploaded ?? 'success',
      HEAD_SHA: options.head ?? HEAD,
      MANIFESTS_TREE: 'tree-1',
    },
  });
}

/** lookUp runs the step of the merge workflow that finds the reviewed plan. */
function lookUp(api: FakeGitHub) {
  return runGithubScript(findReviewed, {
    api,
    dir: '.',
    context: {
      repo: { owner: 'acme', repo: 'views' },
      sha: MERGE,
      runId: 9,
      serverUrl: 'https://github.com',
      payload: {},
    },
    env: { LOOK_BACK: '20' },
  });
}

const mergedPull = {
  number: 5,
  merged_at: '2026-01-01T00:00:00Z',
  merge_commit_sha: MERGE,
  head: { sha: HEAD },
  base: { ref: 'main' },
};
const planRun = {
  path: '.github/workflows/viewctl-plan.yml',
  event: 'pull_request',
  head_sha: HEAD,
  conclusion: 'success',
};

describe('the plan comment', () => {
  it('is created once, starting with the marker, carrying the digest, run, commit and tree', async () => {
    const api = fakeGitHub();
    expect((await postPlan(api, 2)).error).toBeUndefined();
    expect(api.created).toHaveLength(1);
    const body = api.created[0]?.body ?? '';
    expect(body.startsWith('<!-- viewctl-plan -->\n')).toBe(true);
    expect(body).toContain(
      `<!-- viewctl-plan-meta {"digest":"${DIGEST}","runId":4242,"headSha":"${HEAD}","manifestsTree":"tree-1"} -->`,
    );
    expect(body).toContain(PLAN_MD.trim());
  });

  it("is updated in place, and a marker in someone else's comment is ignored", async () => {
    const api = fakeGitHub({
      comments: [
        {
          id: 1,
          user: { login: 'mallory' },
          body: '<!-- viewctl-plan -->\n<!-- viewctl-plan-meta {"digest":"00"} -->',
        },
        { id: 2, user: BOT, body: '<!-- viewctl-plan -->\nold plan' },
      ],
    });
    await postPlan(api, 0);
    expect(api.created).toEqual([]);
    expect(api.updated.map((update) => update.comment_id)).toEqual([2]);
  });

  it('shows the error and carries no digest when the plan failed', async () => {
    const api = fakeGitHub();
    await postPlan(api, 1, {
      stderr:
        'error[pins.unknown-name]: pins/mia.yaml:3:15: no manifest, public view or default recordings view is named "Custmer calls"',
    });
    const body = api.created[0]?.body ?? '';
    expect(body).toContain('"digest":null');
    expect(body).toContain('viewctl plan failed (exit 1)');
    expect(body).toContain('pins.unknown-name');
  });

  it('shows the changes made in the app since the base apart, as viewctl plan --base rendered them', async () => {
    const { desired, live } = mixedScenario();
    const scoped = computePlan(desired, live, {
      scope: { base: { ref: 'origin/main', commit: 'abcdef1'.padEnd(40, '0') }, lists: 40, unread: 39 },
      origin: (change) => (change.action === 'update' ? 'unapplied-or-outside' : undefined),
    }).plan;
    const markdown = renderMarkdown(scoped, { color: false });
    const api = fakeGitHub();
    await postPlan(api, 2, { planMd: markdown });
    const body = api.created[0]?.body ?? '';
    const [own = '', outside] = body.split(
      '**Not applied or changed outside viewctl since origin/main: applying sets them to the manifests**',
    );
    expect(outside).toBeDefined();
    expect(own).not.toMatch(/\| ✏️ \|/);
    expect(outside).toMatch(/\| ⚠️ \| Drift \| \*\*1 RecordingView: attributes differ\*\*: \*\*Zoom and Meet calls\*\*/);
  });

  it('fits one comment (65,536 characters) with the longest markdown viewctl writes and the longest wrapper', async () => {
    // The renderer stays within MARKDOWN_LIMIT bytes, so within as many characters.
    const longest = `${'x'.repeat(MARKDOWN_LIMIT - 1)}\n`;
    const api = fakeGitHub();
    // A git branch name is at most 255 bytes.
    await postPlan(api, 2, {
      planMd: longest,
      uploaded: 'failure',
      runId: 99_999_999_999,
      pr: 99_999,
      baseRef: `release/${'b'.repeat(247)}`,
    });
    const body = api.created[0]?.body ?? '';
    expect(body).toContain(longest.trim());
    expect(body.length).toBeLessThanOrEqual(65_536);

    const { desired, live } = createsScenario(600);
    const markdown = renderMarkdown(computePlan(desired, live).plan, {
      color: false,
      planFile: 'plan.json',
      detailsUrl: 'https://github.com/acme/views/actions/runs/4242',
    });
    const real = fakeGitHub();
    await postPlan(real, 2, { planMd: markdown });
    expect(real.created[0]?.body).toContain('[the full plan](https://github.com/acme/views/actions/runs/4242)');
    expect((real.created[0]?.body ?? '').length).toBeLessThanOrEqual(65_536);
  });

  it('says first when the plan starts from the last applied commit: merging applies what earlier merges left unapplied', async () => {
    const message =
      'planned from the last applied commit 0fe96c2 (sweep memory), not --base ba5e000: includes 2 merged changes never applied since 0fe96c2';
    const api = fakeGitHub();
    await postPlan(api, 2, { warnings: [{ code: 'plan.includes-unapplied', message }] });
    const lines = api.created[0]?.body.split('\n') ?? [];
    expect(lines.slice(2, 4)).toEqual([
      '> [!IMPORTANT]',
      `> P${message.slice(1)}. Merging this pull request applies them with its own changes.`,
    ]);
    const plain = fakeGitHub();
    await postPlan(plain, 2);
    expect(plain.created[0]?.body).not.toContain('[!IMPORTANT]');
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
    expect(result.outputs).toEqual({
      pr: '5',
      queue: JSON.stringify([
        { pr: 5, digest: DIGEST, runId: 4242, manifestsTree: 'tree-1', mergeSha: MERGE, applied: false },
      ]),
      unreviewed: '[]',
    });
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
    const result = await lookUp(api);
    expect(result.error?.message).toContain('has no viewctl plan comment');
    // The merged pull request is named all the same: the recovery is posted on it.
    expect(result.outputs).toEqual({ pr: '5' });
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

describe('catching up on merges whose apply run GitHub dropped', () => {
  const H4 = 'a4'.padEnd(40, '4');
  const M4 = 'b4'.padEnd(40, '4');
  const pull4 = {
    number: 4,
    merged_at: '2025-12-31T00:00:00Z',
    merge_commit_sha: M4,
    head: { sha: H4 },
    base: { ref: 'main' },
  };
  const run4 = { ...planRun, head_sha: H4 };

  /** twoMerges: #4 then #5 merged, both planned; the push of #5 runs this apply. */
  async function twoMerges(): Promise<FakeGitHub> {
    const api = fakeGitHub({
      pulls: [mergedPull],
      closed: [mergedPull, pull4, { number: 3, merged_at: null }],
      runs: { 4242: planRun, 4204: run4 },
    });
    await postPlan(api, 2, { pr: 4, head: H4, runId: 4204 });
    await postPlan(api, 2);
    api.comments = api.created.map((created, index) => ({
      id: index + 1,
      user: BOT,
      body: created.body,
      issue_number: created.issue_number,
    }));
    api.created = [];
    return api;
  }

  /** reportOn runs the report step over apply results (`pr code` lines) in a scratch folder. */
  async function reportOn(api: FakeGitHub, results: string, unreviewed: unknown[] = []) {
    const { dir } = runStepScript('mkdir -p reviewed', { viewctlExit: 0 });
    writeFileSync(join(dir, 'reviewed', 'results'), results);
    writeFileSync(join(dir, 'reviewed', '4.md'), 'Applied: 1 created.\n');
    return runGithubScript(reportApplies, {
      api,
      dir,
      context: { repo: { owner: 'acme', repo: 'views' }, runId: 9, serverUrl: 'https://github.com', payload: {} },
      env: { UNREVIEWED: JSON.stringify(unreviewed) },
    });
  }

  it('applies the earlier merge first, then its own', async () => {
    const result = await lookUp(await twoMerges());
    expect(result.error).toBeUndefined();
    expect(JSON.parse(result.outputs.queue ?? '[]')).toEqual([
      { pr: 4, digest: DIGEST, runId: 4204, manifestsTree: 'tree-1', mergeSha: M4, applied: false },
      { pr: 5, digest: DIGEST, runId: 4242, manifestsTree: 'tree-1', mergeSha: MERGE, applied: false },
    ]);
  });

  it('marks a plan whose digest its own earlier apply report recorded as applied, and records the digest of each plan it applies', async () => {
    const api = await twoMerges();
    const queue = JSON.parse((await lookUp(api)).outputs.queue ?? '[]') as { pr: number; digest: string }[];
    // The job ran once and applied #5; then it runs again. #4 shares the digest but has no report of its own: viewctl decides.
    api.created = [];
    await reportWith(api, '5 0\n', queue);
    expect(api.created[0]?.body).toContain(`<!-- viewctl-apply-meta {"digest":"${DIGEST}","applied":true} -->`);
    api.comments.push({ id: 300, user: BOT, body: api.created[0]?.body ?? '', issue_number: 5 });
    const again = JSON.parse((await lookUp(api)).outputs.queue ?? '[]') as { pr: number; applied: boolean }[];
    expect(again.map((entry) => [entry.pr, entry.applied])).toEqual([
      [4, false],
      [5, true],
    ]);
    // A report that says the apply failed records nothing as applied.
    api.comments = api.comments.filter((comment) => comment.id !== 300);
    api.created = [];
    await reportWith(api, '5 3\n', queue);
    expect(api.created[0]?.body).toContain('"applied":false');
    api.comments.push({ id: 301, user: BOT, body: api.created[0]?.body ?? '', issue_number: 5 });
    expect(
      (JSON.parse((await lookUp(api)).outputs.queue ?? '[]') as { applied: boolean }[]).map((entry) => entry.applied),
    ).toEqual([false, false]);
  });

  it("applies a plan whose digest only another pull request's report recorded: a change reverted, then made again, plans the same digest", async () => {
    const api = await twoMerges();
    const queue = JSON.parse((await lookUp(api)).outputs.queue ?? '[]') as { pr: number; digest: string }[];
    // #4 made the change and was applied; a revert was applied since; #5 makes the change again, with #4's digest.
    api.created = [];
    await reportWith(api, '4 0\n', queue);
    api.comments.push({ id: 300, user: BOT, body: api.created[0]?.body ?? '', issue_number: 4 });
    const again = JSON.parse((await lookUp(api)).outputs.queue ?? '[]') as { pr: number; applied: boolean }[];
    expect(again.map((entry) => [entry.pr, entry.applied])).toEqual([[5, false]]);
  });

  /** reportWith runs the report step over apply results with the queue they came from. */
  async function reportWith(api: FakeGitHub, results: string, queue: unknown[]) {
    const { dir } = runStepScript('mkdir -p reviewed', { viewctlExit: 0 });
    writeFileSync(join(dir, 'reviewed', 'results'), results);
    return runGithubScript(reportApplies, {
      api,
      dir,
      context: { repo: { owner: 'acme', repo: 'views' }, runId: 9, serverUrl: 'https://github.com', payload: {} },
      env: { UNREVIEWED: '[]', QUEUE: JSON.stringify(queue) },
    });
  }

  it('reports on every pull request it handled, so the next run does not apply them again', async () => {
    const api = await twoMerges();
    expect((await reportOn(api, '4 0\n5 3\n')).error).toBeUndefined();
    expect(
      api.created.map((comment) => [comment.issue_number, comment.body.split('\n').slice(0, 2).join(' | ')]),
    ).toEqual([
      [4, '<!-- viewctl-apply --> | ### ✅ viewctl apply: applied'],
      [
        5,
        '<!-- viewctl-apply --> | ### ❌ viewctl apply: refused, nothing written: the plan is not the reviewed one, or deletes or changes more than max-deletes / max-pin-changes allow',
      ],
    ]);
    expect(api.created[0]?.body).toContain('Applied: 1 created.');
    // The next merge (#6) finds #4 and #5 reported on: only its own plan is left.
    api.comments.push(
      ...api.created.map((created, index) => ({
        id: 100 + index,
        user: BOT,
        body: created.body,
        issue_number: created.issue_number,
      })),
    );
    const H6 = 'a6'.padEnd(40, '6');
    const M6 = 'b6'.padEnd(40, '6');
    const pull6 = {
      number: 6,
      merged_at: '2026-01-02T00:00:00Z',
      merge_commit_sha: M6,
      head: { sha: H6 },
      base: { ref: 'main' },
    };
    api.pulls = [pull6];
    api.closed = [pull6, mergedPull, pull4];
    api.runs[4206] = { ...planRun, head_sha: H6 };
    await postPlan(api, 2, { pr: 6, head: H6, runId: 4206 });
    api.comments.push({ id: 200, user: BOT, body: api.created.at(-1)?.body ?? '', issue_number: 6 });
    const next = await runGithubScript(findReviewed, {
      api,
      dir: '.',
      context: {
        repo: { owner: 'acme', repo: 'views' },
        sha: M6,
        runId: 10,
        serverUrl: 'https://github.com',
        payload: {},
      },
      env: { LOOK_BACK: '20' },
    });
    expect(JSON.parse(next.outputs.queue ?? '[]').map((entry: { pr: number }) => entry.pr)).toEqual([6]);
  });

  it('skips merges that were never planned, and reports earlier ones that cannot be applied instead of applying them', async () => {
    const api = await twoMerges();
    // #4's plan failed: its comment carries no digest.
    api.comments = api.comments.map((comment) =>
      comment.issue_number === 4
        ? { ...comment, body: comment.body.replace(/"digest":"[0-9a-f]+"/, '"digest":null') }
        : comment,
    );
    api.closed.push({
      number: 2,
      merged_at: '2025-12-30T00:00:00Z',
      merge_commit_sha: 'c2',
      head: { sha: 'd2' },
      base: { ref: 'main' },
    });
    const result = await lookUp(api);
    expect(JSON.parse(result.outputs.queue ?? '[]').map((entry: { pr: number }) => entry.pr)).toEqual([5]);
    const unreviewed = JSON.parse(result.outputs.unreviewed ?? '[]') as { pr: number; reason: string }[];
    expect(unreviewed.map((entry) => entry.pr)).toEqual([4]);
    expect(unreviewed[0]?.reason).toContain('failed or was not saved');
    await reportOn(api, '5 0\n', unreviewed);
    expect(api.created.map((comment) => comment.issue_number)).toEqual([5, 4]);
    expect(api.created[1]?.body).toContain('not applied: the last plan on #4 failed or was not saved');
  });
});

describe('the recovery from a reviewed plan not carried out whole (issue 33)', () => {
  const applyScript = runOf(apply, stepById(apply, 'apply'));
  const recoveryScript = runOf(apply, stepById(apply, 'recovery-plan'));
  const recoverScript = runOf(apply, stepById(apply, 'recover'));
  const reportRecover = scriptOf(apply, (_uses, name) => name === 'Report the recovery on the pull request');
  const APPLIED = 'aa'.padEnd(40, 'a');
  const limits = { MAX_DELETES: '5', MAX_PIN_CHANGES: '100' };
  const one = (env: Record<string, string> = {}) => ({
    QUEUE: JSON.stringify([{ pr: 5, digest: DIGEST, runId: 4205, manifestsTree: 'tree-5', mergeSha: 'm5' }]),
    ...limits,
    ...env,
  });
  // The apply's markdown report with held targets, as src/render/apply-report.ts words it.
  const HELD_MD = [
    '````text',
    'Applied: 1 created, 0 updated, 0 pin lists, 0 deleted (2 requests in 0.0 s).',
    'Held, not written: 1 target changed since the plan was reviewed (the rest of the plan was carried out, as reviewed):',
    '  ⏸ held  create RecordingView "Team calls"  [apply.stale-target]',
    '            changed since the plan was reviewed (in the app, or by another apply): ...',
    '````',
    '',
  ].join('\n');
  const HELD_ONLY_MD = [
    '````text',
    'Held, nothing written: plan abc: all 2 of its changes are held; nothing was sent (2 reads to check).',
    'Held, not written: 1 target changed since the plan was reviewed, and 1 change depending on it:',
    '  ⏸ held  create RecordingView "Team calls"  [apply.stale-target] (1 held with it)',
    '            changed since the plan was reviewed (in the app, or by another apply): ...',
    '  ⏸ held  pinned recordings tabs of mia@acme.test  [apply.held-dependent]',
    '            depends on create RecordingView "Team calls", which is held',
    '````',
    '',
  ].join('\n');
  /**
   * ledgerWith writes a sweep memory holding `held` before the script runs, and has the stand-in
   * viewctl's apply leave it holding $HELD_AFTER (as an apply that advanced the record does).
   */
  const ledgerWith = (held: string[]) =>
    [
      'mkdir -p .viewctl',
      `printf '%s' '${JSON.stringify({ lastApplied: { commit: APPLIED, held } })}' >.viewctl/ledger.json`,
      'real_viewctl="$(command -v viewctl)"',
      'viewctl() { "$real_viewctl" "$@"; local code=$?; if [ -n "$HELD_AFTER" ]; then printf \'{"lastApplied":{"commit":"x","held":%s}}\' "$HELD_AFTER" >.viewctl/ledger.json; fi; return $code; }',
    ].join('\n');
  const recoveryPlan = (changes: number, base: string | null) =>
    JSON.stringify({
      digest: DIGEST,
      changes: Array.from({ length: changes }, () => ({})),
      ...(base === null ? {} : { scope: { base: { ref: base, commit: base } } }),
    });

  it('asks for a recovery when a plan was not applied, a merge had no reviewed plan, the record did not advance, or targets are held; not when all landed', () => {
    const all = runStepScript(applyScript, { viewctlExit: 0, gitTrees: { m5: 'tree-5' }, env: one() });
    expect(all.status, all.stderr).toBe(0);
    expect(all.outputs.recover).toBe('');
    const stale = runStepScript(applyScript, { viewctlExit: 3, gitTrees: { m5: 'tree-5' }, env: one() });
    expect(stale.outputs.recover).toBe('the reviewed plan of #5 was not applied');
    const unreviewed = runStepScript(applyScript, {
      viewctlExit: 0,
      gitTrees: { m5: 'tree-5' },
      env: one({ UNREVIEWED: JSON.stringify([{ pr: 4, reason: 'the last plan on #4 failed or was not saved' }]) }),
    });
    expect(unreviewed.status).toBe(0);
    expect(unreviewed.outputs.recover).toBe('a merged pull request had no reviewed plan to apply');
    const notAdvanced = runStepScript(applyScript, {
      viewctlExit: 0,
      viewctlStderr: "note: the sweep memory's last applied commit was not advanced: the plan read only ...\n",
      gitTrees: { m5: 'tree-5' },
      env: one(),
    });
    expect(notAdvanced.outputs.recover).toContain('last applied commit was not advanced');
    // The memory holds a target after the apply that it did not hold before: the apply held it.
    const held = runStepScript(`${ledgerWith(['RecordingView/Old'])}\n${applyScript}`, {
      viewctlExit: 0,
      viewctlStdout: HELD_MD,
      gitTrees: { m5: 'tree-5' },
      env: one({ HELD_AFTER: JSON.stringify(['RecordingView/Old', 'RecordingView/Team calls']) }),
    });
    expect(held.status, held.stderr).toBe(0);
    expect(held.outputs.recover).toBe('the apply held targets (its output names them and why)');
  });

  it('plans no recovery for a hold the memory held before this run: a hold whose cause lasts would plan one on every merge', () => {
    const lasting = runStepScript(`${ledgerWith(['RecordingView/Team calls'])}\n${applyScript}`, {
      viewctlExit: 0,
      viewctlStdout: HELD_MD,
      gitTrees: { m5: 'tree-5' },
      env: one({ HELD_AFTER: JSON.stringify(['RecordingView/Team calls']) }),
    });
    expect(lasting.status, lasting.stderr).toBe(0);
    expect(lasting.outputs.recover).toBe('');
    // The summary still says the plan held targets.
    expect(lasting.summary).toContain('viewctl apply of #5: applied, 1 held (changed since the review');
  });

  it('says "applied, N held" when the apply held targets, and "nothing written, N held" when it held every change', () => {
    const some = runStepScript(applyScript, {
      viewctlExit: 0,
      viewctlStdout: HELD_MD,
      gitTrees: { m5: 'tree-5' },
      env: one(),
    });
    expect(readFileSync(join(some.dir, 'reviewed', 'results'), 'utf8')).toBe('5 0 1\n');
    expect(some.summary).toContain(
      'viewctl apply of #5: applied, 1 held (changed since the review; the recovery plans them)',
    );
    const all = runStepScript(applyScript, {
      viewctlExit: 0,
      viewctlStdout: HELD_ONLY_MD,
      gitTrees: { m5: 'tree-5' },
      env: one(),
    });
    expect(readFileSync(join(all.dir, 'reviewed', 'results'), 'utf8')).toBe('5 held 2\n');
    expect(all.summary).toContain('viewctl apply of #5: nothing written, 2 held (changed since the review');
    // Without the memory, held targets ask for a recovery all the same.
    expect(all.outputs.recover).toContain('the apply held targets');
  });

  it('plans main from the last applied commit with the memory (--since-applied), and offers that plan for approval', () => {
    const run = runStepScript(recoveryScript, {
      viewctlExit: 2,
      viewctlStdout: PLAN_MD,
      viewctlPlan: recoveryPlan(1, APPLIED),
      env: { ...limits, WHY: 'the reviewed plan of #5 was not applied', HEAD_SHA: MERGE },
    });
    expect(run.status, run.stderr).toBe(0);
    expect(run.viewctlCalls).toEqual([
      [
        'plan',
        '.',
        '--since-applied',
        ...LEDGER,
        '--max-deletes',
        '5',
        '--max-pin-changes',
        '100',
        '--format',
        'markdown',
        '--out',
        'recovery/plan.json',
        '--detailed-exitcode',
      ],
    ]);
    expect(run.outputs).toEqual({
      why: 'the reviewed plan of #5 was not applied',
      'exit-code': '2',
      digest: DIGEST,
      base: APPLIED,
      offered: DIGEST,
    });
    expect(run.summary).toContain('### viewctl recovery: the reviewed plan of #5 was not applied');
    // Said to be posted only where the report step posts it: on the pull request this push merged.
    expect(run.summary).not.toContain('It is posted on');
    const merged = runStepScript(recoveryScript, {
      viewctlExit: 2,
      viewctlPlan: recoveryPlan(1, APPLIED),
      env: { ...limits, WHY: 'x', HEAD_SHA: MERGE, MERGED_PR: '5' },
    });
    expect(merged.summary).toContain('It is posted on the merged pull request #5 too.');
    expect(run.summary).toContain(`planned from the last applied commit ${APPLIED.slice(0, 7)}`);
    expect(run.summary).toContain('approve the recover job waiting in this run');
    expect(run.summary).toContain(PLAN_MD);
  });

  it('reads every list when the memory records no applied commit, and offers nothing when nothing is left to apply', () => {
    const full = runStepScript(recoveryScript, {
      viewctlExit: 2,
      viewctlExits: [1, 2],
      viewctlStderr: 'error[usage.no-applied-commit]: --since-applied: the sweep memory records no applied commit\n',
      viewctlPlan: recoveryPlan(3, null),
      env: { ...limits, WHY: 'x', HEAD_SHA: MERGE },
    });
    expect(full.status, full.stderr).toBe(0);
    expect(full.viewctlCalls.map((call) => call.includes('--since-applied'))).toEqual([true, false]);
    expect(full.outputs.offered).toBe(DIGEST);
    expect(full.summary).toContain('every pinned list (the sweep memory records no applied commit to start from)');
    const nothing = runStepScript(recoveryScript, {
      viewctlExit: 2,
      viewctlPlan: recoveryPlan(0, MERGE),
      env: { ...limits, WHY: 'the apply held targets', HEAD_SHA: MERGE },
    });
    expect(nothing.status).toBe(0);
    expect(nothing.outputs.offered).toBe('');
    expect(nothing.summary).toContain('nothing to approve');
  });

  it('fails with the error and the ways out when the recovery plan fails', () => {
    const run = runStepScript(recoveryScript, {
      viewctlExit: 1,
      viewctlStderr: 'error[service.unauthorized]: the service did not accept the API key\n',
      env: { ...limits, WHY: 'x', HEAD_SHA: MERGE },
    });
    expect(run.status).not.toBe(0);
    expect(run.viewctlCalls).toHaveLength(1);
    expect(run.outputs.offered).toBeUndefined();
    expect(run.summary).toContain('re-run this job');
    expect(run.summary).toContain('service.unauthorized');
  });

  it('posts the recovery plan on the merged pull request, marked and with its digest and run, and tells each report what to do', async () => {
    const api = fakeGitHub();
    const { dir } = runStepScript('mkdir -p reviewed recovery', { viewctlExit: 0 });
    writeFileSync(join(dir, 'reviewed', 'results'), '5 3\n');
    writeFileSync(join(dir, 'recovery', 'plan.md'), PLAN_MD);
    const result = await runGithubScript(reportApplies, {
      api,
      dir,
      context: {
        repo: { owner: 'acme', repo: 'views' },
        runId: 9,
        sha: MERGE,
        serverUrl: 'https://github.com',
        payload: {},
      },
      env: {
        UNREVIEWED: '[]',
        QUEUE: JSON.stringify([{ pr: 5, digest: DIGEST }]),
        PR: '5',
        WHY: 'the reviewed plan of #5 was not applied',
        RECOVERY_EXIT: '2',
        RECOVERY_DIGEST: DIGEST,
        RECOVERY_OFFERED: DIGEST,
        RECOVERY_BASE: APPLIED,
      },
    });
    expect(result.error).toBeUndefined();
    expect(api.created.map((comment) => comment.issue_number)).toEqual([5, 5]);
    const [report, recovery] = api.created.map((comment) => comment.body);
    expect(report).toContain('### ❌ viewctl apply: refused, nothing written');
    expect(report).toContain(
      `The recovery plan (main's manifests planned from the last applied commit ${APPLIED.slice(0, 7)}`,
    );
    expect(report).toContain('approve the recover job waiting in [run 9]');
    expect(report).not.toMatch(/open a pull request to plan|empty\s+commit/);
    expect(recovery?.startsWith('<!-- viewctl-recovery -->\n')).toBe(true);
    expect(recovery).toContain(
      `<!-- viewctl-recovery-meta ${JSON.stringify({ digest: DIGEST, runId: 9, headSha: MERGE, base: APPLIED })} -->`,
    );
    expect(recovery).toContain(PLAN_MD.trim());
  });

  it('posts the recovery on the merged pull request when its reviewed plan was not found (no plan applied, no report)', async () => {
    const api = fakeGitHub();
    const { dir } = runStepScript('mkdir -p recovery', { viewctlExit: 0 });
    writeFileSync(join(dir, 'recovery', 'plan.md'), PLAN_MD);
    const result = await runGithubScript(reportApplies, {
      api,
      dir,
      context: {
        repo: { owner: 'acme', repo: 'views' },
        runId: 9,
        sha: MERGE,
        serverUrl: 'https://github.com',
        payload: {},
      },
      env: {
        PR: '5',
        WHY: 'the merged change has no reviewed plan to apply (the job log says why)',
        RECOVERY_EXIT: '2',
        RECOVERY_DIGEST: DIGEST,
        RECOVERY_OFFERED: DIGEST,
        RECOVERY_BASE: APPLIED,
      },
    });
    expect(result.error).toBeUndefined();
    expect(api.created.map((comment) => [comment.issue_number, comment.body.split('\n')[0]])).toEqual([
      [5, '<!-- viewctl-recovery -->'],
    ]);
    expect(api.created[0]?.body).toContain('### viewctl recovery: the merged change has no reviewed plan to apply');
  });

  it('reports a plan that held targets as "applied, N held", records it held, and points to the recovery', async () => {
    const report = async (results: string, why: string) => {
      const api = fakeGitHub();
      const { dir } = runStepScript('mkdir -p reviewed recovery', { viewctlExit: 0 });
      writeFileSync(join(dir, 'reviewed', 'results'), results);
      writeFileSync(join(dir, 'reviewed', '5.md'), HELD_MD);
      writeFileSync(join(dir, 'recovery', 'plan.md'), PLAN_MD);
      await runGithubScript(reportApplies, {
        api,
        dir,
        context: {
          repo: { owner: 'acme', repo: 'views' },
          runId: 9,
          sha: MERGE,
          serverUrl: 'https://github.com',
          payload: {},
        },
        env: {
          UNREVIEWED: '[]',
          QUEUE: JSON.stringify([{ pr: 5, digest: DIGEST }]),
          PR: '5',
          WHY: why,
          ...(why === ''
            ? {}
            : { RECOVERY_EXIT: '2', RECOVERY_DIGEST: DIGEST, RECOVERY_OFFERED: DIGEST, RECOVERY_BASE: APPLIED }),
        },
      });
      return api.created.map((comment) => comment.body);
    };
    const [applied = '', recovery] = await report('5 0 1\n', 'the apply held targets (its output names them and why)');
    expect(applied.split('\n').slice(1, 3)).toEqual([
      `<!-- viewctl-apply-meta ${JSON.stringify({ digest: DIGEST, applied: true, held: true })} -->`,
      '### ⏸ viewctl apply: applied, 1 held (changed since the review; the recovery plans them)',
    ]);
    expect(applied).toContain('approve the recover job waiting in [run 9]');
    expect(recovery?.startsWith('<!-- viewctl-recovery -->')).toBe(true);
    const [none = ''] = await report('5 held 2\n', 'the apply held targets (its output names them and why)');
    expect(none).toContain('### ⏸ viewctl apply: nothing written, 2 held (changed since the review');
    // Held before this run too: no recovery was planned, and the report says what takes them.
    const [lasting = '', ...more] = await report('5 0 1\n', '');
    expect(more).toEqual([]);
    expect(lasting).toContain('These targets were held before this merge too');
    expect(lasting).not.toContain('Re-run');
  });

  it('applies a plan that held targets again on a re-run (viewctl says what is still held), not "already applied"', async () => {
    const api = fakeGitHub({ pulls: [mergedPull], runs: { 4242: planRun } });
    await postPlan(api, 2);
    api.comments = api.created.map((created, index) => ({
      id: index + 1,
      user: BOT,
      body: created.body,
      issue_number: 5,
    }));
    api.comments.push({
      id: 50,
      user: BOT,
      issue_number: 5,
      body: `<!-- viewctl-apply -->\n<!-- viewctl-apply-meta ${JSON.stringify({ digest: DIGEST, applied: true, held: true })} -->`,
    });
    const queue = JSON.parse((await lookUp(api)).outputs.queue ?? '[]') as { pr: number; applied: boolean }[];
    expect(queue.map((entry) => [entry.pr, entry.applied])).toEqual([[5, false]]);
  });

  it('posts no recovery comment when every plan applied and the recovery has nothing to apply (a hold whose cause lasts)', async () => {
    const api = fakeGitHub();
    const { dir } = runStepScript('mkdir -p reviewed recovery', { viewctlExit: 0 });
    writeFileSync(join(dir, 'reviewed', 'results'), '5 0\n');
    writeFileSync(join(dir, 'recovery', 'plan.md'), PLAN_MD);
    await runGithubScript(reportApplies, {
      api,
      dir,
      context: {
        repo: { owner: 'acme', repo: 'views' },
        runId: 9,
        sha: MERGE,
        serverUrl: 'https://github.com',
        payload: {},
      },
      env: {
        UNREVIEWED: '[]',
        QUEUE: JSON.stringify([{ pr: 5, digest: DIGEST }]),
        PR: '5',
        WHY: 'the apply held targets (its output names them and why)',
        RECOVERY_EXIT: '2',
        RECOVERY_DIGEST: DIGEST,
        RECOVERY_OFFERED: '',
        RECOVERY_BASE: MERGE,
      },
    });
    expect(api.created.map((comment) => comment.body.split('\n')[2])).toEqual(['### ✅ viewctl apply: applied']);
  });

  it('applies the approved recovery plan with its digest and the memory, and reports on the merged pull request', async () => {
    const run = runStepScript(recoverScript, { viewctlExit: 0, env: { ...limits, DIGEST } });
    expect(run.status, run.stderr).toBe(0);
    expect(run.viewctlCalls).toEqual([
      [
        'apply',
        '--plan',
        'recovery/plan.json',
        '--expect-digest',
        DIGEST,
        '--max-deletes',
        '5',
        '--max-pin-changes',
        '100',
        ...LEDGER,
        '--format',
        'markdown',
      ],
    ]);
    expect(run.summary).toContain('### viewctl recovery apply: applied; the sweep memory records main as applied');
    const stale = runStepScript(recoverScript, { viewctlExit: 3, env: { ...limits, DIGEST } });
    expect(stale.status).not.toBe(0);
    expect(stale.outputs.says).toContain('re-run the whole run to plan the recovery again');
    // Exit 3 is a refusal (not that plan, or past the limits); a target changed since is held, under exit 0.
    expect(stale.outputs.says).toContain('not the recovery plan posted');
    expect(run.outputs.says).toContain('is held');
    const missing = runStepScript(recoverScript, { viewctlExit: 0, env: { ...limits, DIGEST: '' } });
    expect(missing.status).not.toBe(0);
    expect(missing.viewctlCalls).toEqual([]);

    const api = fakeGitHub({ pulls: [mergedPull] });
    await runGithubScript(reportRecover, {
      api,
      dir: run.dir,
      context: {
        repo: { owner: 'acme', repo: 'views' },
        runId: 9,
        sha: MERGE,
        serverUrl: 'https://github.com',
        payload: {},
      },
      env: { EXIT_CODE: '0', SAYS: run.outputs.says ?? '', DIGEST },
    });
    expect(api.created).toHaveLength(1);
    expect(api.created[0]?.issue_number).toBe(5);
    expect(api.created[0]?.body).toContain('### ✅ viewctl recovery apply: applied');
  });
});

describe("the drift workflow's one issue", () => {
  const driftIssue = scriptOf(drift, (_uses, name) => name === 'Open, update or close the drift issue');
  const BOT = { login: 'github-actions[bot]' };

  async function report(api: FakeGitHub, exitCode: number, outcome?: string, planMd = PLAN_MD) {
    const { dir } = runStepScript('true', { viewctlExit: 0 });
    writeFileSync(join(dir, 'plan.md'), planMd);
    writeFileSync(join(dir, 'plan.err'), 'error[service.unauthorized]: the service did not accept the API key\n');
    return runGithubScript(driftIssue, {
      api,
      dir,
      context: { repo: { owner: 'acme', repo: 'views' }, runId: 77, serverUrl: 'https://github.com', payload: {} },
      env: { EXIT_CODE: String(exitCode), ...(outcome === undefined ? {} : { OUTCOME: outcome }) },
    });
  }

  it('on repair nights: names what was left, says a reviewed apply is due, and closes with what was repaired', async () => {
    const api = fakeGitHub();
    const left = `${PLAN_MD}Repaired: 2 pin lists (members ana@acme.test).\nLeft for a reviewed apply (self-heal never carries them out): 1 deletion ("Scratch").\n`;
    await report(api, 0, 'left', left);
    expect(api.issues).toHaveLength(1);
    expect(api.issues[0]).toMatchObject({
      title: 'viewctl: drift repaired, some left for a reviewed change',
      state: 'open',
    });
    expect(api.issues[0]?.body).toContain('Repaired: 2 pin lists (members ana@acme.test).');
    expect(api.issues[0]?.body).toContain('1 deletion ("Scratch")');
    await report(api, 3, 'review-due');
    expect(api.issues[0]).toMatchObject({ title: 'viewctl: a reviewed apply is due before self-heal' });
    await report(api, 0, 'repaired', `${PLAN_MD}Repaired: 1 view re-created ("Team calls").\n`);
    expect(api.issues[0]?.state).toBe('closed');
    expect(api.created.at(-1)?.body).toMatch(
      /^Repaired, in sync again \(\[run 77\]\(.*\)\): 1 view re-created \("Team calls"\)\.$/,
    );
  });

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
    const api = fakeGitHub({
      issues: [{ number: 1, user: { login: 'mallory' }, title: 'x', body: '<!-- viewctl-drift -->', state: 'open' }],
    });
    await report(api, 0);
    expect(api.issues.filter((issue) => issue.user.login === BOT.login)).toHaveLength(0);
    await report(api, 2);
    expect(api.issues.find((issue) => issue.number === 1)?.body).toBe('<!-- viewctl-drift -->');
    expect(api.issues.filter((issue) => issue.user.login === BOT.login)).toHaveLength(1);
  });
});
