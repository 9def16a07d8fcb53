import { spawn } from 'node:child_process';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DOMAINS } from '../../src/domain/domains.js';
import { demoRandom } from '../../src/emulator/demo/prng.js';
import { scaledWorkspace } from '../../src/emulator/demo/scaled-workspace.js';
import type { EmulatorData } from '../../src/emulator/model.js';

/**
 * `npm run build && node --import tsx test/bench/group-export-bench.ts [MEMBERS]`: as a
 * team adopting viewctl would, export a workspace of MEMBERS (default 1,000) with
 * `--pins groups` and with `--pins per-member`, then plan each export; print the pins/
 * file count and lines, and the plan's requests and result (it must be a no-op). The
 * built CLI runs against `viewctl emulator --data` in processes of their own. Two
 * workspaces: the emulator's scaled one as generated (each active member picks 2 to 4
 * tabs at random: the worst case for groups), and the same people shaped like a sales
 * organisation (a fifth never changed their tabs; the others keep their mail team's
 * tabs, but one list in ten is their own).
 */

const CLI = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));
const LIMITS = ['--rate', '1000', '--burst', '1000', '--quota', '1000000'];

function teamShaped(members: number): EmulatorData {
  const data = scaledWorkspace(members);
  const random = demoRandom(7);
  const unchanged = new Set(data.users.filter(() => random.next() < 0.2).map((user) => user.id));
  for (const domain of DOMAINS) {
    const publicIds = data.views[domain].filter((view) => view.visibility === 'Public').map((view) => view.viewId);
    const teamTabs = new Map<string, string[]>();
    for (const user of data.users) {
      const stored = data.pinned[domain][user.id];
      if (stored === undefined || !user.email.includes('member.')) continue;
      const team = user.email.slice(user.email.indexOf('@'));
      const tabs = teamTabs.get(team) ?? random.shuffle(random.sample(publicIds, 3));
      teamTabs.set(team, tabs);
      const privateFirst = stored.filter((id) => id.includes('_private_'));
      if (unchanged.has(user.id)) delete data.pinned[domain][user.id];
      else if (random.next() < 0.9) data.pinned[domain][user.id] = [...privateFirst, ...tabs];
    }
  }
  return data;
}

function run(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, NO_COLOR: '1', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

async function measure(label: string, data: EmulatorData, work: string): Promise<void> {
  const dataFile = join(work, `${label.replace(/\W+/g, '-')}.json`);
  await writeFile(dataFile, JSON.stringify(data));
  const emulator = spawn(process.execPath, [CLI, 'emulator', '--data', dataFile, '--port', '0', ...LIMITS]);
  try {
    const url = await new Promise<string>((resolve, reject) => {
      emulator.stdout.on('data', (chunk: Buffer) => {
        const found = /listening on (\S+)/.exec(chunk.toString());
        if (found?.[1] !== undefined) resolve(found[1]);
      });
      emulator.on('close', () => reject(new Error('the emulator stopped')));
    });
    const env = { VIEWCTL_BASE_URL: url, VIEWCTL_API_KEY: 'emulator-key' };
    for (const layout of ['groups', 'per-member']) {
      const out = join(work, `${label.replace(/\W+/g, '-')}-${layout}`);
      const exported = await run(['export', '--all-users', '--pins', layout, '--out', out, '--rate', '200'], env);
      if (exported.code !== 0) throw new Error(exported.stderr);
      const pins = await readdir(join(out, 'pins'));
      const started = Date.now();
      const plan = await run(['plan', out, '--detailed-exitcode', '--rate', '200'], env);
      const read = /read ([\d,]+) requests/.exec(plan.stdout)?.[1] ?? '?';
      const documents = /pins\/: (.*)/.exec(exported.stdout)?.[1] ?? '';
      console.log(
        `${label} | --pins ${layout} | ${pins.length} pins/ files (${documents}) | plan: ${read} requests, exit ${plan.code} (${plan.code === 0 ? 'no changes' : 'CHANGES'}), ${((Date.now() - started) / 1000).toFixed(0)} s`,
      );
    }
  } finally {
    emulator.kill();
  }
}

const members = Number(process.argv[2] ?? 1000);
const work = await mkdtemp(join(tmpdir(), 'viewctl-group-export-'));
try {
  await measure(`scaled ${members}, random tabs`, scaledWorkspace(members), work);
  await measure(`scaled ${members}, team-shaped tabs`, teamShaped(members), work);
} finally {
  await rm(work, { recursive: true, force: true });
}
