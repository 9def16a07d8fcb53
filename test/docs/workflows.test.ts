import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { commandHelp, topLevelCommands, type CommandHelp } from './cli-help.js';
import { viewctlInvocations, type Invocation } from './shell-commands.js';
import {
  ACTION,
  REPO,
  allSteps,
  evaluate,
  loadAction,
  loadWorkflow,
  parseWorkflowYaml,
  stepById,
  stepByName,
  workflowPaths,
  type Step,
  type Workflow,
} from './workflow-files.js';
import { evaluateExpression } from './expressions.js';

// The workflows users copy (examples/.github/workflows), the action they call
// (.github/actions/viewctl) and the project's CI must be valid, minimal in what they
// may do, and call viewctl only with commands and flags that exist: a renamed flag
// must break this test, not a user's pipeline.

const USER_WORKFLOWS = {
  plan: 'examples/.github/workflows/viewctl-plan.yml',
  apply: 'examples/.github/workflows/viewctl-apply.yml',
  drift: 'examples/.github/workflows/viewctl-drift.yml',
} as const;
const CI = '.github/workflows/ci.yml';

/** ALLOWED_ACTIONS are the only actions a workflow may use: GitHub's own, major-pinned. */
const ALLOWED_ACTIONS = [
  'actions/checkout',
  'actions/setup-node',
  'actions/upload-artifact',
  'actions/download-artifact',
  'actions/github-script',
  'actions/cache/restore',
  'actions/cache/save',
];

/** PINNED are the commits of the released tags the workflows use (checkout v4.2.2, setup-node v4.4.0, upload-artifact v4.6.2, download-artifact v4.3.0, github-script v7.0.1, cache v4.2.3). */
const PINNED: Readonly<Record<string, string>> = {
  'actions/checkout': '11bd71901bbe5b1630ceea73d27597364c9af683',
  'actions/setup-node': '49933ea5288caeca8642d1e84afbd3f7d6820020',
  'actions/upload-artifact': 'ea165f8d65b6e75b540449e92b4886f43607fa02',
  'actions/download-artifact': 'd3f86a106a0bac45b974a628896c90dbdf5c8093',
  'actions/github-script': '60a0d83039c74a4aee543508d2ffcb1c3799cdea',
  'actions/cache/restore': '5a3ec84eff668545956fd18022155c47e93e2684',
  'actions/cache/save': '5a3ec84eff668545956fd18022155c47e93e2684',
};

/** VIEWCTL_ACTION is how the example workflows name the action: one ref, the release tag of this version. */
const { version: VERSION } = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string };
const VIEWCTL_ACTION = `your-org/viewctl/${ACTION.replace(/\/action\.yml$/, '')}@v${VERSION}`;

/** MANIFESTS is how every user workflow names the manifests folder: a repository variable, manifests/ without one. */
const MANIFESTS = "${{ vars.VIEWCTL_MANIFESTS || 'manifests' }}";
const DIGEST = 'ab'.repeat(32);

const paths = workflowPaths();
const action = loadAction(ACTION);
const workflows = new Map<string, Workflow>();
const help = new Map<string, CommandHelp>();
let commands: string[] = [];

beforeAll(() => {
  for (const path of paths) workflows.set(path, loadWorkflow(path));
  commands = topLevelCommands();
  for (const command of commands) help.set(command, commandHelp(command));
});

const workflow = (path: string): Workflow => {
  const found = workflows.get(path);
  if (found === undefined) throw new Error(`${path} was not loaded`);
  return found;
};

/** invocations lists every viewctl call in the run steps of a workflow or of the action, with the step. */
function invocations(flow: Workflow): Array<Invocation & { step: string }> {
  return allSteps(flow).flatMap(({ step }) =>
    step.run === undefined
      ? []
      : viewctlInvocations(step.run).map((call) => ({ ...call, step: step.name ?? step.id ?? '?' })),
  );
}

/** actionSteps are the steps of a user workflow that call the viewctl action: one per job (apply has two jobs). */
function actionSteps(path: string): Step[] {
  return allSteps(workflow(path))
    .filter(({ step }) => step.uses?.split('@')[0] === VIEWCTL_ACTION.split('@')[0])
    .map(({ step }) => step);
}

/** actionStep is the step of a user workflow's first job that calls the viewctl action. */
function actionStep(path: string): Step {
  const [first] = actionSteps(path);
  expect(first, path).toBeDefined();
  return first ?? {};
}

/** ACTION_STEPS is how many jobs of each user workflow call the action: apply's second job applies the recovery plan. */
const ACTION_STEPS: Readonly<Record<string, number>> = {
  [USER_WORKFLOWS.plan]: 1,
  [USER_WORKFLOWS.apply]: 2,
  [USER_WORKFLOWS.drift]: 1,
};

describe('workflow files', () => {
  it('are the CI and the three workflows users copy', () => {
    expect(paths).toEqual([CI, USER_WORKFLOWS.apply, USER_WORKFLOWS.drift, USER_WORKFLOWS.plan].sort());
  });

  it.each(paths)('%s is valid YAML with a name, triggers, permissions and jobs', (path) => {
    expect(parseWorkflowYaml(path).errors).toEqual([]);
    const flow = workflow(path);
    expect(typeof flow.name).toBe('string');
    expect(Object.keys(flow.on ?? {}).length).toBeGreaterThan(0);
    // Explicit, workflow-wide and never write-all: the token can do only what is listed.
    expect(typeof flow.permissions).toBe('object');
    expect(flow.permissions).not.toHaveProperty('write-all');
    expect(Object.keys(flow.jobs).length).toBeGreaterThan(0);
    for (const [name, job] of Object.entries(flow.jobs)) {
      expect(job['runs-on'], name).toBe('ubuntu-latest');
      expect(job['timeout-minutes'], `${name} has a timeout`).toBeGreaterThan(0);
      expect(job.permissions, `${name} widens no permission`).toBeUndefined();
      for (const step of job.steps)
        expect(step.run === undefined, `a step of ${name} both runs and uses`).not.toBe(step.uses === undefined);
    }
  });

  it.each([...paths, ACTION])(
    "%s uses only GitHub's own actions, pinned to a commit with its version tag beside it (and the viewctl action by its release tag)",
    (path) => {
      const text = readFileSync(join(REPO, path), 'utf8');
      const flow = path === ACTION ? action : workflow(path);
      for (const { step } of allSteps(flow)) {
        if (step.uses === undefined) continue;
        if (path !== ACTION && step.uses === VIEWCTL_ACTION) continue;
        const [name, version] = step.uses.split('@');
        expect(ALLOWED_ACTIONS, step.uses).toContain(name);
        // A tag can be moved to other code; a commit cannot. One commit per action everywhere.
        expect(version, step.uses).toMatch(/^[0-9a-f]{40}$/);
        expect(text).toMatch(new RegExp(`uses: ${step.uses} # v\\d+\\.\\d+\\.\\d+\\n`));
        expect(PINNED[name ?? ''], step.uses).toBe(version);
      }
    },
  );

  it.each([USER_WORKFLOWS.plan, USER_WORKFLOWS.apply, USER_WORKFLOWS.drift])(
    '%s checks out the whole history in every job: the memory compares the manifests with those of the last applied commit',
    (path) => {
      const checkouts = allSteps(workflow(path)).filter(({ step }) => step.uses?.startsWith('actions/checkout@'));
      expect(checkouts).toHaveLength(Object.keys(workflow(path).jobs).length);
      for (const { step } of checkouts) expect(step.with?.['fetch-depth']).toBe(0);
    },
  );

  it.each(Object.values(USER_WORKFLOWS))(
    '%s names no branch: its jobs run for the default branch, whatever it is called',
    (path) => {
      expect(readFileSync(join(REPO, path), 'utf8')).not.toMatch(/branches:|['"[]main['"\]]|:\s*main\s*$/m);
      const flow = workflow(path);
      for (const [name, job] of Object.entries(flow.jobs)) {
        const condition = (job as { if?: string }).if;
        if (condition === undefined || condition.includes('needs.')) continue;
        const on = (branch: string, base: string): unknown =>
          evaluateExpression(condition, {
            github: {
              ref_name: branch,
              event: { repository: { default_branch: base }, pull_request: { base: { ref: branch } } },
            },
          });
        expect(on('trunk', 'trunk'), name).toBe(true);
        expect(on('main', 'main'), name).toBe(true);
        expect(on('feature', 'trunk'), name).toBe(false);
      }
    },
  );

  it.each([...paths, ACTION])('%s passes expressions to scripts through env, never inline', (path) => {
    // `${{ ... }}` inside a script is expanded before the shell runs: a branch name or
    // comment could inject commands. Values go through `env:` instead.
    for (const { step } of allSteps(path === ACTION ? action : workflow(path))) {
      expect(step.run ?? '', step.name).not.toContain('${{');
      expect(String(step.with?.script ?? ''), step.name).not.toContain('${{');
    }
  });
});

describe("the project's CI", () => {
  it('installs, type-checks and tests on Node 20 and 22', () => {
    const flow = workflow(CI);
    expect(Object.keys(flow.on)).toEqual(expect.arrayContaining(['push', 'pull_request']));
    expect(flow.permissions).toEqual({ contents: 'read' });
    const [job] = Object.values(flow.jobs);
    expect((job as unknown as { strategy: { matrix: { node: string[] } } }).strategy.matrix.node).toEqual(['20', '22']);
    const runs = job?.steps.flatMap((step) => (step.run === undefined ? [] : [step.run.trim()]));
    expect(runs?.slice(0, 3)).toEqual(['npm ci', 'npm run typecheck', 'npm test']);
    const setup = job?.steps.find((step) => step.uses?.startsWith('actions/setup-node@'));
    expect(setup?.with?.['node-version']).toBe('${{ matrix.node }}');
  });
});

describe('the viewctl action', () => {
  const userPaths = Object.values(USER_WORKFLOWS);

  it('is a valid composite action whose every step runs only for its command', () => {
    expect(action.name).toBe('viewctl');
    expect(Object.keys(action.inputs)).toEqual([
      'command',
      'manifests',
      'api-key',
      'base-url',
      'github-token',
      'max-deletes',
      'max-pin-changes',
      'look-back',
      'budget',
      'repair',
      'digest',
      'pinned-by',
    ]);
    const steps = action.jobs.action?.steps ?? [];
    for (const step of steps) {
      if (step.run !== undefined) expect(step.shell, step.name).toBe('bash');
      const command = /inputs\.command == '(plan|apply|recover|drift)'/.exec(step.if ?? '')?.[1];
      if (command !== undefined) continue;
      // Only the shared steps run for every command: check, Node, install.
      expect(['Check the command', 'Install viewctl', undefined], step.name).toContain(step.name);
    }
  });

  it('runs plan, apply, the recovery and drift (the reader of run steps works)', () => {
    expect(invocations(action).map((call) => [call.step, call.subcommand])).toEqual([
      ['Plan', 'plan'],
      ['Apply', 'apply'],
      ['Plan the recovery', 'plan'],
      ['Plan the recovery', 'plan'],
      ['Apply the recovery plan', 'apply'],
      ['Check for drift', 'apply'],
      ['Check for drift', 'plan'],
    ]);
  });

  it('calls only commands and flags that exist', () => {
    for (const call of invocations(action)) {
      expect(commands, call.line).toContain(call.subcommand);
      const options = help.get(call.subcommand ?? '')?.options ?? [];
      const positional: string[] = [];
      for (let i = 0; i < call.args.length; i += 1) {
        const arg = call.args[i] ?? '';
        if (!arg.startsWith('-')) {
          positional.push(arg);
          continue;
        }
        const [flag, inline] = arg.split('=', 2);
        const option = options.find((candidate) => candidate.flag === flag);
        expect(option, `${flag} in: ${call.line}`).toBeDefined();
        if (option?.value !== undefined && inline === undefined) {
          const value = call.args[i + 1];
          expect(value !== undefined && !value.startsWith('--'), `${flag} needs a value in: ${call.line}`).toBe(true);
          i += 1;
        }
        if (option?.value === undefined) expect(inline, `${flag} takes no value in: ${call.line}`).toBeUndefined();
      }
      if (!help.get(call.subcommand ?? '')?.takesArguments) expect(positional, call.line).toEqual([]);
    }
  });

  it('installs viewctl from its own checkout and checks the version it built', () => {
    const install = allSteps(action).filter(({ step }) => step.run?.includes('npm install'));
    expect(install).toHaveLength(1);
    const script = install[0]?.step.run ?? '';
    expect(script).toContain('root="$(cd "$GITHUB_ACTION_PATH/../../.." && pwd)"');
    expect(script).toContain('npm ci --prefix "$root"');
    expect(script).toContain('npm install --global "$root"');
    expect(script).toContain('test "$(viewctl --version)" = "$want"');
    // Never the registry's package (viewctl is not published there).
    expect(readFileSync(join(REPO, ACTION), 'utf8')).not.toMatch(/npx viewctl|[\s"']viewctl@/);
  });

  it('gives the key and base URL only to the steps that run viewctl', () => {
    for (const { step } of allSteps(action)) {
      const runsViewctl = step.run !== undefined && viewctlInvocations(step.run).length > 0;
      if (runsViewctl) {
        expect(step.env?.VIEWCTL_API_KEY, step.name).toBe('${{ inputs.api-key }}');
        expect(step.env?.VIEWCTL_BASE_URL, step.name).toBe('${{ inputs.base-url }}');
      } else {
        expect(JSON.stringify(step), step.name).not.toContain('inputs.api-key');
      }
    }
  });

  it.each(userPaths)(
    '%s calls it once per job, at the one ref of this version, with inputs it declares and the key from the secret',
    (path) => {
      const steps = actionSteps(path);
      expect(steps).toHaveLength(ACTION_STEPS[path] ?? 1);
      for (const step of steps) {
        expect(step.uses).toBe(VIEWCTL_ACTION);
        const given = Object.keys(step.with ?? {});
        for (const input of given) expect(Object.keys(action.inputs), input).toContain(input);
        for (const [input, declared] of Object.entries(action.inputs))
          if (declared.required === true) expect(given, input).toContain(input);
        expect(step.with?.['api-key']).toBe('${{ secrets.VIEWCTL_API_KEY }}');
        expect(step.with?.['base-url']).toBe('${{ vars.VIEWCTL_BASE_URL }}');
        // The recovery plan file names what it applies; every other command reads the manifests.
        if (step.with?.command !== 'recover') expect(step.with?.manifests).toBe(MANIFESTS);
      }
      const flow = workflow(path);
      expect(JSON.stringify(flow.env ?? {})).not.toContain('VIEWCTL_API_KEY');
      for (const { step: other } of allSteps(flow))
        if (!steps.includes(other)) expect(JSON.stringify(other)).not.toContain('secrets.');
      expect(readFileSync(join(REPO, path), 'utf8')).not.toMatch(/npm install|npx viewctl|[\s"']viewctl@/);
    },
  );
});

describe('setting the workflows up', () => {
  const userPaths = Object.values(USER_WORKFLOWS);

  it.each(userPaths)('%s needs only the action reference set: the placeholder is on those lines only', (path) => {
    const lines = readFileSync(join(REPO, path), 'utf8').split('\n');
    const placeholders = lines.filter((line) => line.includes('your-org'));
    expect(placeholders).toEqual(Array(ACTION_STEPS[path] ?? 1).fill(`      - uses: ${VIEWCTL_ACTION}`));
  });

  it.each(userPaths)('%s takes the manifests folder from a repository variable, manifests/ by default', (path) => {
    const manifests = String(actionStep(path).with?.manifests);
    expect(manifests).toBe(MANIFESTS);
    expect(evaluate(manifests, { vars: {} })).toBe('manifests');
    expect(evaluate(manifests, { vars: { VIEWCTL_MANIFESTS: 'config/views' } })).toBe('config/views');
  });

  it("takes the limits from repository variables, with the action's defaults", () => {
    const maxDeletes = String(actionStep(USER_WORKFLOWS.apply).with?.['max-deletes']);
    expect(evaluate(maxDeletes, { vars: {} })).toBe(action.inputs['max-deletes']?.default);
    expect(evaluate(maxDeletes, { vars: { VIEWCTL_MAX_DELETES: '20' } })).toBe('20');
    const budget = String(actionStep(USER_WORKFLOWS.drift).with?.budget);
    expect(evaluate(budget, { vars: {} })).toBe(action.inputs.budget?.default);
    expect(evaluate(budget, { vars: { VIEWCTL_DRIFT_BUDGET: '400' } })).toBe('400');
    const repair = String(actionStep(USER_WORKFLOWS.drift).with?.repair);
    expect(evaluate(repair, { vars: {} })).toBe(action.inputs.repair?.default);
    expect(action.inputs.repair?.default).toBe('false');
    expect(evaluate(repair, { vars: { VIEWCTL_DRIFT_REPAIR: 'true' } })).toBe('true');
  });

  it('gives the action the same manifests default as the workflows', () => {
    expect(action.inputs.manifests?.default).toBe('manifests');
  });
});

describe('the pull request workflow', () => {
  const flow = () => workflow(USER_WORKFLOWS.plan);

  it('runs on pull requests, may only read code and write the comment, and supersedes older runs', () => {
    expect(flow().on).toEqual({ pull_request: { paths: ['**.yaml', '**.yml'] } });
    expect(flow().permissions).toEqual({ contents: 'read', 'pull-requests': 'write' });
    expect(flow().concurrency).toEqual({
      group: 'viewctl-plan-${{ github.event.pull_request.number }}',
      'cancel-in-progress': true,
    });
  });

  it('checks out the merge and plans through the action', () => {
    expect(allSteps(flow()).map(({ step }) => step.uses?.split('@')[0])).toEqual([
      'actions/checkout',
      VIEWCTL_ACTION.split('@')[0],
    ]);
    expect(actionStep(USER_WORKFLOWS.plan).with?.command).toBe('plan');
  });

  it('plans in markdown with --detailed-exitcode and saves the JSON plan as an artifact', () => {
    const [call] = invocations(action);
    expect(call?.args).toEqual(
      expect.arrayContaining(['--format', 'markdown', '--out', 'plan.json', '--detailed-exitcode']),
    );
    const upload = stepById(action, 'upload');
    expect(upload.uses?.startsWith('actions/upload-artifact@')).toBe(true);
    expect(upload.with).toMatchObject({ name: 'viewctl-plan', path: 'plan.json', 'if-no-files-found': 'error' });
  });

  it('posts the comment after a failed plan too, and never after a cancelled one', () => {
    expect(stepById(action, 'plan').run).toContain('exit-code=');
    const comment = allSteps(action).find(({ step }) => step.name === 'Post the plan on the pull request')?.step;
    expect(comment?.if).toBe("${{ !cancelled() && inputs.command == 'plan' && steps.plan.outputs.exit-code != '' }}");
    expect(String(comment?.with?.script)).toContain('<!-- viewctl-plan -->');
  });
});

describe('the merge workflow', () => {
  const flow = () => workflow(USER_WORKFLOWS.apply);

  it('runs on pushes to the default branch, one apply at a time, never cancelling one', () => {
    expect(flow().on).toEqual({ push: { paths: ['**.yaml', '**.yml'] } });
    // The writing key lives in an environment that can require a reviewer and the main branch.
    expect(flow().jobs.apply?.environment).toBe('viewctl-apply');
    expect(flow().concurrency).toEqual({ group: 'viewctl-apply', 'cancel-in-progress': false });
    expect(flow().permissions).toEqual({ contents: 'read', actions: 'read', 'pull-requests': 'write' });
  });

  it('applies the recovery plan in a second job, after the viewctl-apply environment approves it, only when there is one', () => {
    const recover = flow().jobs.recover as unknown as { needs: string; if: string; environment: string };
    expect(recover.needs).toBe('apply');
    expect(recover.environment).toBe('viewctl-apply');
    const apply = flow().jobs.apply as unknown as { outputs: Record<string, string> };
    expect(apply.outputs['recovery-digest']).toBe('${{ steps.viewctl.outputs.recovery-digest }}');
    expect(actionStep(USER_WORKFLOWS.apply).id).toBe('viewctl');
    expect(String(action.outputs?.['recovery-digest']?.value)).toBe('${{ steps.recovery-plan.outputs.offered }}');
    const runs = (digest: string): unknown =>
      evaluateExpression(recover.if, { needs: { apply: { outputs: { 'recovery-digest': digest } } } });
    expect(runs(DIGEST)).toBe(true);
    expect(runs('')).toBe(false);
    const step = actionSteps(USER_WORKFLOWS.apply)[1];
    expect(step?.with).toMatchObject({ command: 'recover', digest: '${{ needs.apply.outputs.recovery-digest }}' });
    // It downloads the plan the apply job uploaded in the same run, and applies it with its digest.
    const upload = stepByName(action, 'Upload the recovery plan');
    const download = stepByName(action, 'Download the recovery plan');
    expect(download.uses?.startsWith('actions/download-artifact@')).toBe(true);
    expect(download.with?.name).toBe(upload.with?.name);
    const call = invocations(action).find((entry) => entry.step === 'Apply the recovery plan');
    expect(call?.args.slice(0, 4)).toEqual(['--plan', 'recovery/plan.json', '--expect-digest', '$DIGEST']);
    expect(stepById(action, 'recover').env?.DIGEST).toBe('${{ inputs.digest }}');
  });

  it('plans the recovery when a plan was not carried out whole, or when the merged change has no reviewed plan', () => {
    const step = stepById(action, 'recovery-plan');
    const runs = (recover: string, reviewed: string): unknown =>
      evaluateExpression(step.if ?? '', {
        inputs: { command: 'apply' },
        steps: { apply: { outputs: { recover } }, reviewed: { outcome: reviewed } },
      });
    expect(runs('the reviewed plan of #5 was not applied', 'success')).toBe(true);
    expect(runs('', 'success')).toBe(false);
    expect(runs('', 'failure')).toBe(true);
    expect(evaluate(String(step.env?.WHY), { steps: { apply: { outputs: {} } } })).toContain('no reviewed plan');
    // The report step posts that recovery on the merged pull request also when its reviewed plan was not found.
    const report = stepByName(action, 'Report on the pull requests');
    const reports = (pr: string): unknown =>
      evaluateExpression(
        report.if ?? '',
        {
          inputs: { command: 'apply' },
          steps: { reviewed: { outcome: 'failure', outputs: { pr } } },
        },
        { cancelled: () => false },
      );
    expect(reports('5')).toBe(true);
    expect(reports('')).toBe(false);
    expect(report.env?.WHY).toBe('${{ steps.recovery-plan.outputs.why }}');
  });

  it('applies each downloaded reviewed plan with the digest from its plan comment', () => {
    expect(actionStep(USER_WORKFLOWS.apply).with?.command).toBe('apply');
    const call = invocations(action).find((entry) => entry.subcommand === 'apply');
    expect(call?.args.slice(0, 4)).toEqual(['--plan', 'reviewed/$pr/plan.json', '--expect-digest', '$digest']);
    const apply = stepById(action, 'apply');
    expect(apply.env?.QUEUE).toBe('${{ steps.reviewed.outputs.queue }}');
    // The artifact the plan step uploads, downloaded from the run that saved it.
    expect(apply.run).toContain(
      `gh run download "$run_id" --name ${String(stepById(action, 'upload').with?.name)} --dir "reviewed/$pr"`,
    );
  });
});

describe('the drift workflow', () => {
  const flow = () => workflow(USER_WORKFLOWS.drift);

  it('runs nightly and on demand, in the apply concurrency group on the default branch only, never cancelling', () => {
    const on = flow().on as { schedule: Array<{ cron: string }>; workflow_dispatch: unknown };
    expect(on.schedule).toHaveLength(1);
    expect(on.schedule[0]?.cron.split(' ')).toHaveLength(5);
    expect(on).toHaveProperty('workflow_dispatch');
    expect(flow().permissions).toEqual({ contents: 'read', issues: 'write' });
    const applyGroup = workflow(USER_WORKFLOWS.apply).concurrency?.group;
    const group = String(flow().concurrency?.group);
    expect(flow().concurrency?.['cancel-in-progress']).toBe(false);
    // It writes the sweep memory (and, with repair, the workspace): never beside an apply.
    expect(evaluateExpression(group, { github: { event_name: 'schedule', ref_name: 'main', event: {} } })).toBe(
      applyGroup,
    );
    expect(
      evaluateExpression(group, {
        github: {
          event_name: 'workflow_dispatch',
          ref_name: 'main',
          event: { repository: { default_branch: 'main' } },
        },
      }),
    ).toBe(applyGroup);
    expect(
      evaluateExpression(group, {
        github: {
          event_name: 'workflow_dispatch',
          ref_name: 'try-this',
          event: { repository: { default_branch: 'main' } },
        },
      }),
    ).toBe('viewctl-drift-try-this');
  });

  it('checks for drift through the action: plan with --detailed-exitcode, or apply --auto-approve to repair, both with the memory', () => {
    expect(actionStep(USER_WORKFLOWS.drift).with?.command).toBe('drift');
    const calls = invocations(action).filter((entry) => entry.step === 'Check for drift');
    expect(calls.map((call) => call.subcommand)).toEqual(['apply', 'plan']);
    expect(calls[0]?.args).toEqual(expect.arrayContaining(['--auto-approve', '--ledger', '.viewctl/ledger.json']));
    expect(calls[1]?.args).toEqual(expect.arrayContaining(['--detailed-exitcode', '--ledger', '.viewctl/ledger.json']));
  });

  it('keeps the memory in the Actions cache: restored by prefix, saved under a key per run, on the default branch only', () => {
    const restore = stepByName(action, 'Restore the sweep memory');
    const save = stepByName(action, 'Save the sweep memory');
    expect(restore.with?.path).toBe('.viewctl/ledger.json');
    expect(save.with?.path).toBe('.viewctl/ledger.json');
    expect(restore.with?.['restore-keys']).toBe('viewctl-ledger-');
    // The apply and recover jobs of one run each save their own entry: an entry is never overwritten.
    expect(save.with?.key).toBe('viewctl-ledger-${{ github.run_id }}-${{ github.run_attempt }}-${{ inputs.command }}');
    // Every command restores it; a pull request's plan only reads it.
    for (const command of ['plan', 'apply', 'recover', 'drift'])
      expect(evaluateExpression(restore.if ?? '', { inputs: { command } }), command).toBe(true);
    expect(String(save.with?.key).startsWith(String(restore.with?.['restore-keys']))).toBe(true);
    const saves = (github: Record<string, unknown>, command = 'drift'): unknown =>
      evaluateExpression(save.if ?? '', { inputs: { command }, github }, { hashFiles: () => 'f00d' });
    expect(saves({ event_name: 'schedule', ref_name: 'main', event: {} })).toBe(true);
    expect(
      saves({ event_name: 'push', ref_name: 'main', event: { repository: { default_branch: 'main' } } }, 'apply'),
    ).toBe(true);
    expect(
      saves({ event_name: 'push', ref_name: 'trunk', event: { repository: { default_branch: 'trunk' } } }, 'recover'),
    ).toBe(true);
    expect(
      saves({
        event_name: 'workflow_dispatch',
        ref_name: 'try-this',
        event: { repository: { default_branch: 'main' } },
      }),
    ).toBe(false);
    expect(
      saves(
        { event_name: 'pull_request', ref_name: '12/merge', event: { repository: { default_branch: 'main' } } },
        'plan',
      ),
    ).toBe(false);
  });
});
