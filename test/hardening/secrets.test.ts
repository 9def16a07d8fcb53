import { spawn } from 'node:child_process';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VIEW_CAP } from '../../src/domain/domains.js';
import { demoWorkspace } from '../../src/emulator/demo/demo-workspace.js';
import type { EmulatorData } from '../../src/emulator/model.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/server.js';
import { CLI } from '../e2e/harness.js';
import { scratchDir, type CliResult } from '../support/cli.js';
import { FAST, inProcess, spawned, type Runner } from './fault-runs.js';
import { WORKLOAD_FILES, WORKLOAD_FLAGS } from './workload.js';

/**
 * The API key never leaves the process: every command, succeeding and failing, with
 * `--verbose`, in-process and in a child process, is run with a distinctive key, and
 * stdout, stderr and every file written are searched for it.
 */

const SECRET = 'sk_test_SECRET_4f9c2b';

let scratch: { dir: string; cleanup(): Promise<void> };
let good: RunningEmulator;
let faulty: RunningEmulator;
const transcripts: { label: string; result: CliResult }[] = [];

beforeAll(async () => {
  scratch = await scratchDir({
    ...prefixed('m', WORKLOAD_FILES),
    'bad/broken.yaml': 'kind: RecordingView\nname: [unclosed\n',
    'out/.keep': '',
  });
  good = await startEmulator({ data: demoWorkspace(), port: 0, apiKey: SECRET, ...FAST });
  faulty = await startEmulator({ data: fullWorkspace(), port: 0, apiKey: SECRET, ...FAST, seed: 4 });
});

afterAll(async () => {
  await Promise.all([good.close(), faulty.close()]);
  await scratch.cleanup();
});

/** fullWorkspace is the demo with the recordings domain at the service's cap: creating a recording view fails (400). */
function fullWorkspace(): EmulatorData {
  const data = demoWorkspace();
  const saved = data.views.recordings.filter((view) => !view.isDefault).length;
  for (let index = saved; index < VIEW_CAP; index += 1) {
    data.views.recordings.push({
      viewId: `rv_filler_${index}`,
      name: `Filler ${index}`,
      visibility: 'Private',
      isDefault: false,
      ownerId: 'u_olivia',
      columns: [],
      filters: {},
      sort: [],
    });
  }
  return data;
}

function prefixed(folder: string, files: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(files).map(([path, text]) => [`${folder}/${path}`, text]));
}

function envFor(emulator: RunningEmulator | string, key = SECRET): Record<string, string> {
  return { VIEWCTL_BASE_URL: typeof emulator === 'string' ? emulator : emulator.url, VIEWCTL_API_KEY: key };
}

/** cli runs one command with `--verbose` (where it applies), records it, and checks its exit code is one of `codes`. */
async function cli(
  label: string,
  runner: Runner,
  args: string[],
  env: Record<string, string>,
  codes: number[],
): Promise<CliResult> {
  const result = await runner([...args, ...(args[0] === 'validate' ? [] : ['--verbose'])], env);
  transcripts.push({ label, result });
  expect(codes, `${label}\n${result.stdout}\n${result.stderr}`).toContain(result.code);
  return result;
}

async function filesBelow(directory: string): Promise<string[]> {
  const entries = await readdir(directory, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

/** runEmulatorCommand starts `viewctl emulator` in a child process until it listens (or fails), then stops it. */
function runEmulatorCommand(args: string[]): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, 'emulator', ...args], {
      env: { PATH: process.env.PATH ?? '', VIEWCTL_API_KEY: SECRET },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.includes('listening on')) child.kill('SIGTERM');
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

describe('the API key in every command', () => {
  it('never appears in output or written files, whatever the command and outcome', async () => {
    const { dir } = scratch;
    const m = join(dir, 'm');
    const planFile = join(dir, 'out', 'plan.json');
    const stalePlan = join(dir, 'out', 'stale.json');
    const tampered = join(dir, 'out', 'tampered.json');

    await cli('validate ok', inProcess, ['validate', m], {}, [0]);
    await cli('validate broken', inProcess, ['validate', join(dir, 'bad')], envFor(good), [1]);
    for (const format of ['text', 'markdown', 'json']) {
      const out = join(dir, 'out', `plan-${format}.json`);
      await cli(
        `plan ${format}`,
        inProcess,
        ['plan', m, '--format', format, '--out', out, '--rate', '1000'],
        envFor(good),
        [0],
      );
    }
    await cli('plan --out', spawned, ['plan', m, '--out', planFile, '--rate', '1000'], envFor(good), [0]);
    await cli('plan --out stale', inProcess, ['plan', m, '--out', stalePlan, '--rate', '1000'], envFor(good), [0]);
    await writeFile(tampered, (await readFile(planFile, 'utf8')).replace('"Team calls"', '"Team calls!"'));
    await cli(
      'apply --plan tampered',
      inProcess,
      ['apply', '--plan', tampered, '--rate', '1000'],
      envFor(good),
      [1, 3],
    );
    await cli(
      'apply --plan',
      spawned,
      ['apply', '--plan', planFile, '--max-deletes', '20', '--rate', '1000'],
      envFor(good),
      [0],
    );
    // The same changes as the plan just applied: already applied, nothing sent.
    await cli(
      'apply --plan already applied',
      inProcess,
      ['apply', '--plan', stalePlan, '--max-deletes', '20', '--rate', '1000'],
      envFor(good),
      [0],
    );
    await cli('apply ok', inProcess, ['apply', m, ...WORKLOAD_FLAGS, '--rate', '1000'], envFor(good), [0]);
    await cli('apply failing', inProcess, ['apply', m, ...WORKLOAD_FLAGS, '--rate', '1000'], envFor(faulty), [4]);
    await cli(
      'apply json failing',
      inProcess,
      ['apply', m, ...WORKLOAD_FLAGS, '--format', 'json', '--rate', '1000'],
      envFor(faulty),
      [1, 4],
    );
    await cli(
      'export',
      spawned,
      ['export', '--out', join(dir, 'export'), '--all-users', '--rate', '1000'],
      envFor(good),
      [0],
    );
    await cli('bad key', inProcess, ['plan', m, '--rate', '1000'], envFor(good, `${SECRET}_wrong`), [1]);
    await cli('key with a space', inProcess, ['plan', m], envFor(good, `${SECRET} x`), [1]);
    await cli(
      'key in the URL',
      inProcess,
      ['plan', m, '--base-url', `http://user:${SECRET}@127.0.0.1:1`],
      envFor(good),
      [1],
    );
    // A name that cannot resolve fails at once; a refused connection (retried) is in time-bounds.test.ts.
    await cli('unreachable', inProcess, ['plan', m], envFor('http://viewctl-hardening.invalid'), [1]);
    transcripts.push({
      label: 'emulator --api-key',
      result: await runEmulatorCommand(['--api-key', SECRET, '--port', '0', '--rate', '1000']),
    });
    transcripts.push({
      label: 'emulator bad option',
      result: await runEmulatorCommand(['--api-key', SECRET, '--rate', 'fast']),
    });
    transcripts.push({
      label: 'emulator empty key',
      result: await runEmulatorCommand(['--api-key', ' ', '--fail-rate', '2']),
    });

    // Nor does Node print warnings of its own (a listener leak warning once did, on export --all-users).
    expect(transcripts.filter(({ result }) => /Warning/.test(result.stderr)).map(({ label }) => label)).toEqual([]);
    const leaks = transcripts
      .filter(({ result }) => result.stdout.includes(SECRET) || result.stderr.includes(SECRET))
      .map(({ label }) => label);
    expect(leaks).toEqual([]);
    const written = await filesBelow(join(dir, 'out'));
    written.push(...(await filesBelow(join(dir, 'export'))));
    expect(written.length).toBeGreaterThan(10);
    const leakingFiles: string[] = [];
    for (const file of written) if ((await readFile(file, 'utf8')).includes(SECRET)) leakingFiles.push(file);
    expect(leakingFiles).toEqual([]);
    // The runs did reach the service and print request lines, so the search was not vacuous.
    expect(transcripts.find(({ label }) => label === 'apply --plan')?.result.stderr).toMatch(
      /POST \/v1\/\w+\/views 200/,
    );
    expect(transcripts.find(({ label }) => label === 'emulator --api-key')?.result.stdout).toMatch(/listening on http/);
  });
});
