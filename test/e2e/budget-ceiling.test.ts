import { afterEach, describe, expect, it } from 'vitest';
import { scaledWorkspace } from '../../src/emulator/demo/scaled-workspace.js';
import { runBuilt, tempDirs, withEmulator } from './harness.js';

/**
 * A budget is a ceiling, through the built CLI against the emulator: a service quota
 * smaller than `--budget` lowers it to what is left today less `--reserve` and the plan
 * says so; a quota that cannot pay even the fixed reads is refused after the first
 * request; the least `--budget 0` prints then works; the plan prints what is left,
 * never a daily total.
 */

const { dir, cleanupAll } = tempDirs();
afterEach(cleanupAll);

const MEMBERS = 60;

/** One group document for every active member: the plan reads the users, then two lists per member. */
function groupTabs(): Record<string, string> {
  return {
    'workspace.yaml': 'kind: Workspace\nworkspaceId: ws_acme\n',
    'pins/everyone.yaml':
      'kind: PinnedViews\nname: Everyone\nroles: [Member, Admin]\nunpinPrivate: true\ndeals: [All deals]\nrecordings: [All recordings]\n',
  };
}

const FAST = ['--rate', '1000'];

/** DAY is a fixed night, so the figures hold on any day. */
const DAY = ['--budget-day', '2026-03-02'];

describe('plan --budget with a service quota smaller than the budget', () => {
  it('lowers the budget to what is left today less the reserve, says so, prints the plan, and never meets the quota', async () => {
    const manifests = await dir(groupTabs());
    await withEmulator(
      async (emulator, env) => {
        const result = await runBuilt(['plan', manifests, '--budget', '1000', ...DAY, ...FAST], { env });
        expect(result.stderr).not.toContain('quota-exhausted');
        expect(result.code, result.stderr).toBe(0);
        expect(result.stdout).toMatch(
          /^Scope: read 46 of 104 pinned lists \(--budget 1,000 lowered to 50, the 350 left today less --reserve 300; this night's share of a \d+-night rotation/m,
        );
        expect(result.stdout).toContain('Plan: ');
        expect(result.stdout).toMatch(/^300 left today/m);
        // The workspace, two listings, one page of users, then the 46 lists the ceiling leaves.
        expect(emulator.stats().requests).toBe(50);
        expect(emulator.stats().rateLimited).toBe(0);
      },
      { data: scaledWorkspace(MEMBERS), quota: 350 },
    );
  });

  it('with 120 left today and the default reserve, is refused after the first request with the figures and the ways out', async () => {
    const manifests = await dir(groupTabs());
    await withEmulator(
      async (emulator, env) => {
        const result = await runBuilt(['plan', manifests, '--budget', '1000', ...DAY, ...FAST], { env });
        expect(result.code).toBe(1);
        expect(result.stderr).toMatch(
          /^error\[plan\.exceeds-daily-quota\]: the plan reads at least 5 requests \(the workspace, the 2 view listings, the users \(1 request for \d+ members\) and a pinned list\), but the service says 120 are left today and --reserve keeps 300 of them for the other integrations that share the quota; only the workspace was read/,
        );
        expect(result.stderr).toMatch(/hint: wait until requests free up .*lower --reserve .*--base REF/);
        expect(emulator.stats().requests).toBe(1);
      },
      { data: scaledWorkspace(MEMBERS), quota: 120 },
    );
  });

  it('with --reserve 0, spends the 100 left today and no more', async () => {
    const manifests = await dir(groupTabs());
    await withEmulator(
      async (emulator, env) => {
        const result = await runBuilt(['plan', manifests, '--budget', '1000', '--reserve', '0', ...DAY, ...FAST], {
          env,
        });
        expect(result.stderr).not.toContain('quota-exhausted');
        expect(result.code, result.stderr).toBe(0);
        expect(result.stdout).toMatch(
          /^Scope: read 96 of 104 pinned lists \(--budget 1,000 lowered to 100, the 100 left today; this night's share of a \d+-night rotation/m,
        );
        expect(result.stdout).toMatch(/^0 left today/m);
        expect(emulator.stats().requests).toBe(100);
        expect(emulator.stats().rateLimited).toBe(0);
      },
      { data: scaledWorkspace(MEMBERS), quota: 100 },
    );
  });
});

/** readFigure is the "read N requests" figure the plan prints in its header. */
function readFigure(stdout: string): number {
  return Number(/· read (\d+) requests?/.exec(stdout)?.[1] ?? Number.NaN);
}

/** listsRead is how many pinned lists the Scope line says the plan read. */
function listsRead(stdout: string): number {
  return Number(/^Scope: read (\d+) of 104 pinned lists/m.exec(stdout)?.[1] ?? Number.NaN);
}

describe('a budget counts retries', () => {
  // 30 % of requests answered 503: the budget is a ceiling on requests sent, retries included.
  it.each([
    { budget: 40, reserve: '0', quota: 1_000_000, seed: 1 },
    { budget: 40, reserve: '0', quota: 1_000_000, seed: 2 },
    { budget: 100, reserve: '0', quota: 1_000_000, seed: 3 },
    { budget: 100, reserve: '0', quota: 1_000_000, seed: 4 },
    // The reserve binds: 150 left less --reserve 50 lowers --budget 1,000 to 100.
    { budget: 1000, reserve: '50', quota: 150, seed: 5 },
    { budget: 1000, reserve: '50', quota: 150, seed: 6 },
  ])(
    'plan --budget $budget --reserve $reserve with $quota left and 30 % faults (seed $seed) plans within the ceiling, reading fewer lists and saying why',
    async ({ budget, reserve, quota, seed }) => {
      const manifests = await dir(groupTabs());
      await withEmulator(
        async (emulator, env) => {
          const result = await runBuilt(
            ['plan', manifests, '--budget', String(budget), '--reserve', reserve, ...DAY, ...FAST],
            { env },
          );
          expect(result.stderr).not.toMatch(/error\[/);
          expect(result.code, result.stderr).toBe(0);
          const ceiling = Math.min(budget, quota - Number(reserve));
          const sent = emulator.stats().requests;
          expect(emulator.stats().faultsInjected).toBeGreaterThan(0);
          expect(sent).toBeLessThanOrEqual(ceiling);
          // The figure printed is the truth: every request sent, retries included.
          expect(readFigure(result.stdout)).toBe(sent);
          // The workspace, the 2 listings and a page of users, then one request per list read, and the retries.
          const read = listsRead(result.stdout);
          expect(read).toBeLessThan(ceiling - 4);
          expect(result.stdout).toMatch(
            /^Scope: .* \d+ lists? more (was|were) left unread: the service failed requests, and they and their \d+ retr(y|ies), counted against the budget, took the room\)/m,
          );
          expect(result.stdout).toContain('Plan: ');
        },
        { data: scaledWorkspace(MEMBERS), quota, failRate: 0.3, seed },
      );
    },
  );
});

describe('plan --budget 0', () => {
  it('prints a least that counts the users, and that budget then plans', async () => {
    const manifests = await dir(groupTabs());
    await withEmulator(
      async (emulator, env) => {
        const refused = await runBuilt(['plan', manifests, '--budget', '0', ...FAST], { env });
        expect(refused.code).toBe(1);
        expect(refused.stderr).toContain(
          'error[usage.budget-too-small]: --budget 0 is too small: reading the workspace, the 2 view listings and the users (a request per 100 members) takes 4 requests, and a pinned list at least one more; nothing was read',
        );
        expect(emulator.stats().requests).toBe(0);
        const least = /pass a --budget of at least (\d+)/.exec(refused.stderr)?.[1] ?? '';
        expect(least).toBe('5');
        const planned = await runBuilt(['plan', manifests, '--budget', least, ...FAST], { env });
        expect(planned.code, planned.stderr).toBe(0);
        expect(planned.stdout).toMatch(/^Scope: read 1 of \d+ pinned lists/m);
        expect(emulator.stats().requests).toBe(5);
      },
      { data: scaledWorkspace(MEMBERS) },
    );
  });
});

describe('plan without --budget', () => {
  it('keeps the reserve too: refused after the first request when what is left less the reserve cannot pay the fixed reads', async () => {
    const manifests = await dir(groupTabs());
    await withEmulator(
      async (emulator, env) => {
        const result = await runBuilt(['plan', manifests, ...FAST], { env });
        expect(result.code).toBe(1);
        expect(result.stderr).toMatch(
          /^error\[plan\.exceeds-daily-quota\]: the plan reads at least 5 requests .* 302 are left today and --reserve keeps 300 of them/,
        );
        expect(emulator.stats().requests).toBe(1);
      },
      { data: scaledWorkspace(MEMBERS), quota: 302 },
    );
  });
});

describe('what is left today', () => {
  it("comes from the service's headers, without a daily total no header carries", async () => {
    const manifests = await dir({
      'workspace.yaml': 'kind: Workspace\nworkspaceId: ws_acme\n',
      'pins/mia.yaml': 'kind: PinnedViews\nuserEmail: mia.chen@acme.test\nunpinPrivate: true\ndeals: [All deals]\n',
    });
    await withEmulator(
      async (_emulator, env) => {
        const text = await runBuilt(['plan', manifests, ...FAST], { env });
        expect(text.code, text.stderr).toBe(0);
        expect(text.stdout).toMatch(/^99,997 left today, [\d,]+ after this apply\.$/m);
        expect(text.stdout).not.toMatch(/of 3,000|3,000/);
        const markdown = await runBuilt(['plan', manifests, '--format', 'markdown', ...FAST], { env });
        expect(markdown.stdout).toMatch(/ · 99,994 left today, [\d,]+ after this apply/);
        const json = JSON.parse((await runBuilt(['plan', manifests, '--format', 'json', ...FAST], { env })).stdout) as {
          requests: Record<string, unknown>;
        };
        expect(json.requests).toEqual({
          used: 3,
          applyNeeds: expect.any(Number) as number,
          recheck: expect.any(Number) as number,
          dailyRemaining: 99_991,
        });
      },
      { quota: 100_000 },
    );
  });
});
