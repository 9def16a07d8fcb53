import { execFileSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { memoryFile } from '../support/memory-file.js';
import { simulatedDays } from './days.js';
import { runCli, tempDirs, withEmulator } from './harness.js';

/**
 * The sweep memory under faults, through the built CLI against the emulator (README,
 * "The sweep memory"): overlapping runs lose nothing, a date that names no instant is
 * refused, a date after the run's clock never puts a read off (over simulated nights),
 * and a path that cannot hold the file is refused before anything is opened.
 */

const { dir, cleanupAll } = tempDirs();
afterEach(cleanupAll);

const days = simulatedDays('2026-03-01T02:00:00.000Z');
const MEMBERS = ['olivia.park', 'adam.reyes', 'mia.chen', 'noah.patel', 'lena.fischer', 'sam.okafor', 'ines.duarte'];
const DOMAIN_TABS = {
  recordings: 'All recordings',
  deals: 'All deals',
  companies: 'All companies',
  contacts: 'All contacts',
} as const;

/** pinsOf is a manifests folder in which each member pins one tab in each of `domains`. */
function pinsOf(members: readonly string[], domains: readonly (keyof typeof DOMAIN_TABS)[]): Record<string, string> {
  const files: Record<string, string> = { 'workspace.yaml': 'kind: Workspace\nworkspaceId: ws_acme\n' };
  for (const member of members)
    files[`pins/${member}.yaml`] =
      `kind: PinnedViews\nuserEmail: ${member}@acme.test\nunpinPrivate: true\n${domains.map((domain) => `${domain}: [${DOMAIN_TABS[domain]}]\n`).join('')}`;
  return files;
}

/** repinInTheApp pins Open deals in place of a member's deals tab, as they would in the app. */
async function repinInTheApp(env: Record<string, string>, member: string): Promise<void> {
  const url = `${env.VIEWCTL_BASE_URL ?? ''}/v1/deals/views/pinned?userEmail=${encodeURIComponent(`${member}@acme.test`)}`;
  const headers = { 'X-Service-Key': env.VIEWCTL_API_KEY ?? '', 'content-type': 'application/json' };
  const put = await fetch(url, { method: 'PUT', headers, body: JSON.stringify({ viewIds: ['dv_default_open'] }) });
  expect(put.status).toBe(200);
}

/** readOn is the keys of the lists the memory at `ledger` says were read at `at`. */
async function readOn(ledger: string, at: string): Promise<string[]> {
  const memory = await memoryFile(ledger);
  return Object.entries(memory.lists)
    .filter(([, list]) => list.lastRead === at)
    .map(([key]) => key)
    .sort();
}

describe('the sweep memory under faults, through the built CLI', () => {
  it('loses nothing when four plans of one member each save at once on a new file (real processes)', async () => {
    const members = MEMBERS.slice(0, 4);
    const root = await dir(pinsOf(members, ['recordings', 'deals', 'companies', 'contacts']));
    await withEmulator(async (_emulator, env) => {
      const runs = await Promise.all(
        members.map((member) =>
          runCli(['plan', '.', '--target', `pins/${member}@acme.test`, '--ledger', 'ledger.json', '--rate', '1000'], {
            env,
            cwd: root,
          }),
        ),
      );
      for (const run of runs) expect(run.code, run.stderr).toBe(0);
      for (const run of runs) expect(run.stderr).not.toContain('warning');
      const memory = await memoryFile(join(root, 'ledger.json'));
      expect(Object.keys(memory.lists)).toHaveLength(16);
    });
  });

  it('reads, over simulated nights, a list whose date was forged far ahead or written by a runner whose clock is ahead, within the cycle it states', async () => {
    const root = await dir(pinsOf(MEMBERS, ['deals']));
    const ledger = join(root, 'ledger.json');
    await withEmulator(async (_emulator, env) => {
      const run = (day: number) => days.run(day, ['plan', '.', '--budget', '5', '--ledger', ledger], env, root);
      // Night 1 reads 3 of the 7 lists (a room of 3; every list within 3 nights).
      expect((await run(1)).code).toBe(0);
      const [forged] = await readOn(ledger, days.on(1));
      expect(forged).toBeDefined();
      const memory = await memoryFile(ledger);
      memory.lists[forged ?? ''] = {
        lastRead: '9999-12-31T23:59:59Z',
        viewIds: memory.lists[forged ?? '']?.viewIds ?? [],
      };
      await writeFile(ledger, JSON.stringify(memory));
      // The member of the forged list changes their deals tab in the app: drift a night must report.
      const member = (forged ?? '').replace(/^deals:|@acme\.test$/g, '');
      await repinInTheApp(env, member);

      const second = await run(2);
      expect(second.code).toBe(0);
      expect(second.stderr).toContain(
        `warning: --ledger ${ledger} holds a date after this run's clock (${days.on(2)}), such as /lists/${forged}/lastRead 9999-12-31T23:59:59Z`,
      );
      expect(await readOn(ledger, days.on(2))).toContain(forged);
      expect(second.stdout).toContain(`${member}@acme.test`);

      // Night 3 runs on a runner whose clock is 30 days ahead: its reads are dated then.
      expect((await run(33)).code).toBe(0);
      const ahead = await readOn(ledger, days.on(33));
      expect(ahead).toHaveLength(3);
      // Back on the right clock, nights 4 to 6 read every list, those dated ahead first.
      const read: string[][] = [];
      for (const day of [4, 5, 6]) {
        const result = await run(day);
        expect(result.code).toBe(0);
        read.push(await readOn(ledger, days.on(day)));
      }
      expect(read[0]).toEqual(ahead);
      expect(new Set(read.flat()).size).toBe(MEMBERS.length);
      expect(Object.values((await memoryFile(ledger)).lists).every((list) => list.lastRead <= days.on(6))).toBe(true);
    });
  });

  it('refuses a date that names no instant, saying where, before any pinned list is read', async () => {
    const root = await dir(pinsOf(MEMBERS.slice(0, 1), ['deals']));
    const text =
      '{\n  "formatVersion": 1,\n  "lists": {\n    "deals:olivia.park@acme.test": { "lastRead": "2026-13-45T99:99:99Z", "viewIds": [] }\n  },\n  "views": {},\n  "members": {}\n}\n';
    await writeFile(join(root, 'ledger.json'), text);
    await withEmulator(async (emulator, env) => {
      const result = await days.run(1, ['plan', '.', '--ledger', 'ledger.json'], env, root);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(
        'error[ledger.invalid]: --ledger ledger.json is not a viewctl sweep memory, so it is neither used nor written over: /lists/deals:olivia.park@acme.test/lastRead: "2026-13-45T99:99:99Z" is not a real date and time, at ledger.json:4:50',
      );
      expect(emulator.stats().requests).toBe(0);
    });
    expect(await readFile(join(root, 'ledger.json'), 'utf8')).toBe(text);
  });

  it('refuses a named pipe and /dev/null at once, opening neither (a pipe made the run wait for ever)', async () => {
    const root = await dir(pinsOf(MEMBERS.slice(0, 1), ['deals']));
    execFileSync('mkfifo', [join(root, 'ledger.json')]);
    await withEmulator(async (_emulator, env) => {
      for (const [file, what] of [
        ['ledger.json', 'it is a named pipe'],
        ['/dev/null', 'it is a character device'],
      ] as const) {
        const result = await runCli(['plan', '.', '--ledger', file, '--rate', '1000'], {
          env,
          cwd: root,
          signal: AbortSignal.timeout(20_000),
        });
        expect(result.code, result.stderr).toBe(1);
        expect(result.stderr).toContain(`error[output.write-failed]: cannot write --ledger ${file}: ${what}: `);
        expect(result.stderr).toContain('nothing was read from the service');
      }
    });
  });
});
