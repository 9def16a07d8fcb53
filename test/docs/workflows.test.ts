import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { commandHelp, topLevelCommands, type CommandHelp } from './cli-help.js';
import { viewctlInvocations, type Invocation } from './shell-commands.js';
import { REPO, allSteps, loadWorkflow, parseWorkflowYaml, stepById, workflowPaths, type Workflow } from './workflow-files.js';

// The workflows users copy (examples/.github/workflows) and the project's CI must be
// valid, minimal in what they may do, and call viewctl only with commands and flags
// that exist: a renamed flag must break this test, not a user's pipeline.

const USER_WORKFLOWS = {
  plan: 'examples/.github/workflows/viewctl-plan.yml',
  apply: 'examples/.github/workflows/viewctl-apply.yml',
  drift: 'examples/.github/workflows/viewctl-drift.yml',
} as const;
const CI = '.github/workflows/ci.yml';

/** ALLOWED_ACTIONS are the only actions a workflow may use: GitHub's own, major-pinned. */
const ALLOWED_ACTIONS = ['actions/checkout', 'actions/setup-node', 'actions/upload-artifact', 'actions/download-artifact', 'actions/github-script'];

/** PINNED are the commits of the released tags the workflows use (checkout v4.2.2, setup-node v4.4.0, upload-artifact v4.6.2, download-artifact v4.3.0, github-script v7.0.1). */
const PINNED: Readonly<Record<string, string>> = {
  'actions/checkout': '11bd71901bbe5b1630ceea73d27597364c9af683',
  'actions/setup-node': '49933ea5288caeca8642d1e84afbd3f7d6820020',
  'actions/upload-artifact': 'ea165f8d65b6e75b540449e92b4886f43607fa02',
  'actions/download-artifact': 'd3f86a106a0bac45b974a628896c90dbdf5c8093',
  'actions/github-script': '60a0d83039c74a4aee543508d2ffcb1c3799cdea',
};

const paths = workflowPaths();
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

/** invocations lists every viewctl call in a workflow's run steps, with the step. */
function invocations(path: string): Array<Invocation & { step: string }> {
  return allSteps(workflow(path)).flatMap(({ step }) =>
    step.run === undefined ? [] : viewctlInvocations(step.run).map((call) => ({ ...call, step: step.name ?? step.id ?? '?' })),
  );
}

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
      for (const step of job.steps) expect(step.run === undefined, `a step of ${name} both runs and uses`).not.toBe(step.uses === undefined);
    }
  });

  it.each(paths)('%s uses only GitHub\'s own actions, pinned to a commit with its version tag beside it', (path) => {
    const text = readFileSync(join(REPO, path), 'utf8');
    for (const { step } of allSteps(workflow(path))) {
      if (step.uses === undefined) continue;
      const [action, version] = step.uses.split('@');
      expect(ALLOWED_ACTIONS, step.uses).toContain(action);
      // A tag can be moved to other code; a commit cannot. One commit per action everywhere.
      expect(version, step.uses).toMatch(/^[0-9a-f]{40}$/);
      expect(text).toMatch(new RegExp(`uses: ${step.uses} # v\\d+\\.\\d+\\.\\d+\\n`));
      expect(PINNED[action ?? ''], step.uses).toBe(version);
    }
  });

  it.each(paths)('%s passes expressions to scripts through env, never inline', (path) => {
    // `${{ ... }}` inside a script is expanded before the shell runs: a branch name or
    // comment could inject commands. Values go through `env:` instead.
    for (const { step } of allSteps(workflow(path))) {
      expect(step.run ?? '', step.name).not.toContain('${{');
      expect(String(step.with?.['script'] ?? ''), step.name).not.toContain('${{');
    }
  });
});

describe('the project\'s CI', () => {
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

describe('viewctl commands in the workflows users copy', () => {
  const userPaths = Object.values(USER_WORKFLOWS);

  it('finds the plan, apply and drift commands (the reader of run steps works)', () => {
    expect(userPaths.map((path) => invocations(path).map((call) => call.subcommand))).toEqual([['plan'], ['apply'], ['plan']]);
  });

  it.each(userPaths)('%s calls only commands and flags that exist', (path) => {
    for (const call of invocations(path)) {
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

  it.each(userPaths)('%s installs the viewctl version this repository builds, pinned', (path) => {
    const { version } = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string };
    const flow = workflow(path);
    expect(String(flow.env?.['VIEWCTL_VERSION'])).toBe(version);
    const installs = allSteps(flow).filter(({ step }) => step.run?.includes('npm install'));
    // Not from the registry (viewctl is not published): from the release tag of its repository, checked after.
    expect(installs).toHaveLength(1);
    expect(installs[0]?.step.run).toContain('npm install -g "$VIEWCTL_REPOSITORY#v$VIEWCTL_VERSION"');
    expect(installs[0]?.step.run).toContain('test "$(viewctl --version)" = "$VIEWCTL_VERSION"');
    expect(installs[0]?.step.env?.['VIEWCTL_REPOSITORY']).toBe('${{ vars.VIEWCTL_REPOSITORY }}');
    const text = readFileSync(join(REPO, path), 'utf8');
    expect(text).not.toMatch(/npx viewctl|viewctl@/);
  });

  it.each(userPaths)('%s gives the key and base URL only to the steps that run viewctl', (path) => {
    const flow = workflow(path);
    expect(flow.env ?? {}).not.toHaveProperty('VIEWCTL_API_KEY');
    for (const { step } of allSteps(flow)) {
      const runsViewctl = step.run !== undefined && viewctlInvocations(step.run).length > 0;
      if (runsViewctl) {
        expect(step.env?.['VIEWCTL_API_KEY'], step.name).toBe('${{ secrets.VIEWCTL_API_KEY }}');
        expect(step.env?.['VIEWCTL_BASE_URL'], step.name).toBe('${{ vars.VIEWCTL_BASE_URL }}');
      } else {
        expect(step.env ?? {}, step.name).not.toHaveProperty('VIEWCTL_API_KEY');
      }
    }
  });
});

describe('the pull request workflow', () => {
  const flow = () => workflow(USER_WORKFLOWS.plan);

  it('runs on pull requests, may only read code and write the comment, and supersedes older runs', () => {
    expect(Object.keys(flow().on)).toEqual(['pull_request']);
    expect(flow().permissions).toEqual({ contents: 'read', 'pull-requests': 'write' });
    expect(flow().concurrency).toEqual({ group: 'viewctl-plan-${{ github.event.pull_request.number }}', 'cancel-in-progress': true });
  });

  it('plans in markdown with --detailed-exitcode and saves the JSON plan as an artifact', () => {
    const [call] = invocations(USER_WORKFLOWS.plan);
    expect(call?.args).toEqual(expect.arrayContaining(['--format', 'markdown', '--out', 'plan.json', '--detailed-exitcode']));
    const upload = allSteps(flow()).find(({ step }) => step.uses?.startsWith('actions/upload-artifact@'))?.step;
    expect(upload?.with).toMatchObject({ name: 'viewctl-plan', path: 'plan.json', 'if-no-files-found': 'error' });
  });

  it('posts the comment after a failed plan too, and never after a cancelled one', () => {
    expect(stepById(flow(), 'plan').run).toContain('exit-code=');
    const comment = allSteps(flow()).find(({ step }) => step.uses?.startsWith('actions/github-script@'))?.step;
    expect(comment?.if).toBe("${{ !cancelled() && steps.plan.outputs.exit-code != '' }}");
    expect(String(comment?.with?.['script'])).toContain('<!-- viewctl-plan -->');
  });
});

describe('the merge workflow', () => {
  const flow = () => workflow(USER_WORKFLOWS.apply);

  it('runs on pushes to main, one apply at a time, never cancelling one', () => {
    expect(flow().on).toEqual({ push: { branches: ['main'], paths: ['**.yaml', '**.yml'] } });
    // The writing key lives in an environment that can require a reviewer and the main branch.
    expect(flow().jobs['apply']?.environment).toBe('viewctl-apply');
    expect(flow().concurrency).toEqual({ group: 'viewctl-apply', 'cancel-in-progress': false });
    expect(flow().permissions).toEqual({ contents: 'read', actions: 'read', 'pull-requests': 'write' });
  });

  it('applies the downloaded reviewed plan with the digest from the plan comment', () => {
    const [call] = invocations(USER_WORKFLOWS.apply);
    expect(call?.args.slice(0, 4)).toEqual(['--plan', 'reviewed/plan.json', '--expect-digest', '$DIGEST']);
    expect(stepById(flow(), 'apply').env?.['DIGEST']).toBe('${{ steps.reviewed.outputs.digest }}');
    const download = allSteps(flow()).find(({ step }) => step.uses?.startsWith('actions/download-artifact@'))?.step;
    const upload = allSteps(workflow(USER_WORKFLOWS.plan)).find(({ step }) => step.uses?.startsWith('actions/upload-artifact@'))?.step;
    expect(download?.with).toMatchObject({
      name: upload?.with?.['name'],
      'run-id': '${{ steps.reviewed.outputs.run-id }}',
      'github-token': '${{ github.token }}',
      path: 'reviewed',
    });
  });

  it('runs the same viewctl version and manifests folder as the pull request workflow', () => {
    expect(flow().env).toEqual(workflow(USER_WORKFLOWS.plan).env);
    expect(workflow(USER_WORKFLOWS.drift).env).toEqual(workflow(USER_WORKFLOWS.plan).env);
  });
});

describe('the drift workflow', () => {
  const flow = () => workflow(USER_WORKFLOWS.drift);

  it('runs nightly and on demand, read-only, outside the apply concurrency group', () => {
    const on = flow().on as { schedule: Array<{ cron: string }>; workflow_dispatch: unknown };
    expect(on.schedule).toHaveLength(1);
    expect(on.schedule[0]?.cron.split(' ')).toHaveLength(5);
    expect(on).toHaveProperty('workflow_dispatch');
    expect(flow().permissions).toEqual({ contents: 'read', issues: 'write' });
    expect(flow().concurrency?.group).not.toBe(workflow(USER_WORKFLOWS.apply).concurrency?.group);
  });

  it('plans with --detailed-exitcode', () => {
    const [call] = invocations(USER_WORKFLOWS.drift);
    expect(call?.subcommand).toBe('plan');
    expect(call?.args).toContain('--detailed-exitcode');
  });
});
