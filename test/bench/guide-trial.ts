import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * `npm run build && node --import tsx test/bench/guide-trial.ts [MEMBERS] [--raised]`: the
 * README's guide followed as a new team would, in its own words, on a workspace of
 * MEMBERS (default 1,000) served by `viewctl emulator --members MEMBERS --state FILE`
 * at the service's limits (3 requests/s per endpoint, 3,000 a day; `--raised` lifts both,
 * the emulator's and the client's `--rate`, for a quick check whose times mean nothing). A step the README says runs "the next day"
 * restarts the emulator on the same state file: its quota counts from its start. Each
 * step's wall time, exit code, requests sent (the `--verbose` lines, retries included)
 * and files written are printed as a markdown table; the export's files are counted with
 * their PinnedViews documents. Where a command is refused, the guide's way out is run
 * next, as the README says (the export's hint, its `next:` line, step 3's plan file).
 */

const CLI = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));
const RAISED = ['--rate', '1000', '--burst', '1000', '--quota', '1000000'];

interface Step {
  readonly day: number;
  readonly step: string;
  readonly command: string;
  readonly seconds: number;
  readonly exit: number;
  readonly requests: number;
  readonly files: string;
}

interface Run {
  readonly exit: number;
  readonly stdout: string;
  readonly stderr: string;
  readonly seconds: number;
}

const args = process.argv.slice(2);
const members = Number(args.find((arg) => /^\d+$/.test(arg)) ?? 1000);
const limits = args.includes('--raised') ? RAISED : [];
// With raised limits the client's own limiter (default 3/s per endpoint) is lifted too.
const clientRate = args.includes('--raised') ? ['--rate', '1000'] : [];

const dir = await mkdtemp(join(tmpdir(), 'viewctl-guide-trial-'));
const repo = join(dir, 'org');
const state = join(dir, 'emulator.json');
const steps: Step[] = [];
let day = 0;
let emulator: ChildProcess | undefined;
let baseUrl = '';

function git(...gitArgs: string[]): string {
  const result = spawnSync('git', gitArgs, { cwd: repo, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`git ${gitArgs.join(' ')}: ${result.stderr}`);
  return result.stdout;
}

// A new day: the emulator restarted on the same state, its quota counted afresh.
async function nextDay(): Promise<void> {
  emulator?.kill();
  day += 1;
  const child = spawn(process.execPath, [CLI, 'emulator', '--members', String(members), '--state', state, ...limits]);
  emulator = child;
  baseUrl = await new Promise<string>((resolve, reject) => {
    let seen = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const match = /listening on (\S+)/.exec(seen);
      if (match?.[1]) resolve(match[1]);
    });
    child.on('exit', (code) => reject(new Error(`the emulator exited (${code}) before listening`)));
  });
}

function viewctl(command: string[]): Promise<Run> {
  const started = process.hrtime.bigint();
  const child = spawn(process.execPath, [CLI, ...command], {
    cwd: repo,
    env: { ...process.env, VIEWCTL_BASE_URL: baseUrl, VIEWCTL_API_KEY: 'emulator-key', NO_COLOR: '1' },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((resolve) => {
    child.on('close', (code) => {
      resolve({ exit: code ?? -1, stdout, stderr, seconds: Number(process.hrtime.bigint() - started) / 1e9 });
    });
  });
}

const READS_THE_SERVICE = new Set(['export', 'plan', 'apply', 'pull']);

// step runs one command of the guide, with --verbose where it reads the service so
// that every request sent is counted, and records it.
async function step(name: string, command: string[], files = ''): Promise<Run> {
  const reads = READS_THE_SERVICE.has(command[0] ?? '');
  const run = await viewctl([...command, ...(reads ? ['--verbose', ...clientRate] : [])]);
  const requests = run.stderr.split('\n').filter((line) => /^(GET|PUT|POST|PATCH|DELETE) \/v1\//.test(line)).length;
  steps.push({
    day,
    step: name,
    command: `viewctl ${command.map(quoted).join(' ')}`,
    seconds: run.seconds,
    exit: run.exit,
    requests,
    files,
  });
  process.stderr.write(`day ${day} ${name}: exit ${run.exit}, ${requests} requests, ${run.seconds.toFixed(1)} s\n`);
  const problem = run.stderr.split('\n').find((line) => line.startsWith('error['));
  if (problem) process.stderr.write(`  ${problem}\n`);
  return run;
}

function quoted(word: string): string {
  return word.includes(' ') ? `"${word}"` : word;
}

async function filesUnder(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

async function exportCount(): Promise<string> {
  const files = await filesUnder(join(repo, 'manifests'));
  let pins = 0;
  for (const file of files) if ((await readFile(file, 'utf8')).includes('\nkind: PinnedViews\n')) pins += 1;
  return `${files.length} files in manifests/ (${pins} PinnedViews)`;
}

function lineAfter(text: string, pattern: RegExp): string[] | undefined {
  const match = pattern.exec(text);
  return match?.[1]?.trim().split(/\s+/);
}

try {
  spawnSync('mkdir', ['-p', repo]);
  git('init', '-q', '-b', 'main');
  git('config', 'user.email', 'trial@example.com');
  git('config', 'user.name', 'trial');
  await nextDay();

  // Step 2: export, validate, plan; a workspace too large for a day exports over days.
  let exported = await step('2 export', ['export', '--all-users', '--out', 'manifests'], '');
  if (exported.exit !== 0) {
    const budget = /N at most the ([\d,]+)/.exec(exported.stderr)?.[1]?.replaceAll(',', '');
    if (budget === undefined) throw new Error(`export failed:\n${exported.stderr}`);
    exported = await step('2 export, budgeted', ['export', '--all-users', '--budget', budget, '--out', 'manifests']);
    for (;;) {
      const more = lineAfter(exported.stdout, /continue with[^\n]*\n\s*viewctl (export [^\n]+)/);
      if (more === undefined) break;
      await nextDay();
      exported = await step('2 export, next day', more);
    }
  }
  const counted = await exportCount();
  steps[steps.length - 1] = { ...(steps.at(-1) as Step), files: counted };
  await step('2 validate', ['validate', 'manifests']);
  git('add', '-A');
  git('commit', '-qm', 'export');
  const planned = await step('2 plan', ['plan', 'manifests']);
  const next = lineAfter(exported.stdout, /^next: viewctl (plan \S+(?: --budget \d+)?)/m);
  if (planned.exit !== 0 && next !== undefined) await step("2 plan, export's next line", next);

  // Step 3: a pull request (a rename, one member's tabs, one view's icon) planned --base main.
  await nextDay();
  git('checkout', '-qb', 'first-pr');
  const renamed = await step('3 rename', ['rename', 'DealView', 'Big renewals', 'Renewals over 50k', 'manifests']);
  const pins = (await filesUnder(join(repo, 'manifests', 'pins'))).sort();
  const first = pins.find((file) => file.endsWith('.yaml')) as string;
  const text = await readFile(first, 'utf8');
  await writeFile(
    first,
    text.replace(/\nrecordings:\n {2}- ([^\n]+)\n {2}- ([^\n]+)\n/, '\nrecordings:\n  - $2\n  - $1\n'),
  );
  git('commit', '-qam', 'first pull request');
  const files = renamed.stdout.match(/in (\d+) files/)?.[1];
  steps[steps.length - 1] = { ...(steps.at(-1) as Step), files: `${files ?? '?'} files rewritten` };
  await step(
    '3 plan --base',
    ['plan', 'manifests', '--base', 'main', '--format', 'markdown', '--out', 'plan.json'],
    'plan.json',
  );
  await step('3 show', ['show', 'plan.json']);

  // Step 4: merge, then the reviewed apply by hand.
  git('checkout', '-q', 'main');
  git('merge', '-q', '--no-ff', '-m', 'merge first-pr', 'first-pr');
  const digest = (JSON.parse(await readFile(join(repo, 'plan.json'), 'utf8')) as { digest: string }).digest;
  await step('4 plan --out (full)', ['plan', 'manifests', '--out', 'full-plan.json']);
  await step('4 apply --plan', [
    'apply',
    '--plan',
    'plan.json',
    '--expect-digest',
    digest,
    '--ledger',
    '.viewctl/ledger.json',
  ]);

  // Step 5: two nights, report only, then repair.
  await nextDay();
  await step('5 nightly report', [
    'plan',
    'manifests',
    '--budget',
    '1000',
    '--ledger',
    '.viewctl/ledger.json',
    '--detailed-exitcode',
  ]);
  await nextDay();
  await step('5 nightly repair', [
    'apply',
    'manifests',
    '--budget',
    '1000',
    '--ledger',
    '.viewctl/ledger.json',
    '--auto-approve',
  ]);

  console.log(
    `Guide trial: ${members} members, ${limits.length === 0 ? 'the service limits (3/s per endpoint, 3,000 a day)' : 'raised limits'}\n`,
  );
  console.log('| day | step | command | wall s | exit | requests | files |');
  console.log('| --- | --- | --- | --- | --- | --- | --- |');
  for (const row of steps)
    console.log(
      `| ${row.day} | ${row.step} | \`${row.command}\` | ${row.seconds.toFixed(1)} | ${row.exit} | ${row.requests} | ${row.files} |`,
    );
} finally {
  emulator?.kill();
  await rm(dir, { recursive: true, force: true });
}
