import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiView } from '../../src/domain/api-types.js';
import type { RunningEmulator } from '../../src/emulator/server.js';
import { runBuilt, tempDirs, withEmulator } from './harness.js';
import { exampleRepository, git, simulatedDays } from './days.js';

/**
 * Sharing the workspace with its people over simulated days (README, "Living with an
 * organisation"), through the built CLI against the emulator: under `mode: include`
 * and `appOwns: [columns]`, members add tabs of their own and widen columns every
 * day, and the nightly sweep reports no drift for it and self-heal writes nothing for
 * it; the day a member removes a mandated tab, the next night reports it and puts it
 * back in front, keeping the member's own tabs.
 */

const { dir, cleanupAll } = tempDirs();
afterEach(cleanupAll);

const days = simulatedDays('2026-04-01T03:00:00.000Z');
const LEDGER = '.viewctl/ledger.json';
const MIA = 'mia.chen@acme.test';
const LENA = 'lena.fischer@acme.test';

async function app<T>(emulator: RunningEmulator, method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${emulator.url}${path}`, {
    method,
    headers: { 'x-service-key': emulator.apiKey, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  expect(response.status, `${method} ${path}`).toBeLessThan(300);
  return ((await response.json()) as { result: T }).result;
}

const pinnedPath = (domain: string, email: string) =>
  `/v1/${domain}/views/pinned?userEmail=${encodeURIComponent(email)}`;
const pinnedIds = async (emulator: RunningEmulator, domain: string, email: string) =>
  (await app<ApiView[]>(emulator, 'GET', pinnedPath(domain, email))).map((view) => view.viewId);

/** addOwnTab pins, at the end of a member's list, a public view of the domain they do not pin yet (or moves their first tab last). */
async function addOwnTab(emulator: RunningEmulator, domain: string, email: string): Promise<void> {
  const pinned = await pinnedIds(emulator, domain, email);
  const listing = await app<ApiView[]>(emulator, 'GET', `/v1/${domain}/views`);
  const fresh = listing.find((view) => view.visibility === 'Public' && !pinned.includes(view.viewId));
  const viewIds = fresh === undefined ? [...pinned.slice(1), pinned[0]] : [...pinned, fresh.viewId];
  await app(emulator, 'PUT', pinnedPath(domain, email), { viewIds });
}

async function edit(root: string, path: string, change: (text: string) => string): Promise<void> {
  const file = join(root, 'manifests', path);
  await writeFile(file, change(await readFile(file, 'utf8')));
}

describe('members under mode: include and appOwns, over several nights', () => {
  it("reports no drift and repairs nothing for members' own tabs and widened columns; a removed mandated tab is restored the next night", async () => {
    const root = await exampleRepository(await dir({}));
    await edit(root, 'workspace.yaml', (text) => `${text}appOwns: [columns]\n`);
    await edit(root, 'pins/member-company-tabs.yaml', (text) => `${text}mode: include\n`);
    await edit(root, 'pins/mia.yaml', () =>
      [
        'kind: PinnedViews',
        `userEmail: ${MIA}`,
        'mode: include',
        'recordings: [Zoom and Meet calls, Team calls]',
        '',
      ].join('\n'),
    );
    git(root, 'commit', '--quiet', '-am', 'share the tabs and the columns with the members');
    await withEmulator(async (emulator, env) => {
      const run = (day: number, args: string[]) => days.run(day, args, env, root);
      const miaAtFirst = await pinnedIds(emulator, 'recordings', MIA);
      const reviewed = await run(1, ['apply', 'manifests', '--ledger', LEDGER, '--auto-approve']);
      expect(reviewed.code, reviewed.stderr).toBe(0);
      expect(reviewed.stdout).toContain('Left to the app (appOwns): columns of');
      const teamCalls =
        (await app<ApiView[]>(emulator, 'GET', '/v1/recordings/views')).find((view) => view.name === 'Team calls')
          ?.viewId ?? '';
      // The missing mandated tab went in front; what Mia pinned herself stayed, in her order.
      expect(await pinnedIds(emulator, 'recordings', MIA)).toEqual([teamCalls, ...miaAtFirst]);

      const nightly = async (day: number) => {
        const report = await run(day, [
          'plan',
          'manifests',
          '--budget',
          '1000',
          '--ledger',
          LEDGER,
          '--format',
          'json',
        ]);
        expect(report.code, report.stderr).toBe(0);
        const changes = (JSON.parse(report.stdout) as { changes: { action: string; name: string }[] }).changes;
        const heal = await run(day, [
          'apply',
          'manifests',
          '--budget',
          '1000',
          '--reserve',
          '0',
          '--ledger',
          LEDGER,
          '--auto-approve',
        ]);
        expect(heal.code, heal.stderr).toBe(0);
        return { applied: changes.filter((change) => change.action !== 'drift'), heal: heal.stdout };
      };

      for (let day = 2; day <= 5; day += 1) {
        // By day, in the app: Lena and Mia pin tabs of their own; someone widens a column of "Budget confirmed".
        await addOwnTab(emulator, 'companies', LENA);
        await addOwnTab(emulator, 'recordings', MIA);
        const budget = (await app<ApiView[]>(emulator, 'GET', '/v1/recordings/views')).find(
          (view) => view.viewId === 'rv_budget_confirmed',
        );
        const columns = (budget?.columns ?? []).map((column, index) =>
          index === 0 ? { ...column, width: 300 + day * 20 } : column,
        );
        await app(emulator, 'PATCH', '/v1/recordings/views/rv_budget_confirmed', { columns });
        if (day === 4) {
          // Mia also unpins a tab the team mandates.
          const kept = (await pinnedIds(emulator, 'recordings', MIA)).filter((id) => id !== teamCalls);
          await app(emulator, 'PUT', pinnedPath('recordings', MIA), { viewIds: kept });
        }
        const before = await pinnedIds(emulator, 'recordings', MIA);
        const lena = await pinnedIds(emulator, 'companies', LENA);
        const night = await nightly(day + 1);
        if (day === 4) {
          expect(night.applied).toEqual([expect.objectContaining({ action: 'pin', name: MIA })]);
          expect(night.heal).toMatch(/Repaired: 1 pin list \(member mia\.chen@acme\.test\)/);
          // Put back in front; her own tabs and their order stay.
          expect(await pinnedIds(emulator, 'recordings', MIA)).toEqual([teamCalls, ...before]);
        } else {
          expect(night.applied).toEqual([]);
          expect(night.heal).toContain('Repaired: nothing.');
          expect(await pinnedIds(emulator, 'recordings', MIA)).toEqual(before);
        }
        expect(await pinnedIds(emulator, 'companies', LENA)).toEqual(lena);
        const widened = (await app<ApiView[]>(emulator, 'GET', '/v1/recordings/views')).find(
          (view) => view.viewId === 'rv_budget_confirmed',
        );
        expect(widened?.columns[0]).toMatchObject({ width: 300 + day * 20 });
      }
    });
  });
});

describe('--max-pin-changes through the CLI', () => {
  it('plan says apply will refuse a glob that rewrites too many lists; apply refuses with exit 3 and writes nothing', async () => {
    const manifests = await dir({
      'workspace.yaml': 'kind: Workspace\nworkspaceId: ws_acme\ncreatorEmail: adam.reyes@acme.test\n',
      'pins/everyone.yaml': 'kind: PinnedViews\nname: Everyone\nusers: ["*@*"]\nrecordings: [All recordings]\n',
    });
    await withEmulator(async (emulator, env) => {
      const plan = await runBuilt(['plan', manifests, '--max-pin-changes', '2'], { env });
      expect(plan.code, plan.stderr).toBe(0);
      expect(plan.stdout.split('\n')[1]).toMatch(
        /^Apply will refuse this plan: it rewrites \d+ members' pinned lists, more than/,
      );
      const lists = Number(/it rewrites (\d+) members/.exec(plan.stdout)?.[1]);
      expect(lists).toBeGreaterThan(2);
      emulator.resetStats();
      const apply = await runBuilt(['apply', manifests, '--auto-approve', '--max-pin-changes', '2'], { env });
      expect(apply.code).toBe(3);
      expect(apply.stderr).toContain(`error[apply.max-pin-changes]: the plan rewrites ${lists} members' pinned lists`);
      expect(apply.stderr).toContain(`pass --max-pin-changes ${lists}`);
      expect(emulator.stats().writes).toBe(0);
    });
  });
});
