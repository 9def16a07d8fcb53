import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';

/**
 * Runners for workflow steps outside GitHub: a `run:` script under bash as the runner
 * starts it, with stand-ins for `viewctl` and `git`; and an `actions/github-script`
 * script with a fake API. They let tests check what a step does, not how it reads.
 */

/** StubbedRun is the outcome of a `run:` script. */
export interface StubbedRun {
  status: number;
  stdout: string;
  stderr: string;
  /** What the script appended to $GITHUB_OUTPUT, as key → value. */
  outputs: Record<string, string>;
  /** What the script appended to $GITHUB_STEP_SUMMARY. */
  summary: string;
  /** The arguments each viewctl call received, one list per call. */
  viewctlCalls: string[][];
  /** The arguments of each git and gh call. */
  gitCalls: string[][];
  ghCalls: string[][];
  /** The folder the script ran in. */
  dir: string;
}

/** StubOptions set how the stand-ins behave. */
export interface StubOptions {
  /** viewctl's exit code; with `viewctlExits`, the code of calls past that list. */
  viewctlExit: number;
  /** viewctl's exit code per call, in order (apply runs it once per reviewed plan). */
  viewctlExits?: number[];
  /** The plan file viewctl writes where `--out` says (default `{"digest":"stub"}`). */
  viewctlPlan?: string;
  /** What viewctl prints on stdout and stderr. */
  viewctlStdout?: string;
  viewctlStderr?: string;
  /** What `git rev-parse` prints. */
  gitTree?: string;
  /** What `git rev-parse <commit>:<path>` prints, per commit; others print `gitTree`. */
  gitTrees?: Record<string, string>;
  /** `git fetch` fails (the commit cannot be fetched). */
  gitFetchFails?: boolean;
  /** Commits the checkout lacks (`git cat-file -e COMMIT^{commit}` fails); every other is present. */
  gitAbsent?: string[];
  /** Run ids whose artifact `gh run download` cannot find. */
  missingArtifacts?: number[];
  env?: Record<string, string>;
  /** Files to create in the working folder first, path → content. */
  files?: Record<string, string>;
}

// The stand-in viewctl records its arguments, writes a plan file where `--out` says
// (as the real one does whenever it computed a plan) and exits as told: by call from
// STUB_EXITS, then STUB_EXIT.
const VIEWCTL_STUB = `#!/usr/bin/env bash
printf '%s\\0' "$@" >>"$STUB_DIR/viewctl-calls"
printf '\\n' >>"$STUB_DIR/viewctl-calls"
calls=$(wc -l <"$STUB_DIR/viewctl-calls")
read -r -a exits <<<"$STUB_EXITS"
code="\${exits[$((calls - 1))]:-$STUB_EXIT}"
out=""
while [ $# -gt 0 ]; do
  if [ "$1" = "--out" ]; then out="$2"; fi
  shift
done
plan_json="$STUB_PLAN"
if [ -z "$plan_json" ]; then plan_json='{"digest":"stub"}'; fi
if [ -n "$out" ] && { [ "$code" = 0 ] || [ "$code" = 2 ]; }; then printf '%s\n' "$plan_json" >"$out"; fi
printf '%s' "$STUB_STDOUT"
printf '%s' "$STUB_STDERR" >&2
exit "$code"
`;

// The stand-in git: "fetch" succeeds quietly (fails when STUB_FETCH_EXIT says); "cat-file -e <commit>^{commit}" fails
// for the commits in STUB_ABSENT; "rev-parse <commit>:<path>" prints the tree STUB_TREES names for that commit, else STUB_TREE.
const GIT_STUB = `#!/usr/bin/env bash
printf '%s\\0' "$@" >>"$STUB_DIR/git-calls"
printf '\\n' >>"$STUB_DIR/git-calls"
if [ "$1" = "fetch" ]; then exit "\${STUB_FETCH_EXIT:-0}"; fi
if [ "$1" = "cat-file" ]; then
  case " $STUB_ABSENT " in *" \${3%%^*} "*) exit 1 ;; esac
  exit 0
fi
commit="\${2%%:*}"
tree=$(printf '%s' "$STUB_TREES" | tr ' ' '\\n' | sed -n "s/^$commit=//p")
printf '%s\\n' "\${tree:-$STUB_TREE}"
`;

// The stand-in gh: "gh run download RUN --name NAME --dir DIR" writes DIR/plan.json,
// unless RUN is listed in STUB_MISSING.
const GH_STUB = `#!/usr/bin/env bash
printf '%s\\0' "$@" >>"$STUB_DIR/gh-calls"
printf '\\n' >>"$STUB_DIR/gh-calls"
run="$3"
dir=""
while [ $# -gt 0 ]; do
  if [ "$1" = "--dir" ]; then dir="$2"; fi
  shift
done
case " $STUB_MISSING " in *" $run "*) echo "no artifact matches viewctl-plan" >&2; exit 1 ;; esac
mkdir -p "$dir"
echo '{"digest":"stub"}' >"$dir/plan.json"
`;

/** runStepScript runs a step's script as the runner does: `bash --noprofile --norc -eo pipefail`. */
export function runStepScript(script: string, options: StubOptions): StubbedRun {
  const dir = mkdtempSync(join(tmpdir(), 'viewctl-step-'));
  // The test reads the work folder after the run; it goes when the test is done.
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  const bin = join(dir, '.bin');
  const work = join(dir, 'work');
  mkdirSync(bin);
  mkdirSync(work);
  writeFileSync(join(bin, 'viewctl'), VIEWCTL_STUB);
  writeFileSync(join(bin, 'git'), GIT_STUB);
  writeFileSync(join(bin, 'gh'), GH_STUB);
  for (const stub of ['viewctl', 'git', 'gh']) chmodSync(join(bin, stub), 0o755);
  for (const [path, content] of Object.entries(options.files ?? {})) {
    mkdirSync(join(work, path, '..'), { recursive: true });
    writeFileSync(join(work, path), content);
  }
  const outputFile = join(dir, 'github-output');
  const summaryFile = join(dir, 'step-summary');
  writeFileSync(outputFile, '');
  writeFileSync(summaryFile, '');
  const scriptFile = join(dir, 'step.sh');
  writeFileSync(scriptFile, script);
  const result = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', scriptFile], {
    cwd: work,
    encoding: 'utf8',
    env: {
      PATH: `${bin}:${process.env.PATH ?? ''}`,
      GITHUB_OUTPUT: outputFile,
      GITHUB_STEP_SUMMARY: summaryFile,
      MANIFESTS: '.',
      STUB_DIR: dir,
      STUB_EXIT: String(options.viewctlExit),
      STUB_EXITS: (options.viewctlExits ?? []).join(' '),
      STUB_TREES: Object.entries(options.gitTrees ?? {})
        .map(([commit, tree]) => `${commit}=${tree}`)
        .join(' '),
      STUB_MISSING: (options.missingArtifacts ?? []).join(' '),
      STUB_FETCH_EXIT: options.gitFetchFails === true ? '1' : '0',
      STUB_ABSENT: (options.gitAbsent ?? []).join(' '),
      STUB_PLAN: options.viewctlPlan ?? '',
      STUB_STDOUT: options.viewctlStdout ?? '',
      STUB_STDERR: options.viewctlStderr ?? '',
      STUB_TREE: options.gitTree ?? 'tree-0',
      ...options.env,
    },
  });
  const callsOf = (stub: string): string[][] => {
    const file = join(dir, `${stub}-calls`);
    return existsSync(file)
      ? readFileSync(file, 'utf8')
          .split('\n')
          .filter((line) => line !== '')
          .map((line) => line.split('\0').filter((arg) => arg !== ''))
      : [];
  };
  return {
    status: result.status ?? -1,
    stdout: result.stdout,
    stderr: result.stderr,
    outputs: parseOutputs(readFileSync(outputFile, 'utf8')),
    summary: readFileSync(summaryFile, 'utf8'),
    viewctlCalls: callsOf('viewctl'),
    gitCalls: callsOf('git'),
    ghCalls: callsOf('gh'),
    dir: work,
  };
}

function parseOutputs(text: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const at = line.indexOf('=');
    if (at > 0) outputs[line.slice(0, at)] = line.slice(at + 1);
  }
  return outputs;
}

/** Comment is an issue comment as the API returns it; `issue_number` says where (absent: on every one). */
export interface Comment {
  id: number;
  user: { login: string };
  body: string;
  issue_number?: number;
}

/** Issue is an issue as the API returns it. */
export interface Issue {
  number: number;
  user: { login: string };
  title: string;
  body: string;
  state: 'open' | 'closed';
}

/** FakeGitHub is the state the fake API serves and the writes it received. */
export interface FakeGitHub {
  comments: Comment[];
  /** Issues; `issues.create` appends, `issues.update` edits in place. */
  issues: Issue[];
  pulls: Array<Record<string, unknown>>;
  /** Closed pull requests, as `pulls.list` answers them. */
  closed: Array<Record<string, unknown>>;
  runs: Record<number, Record<string, unknown>>;
  created: Array<{ issue_number: number; body: string }>;
  updated: Array<{ comment_id: number; body: string }>;
}

/** fakeGitHub starts an empty fake API. */
export function fakeGitHub(partial: Partial<FakeGitHub> = {}): FakeGitHub {
  return { comments: [], issues: [], pulls: [], closed: [], runs: {}, created: [], updated: [], ...partial };
}

/** ScriptRun is what a github-script step produced. */
export interface ScriptRun {
  outputs: Record<string, string>;
  error: Error | undefined;
}

type AsyncScript = (...args: unknown[]) => Promise<unknown>;
const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (...args: string[]) => AsyncScript;

/**
 * runGithubScript runs an `actions/github-script` script as the action does (an async
 * function body given `require`, `github`, `context`, `core`), with `fs` reading from
 * `dir` and `process.env` set to `env`.
 */
export async function runGithubScript(
  script: string,
  options: { api: FakeGitHub; context: Record<string, unknown>; env: Record<string, string>; dir: string },
): Promise<ScriptRun> {
  const { api, dir } = options;
  const realRequire = createRequire(import.meta.url);
  const fsInDir = {
    existsSync: (path: string) => existsSync(join(dir, path)),
    readFileSync: (path: string, encoding: BufferEncoding) => readFileSync(join(dir, path), encoding),
  };
  const requireShim = (name: string): unknown => (name === 'fs' ? fsInDir : realRequire(name));
  const github = {
    paginate: async (method: (params: unknown) => Promise<{ data: unknown[] }>, params: unknown) =>
      (await method(params)).data,
    rest: {
      issues: {
        listComments: async (params: { issue_number?: number }) => ({
          data: api.comments.filter(
            (comment) =>
              comment.issue_number === undefined ||
              params.issue_number === undefined ||
              comment.issue_number === params.issue_number,
          ),
        }),
        createComment: async (params: { issue_number: number; body: string }) => {
          api.created.push({ issue_number: params.issue_number, body: params.body });
          return { data: {} };
        },
        updateComment: async (params: { comment_id: number; body: string }) => {
          api.updated.push({ comment_id: params.comment_id, body: params.body });
          return { data: {} };
        },
        listForRepo: async (params: { state: string; creator?: string }) => ({
          data: api.issues.filter(
            (issue) =>
              issue.state === params.state && (params.creator === undefined || issue.user.login === params.creator),
          ),
        }),
        create: async (params: { title: string; body: string }) => {
          const issue: Issue = {
            number: 100 + api.issues.length,
            user: { login: 'github-actions[bot]' },
            title: params.title,
            body: params.body,
            state: 'open',
          };
          api.issues.push(issue);
          return { data: issue };
        },
        update: async (params: { issue_number: number; title?: string; body?: string; state?: 'open' | 'closed' }) => {
          const issue = api.issues.find((candidate) => candidate.number === params.issue_number);
          if (issue === undefined) throw new Error(`HttpError: Not Found (issue ${params.issue_number})`);
          Object.assign(issue, {
            ...(params.title === undefined ? {} : { title: params.title }),
            ...(params.body === undefined ? {} : { body: params.body }),
            ...(params.state === undefined ? {} : { state: params.state }),
          });
          return { data: issue };
        },
      },
      repos: { listPullRequestsAssociatedWithCommit: async () => ({ data: api.pulls }) },
      pulls: { list: async (params: { per_page?: number }) => ({ data: api.closed.slice(0, params.per_page ?? 30) }) },
      actions: {
        getWorkflowRun: async (params: { run_id: number }) => {
          const run = api.runs[params.run_id];
          if (run === undefined) throw new Error(`HttpError: Not Found (run ${params.run_id})`);
          return { data: run };
        },
      },
    },
  };
  const outputs: Record<string, string> = {};
  const core = {
    setOutput: (key: string, value: string) => {
      outputs[key] = value;
    },
    info: () => {},
  };
  const run = new AsyncFunction('require', 'github', 'context', 'core', 'process', script);
  try {
    await run(requireShim, github, options.context, core, { env: options.env });
    return { outputs, error: undefined };
  } catch (error) {
    return { outputs, error: error instanceof Error ? error : new Error(String(error)) };
  }
}
