import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EXAMPLES, tempDirs, cloneData, runBuilt, runCli, withEmulator } from './harness.js';

const { dir, cleanupAll } = tempDirs();
afterEach(cleanupAll);

async function example(path: string): Promise<string> {
  return readFile(join(EXAMPLES, path), 'utf8');
}

const WORKSPACE = 'kind: Workspace\nworkspaceId: ws_acme\ncreatorEmail: adam.reyes@acme.test\n';

describe('viewctl plan against the emulator', () => {
  it('exits 0 and says so in one line when the manifests match the workspace', async () => {
    const manifests = await dir({
      'workspace.yaml': WORKSPACE,
      'views/big-renewals.yaml': await example('views/deals/big-renewals.yaml'),
      'views/pipeline-review.yaml': await example('views/deals/pipeline-review.yaml'),
      'pins/noah.yaml': await example('pins/noah.yaml'),
    });
    await withEmulator(async (emulator, env) => {
      const run = await runBuilt(['plan', '--rate', '1000', manifests, '--detailed-exitcode'], { env });
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(run.stdout.trim().split('\n')).toHaveLength(1);
      expect(run.stdout).toMatch(/^No changes\. .*Acme Sales \(ws_acme\)/);
      expect(emulator.stats().writes).toBe(0);
    });
  });

  it('exits 2 with --detailed-exitcode on creates, updates, pins and drift, and writes nothing', async () => {
    await withEmulator(async (emulator, env) => {
      const run = await runCli(['plan', '--rate', '1000', EXAMPLES, '--detailed-exitcode'], { env });
      expect(run.code).toBe(2);
      expect(run.stdout).toContain('+ create  RecordingView');
      expect(run.stdout).toContain('~ update  RecordingView');
      expect(run.stdout).toContain('↻ pins');
      expect(run.stdout).toContain('! drift');
      expect(run.stdout).toMatch(/Plan: 1 to create, 1 to update, 0 to delete, 3 pin lists, 1 drift\./);
      expect(emulator.stats().writes).toBe(0);
      // Without the flag, changes are still success.
      expect((await runCli(['plan', '--rate', '1000', EXAMPLES], { env })).code).toBe(0);
    });
  });

  it('reads at the request floor: workspace, one list per domain, one pinned call per user and domain, automations, users', async () => {
    await withEmulator(async (emulator, env) => {
      emulator.resetStats();
      await runBuilt(['plan', '--rate', '1000', EXAMPLES], { env });
      const byEndpoint = emulator.stats().byEndpoint;
      expect(byEndpoint).toEqual({
        'GET /v1/workspaces/mine': 1,
        'GET /v1/recordings/views': 1,
        'GET /v1/deals/views': 1,
        'GET /v1/companies/views': 1,
        'GET /v1/contacts/views': 1,
        'GET /v1/recordings/views/pinned': 2,
        'GET /v1/deals/views/pinned': 1,
        // The group document reaches the five active Members.
        'GET /v1/companies/views/pinned': 5,
        'GET /v1/admin-automations': 1,
        // One page of users, read once: the plan creates "Team calls" (creatorEmail is
        // checked) and the group document needs the members.
        'GET /v1/users': 1,
      });
      expect(emulator.stats().rateLimited).toBe(0);
    });
  });

  it('writes the JSON plan with --out and prints the same plan with --format json', async () => {
    const out = await dir({});
    await withEmulator(async (_emulator, env) => {
      const run = await runBuilt(
        ['plan', '--rate', '1000', EXAMPLES, '--format', 'json', '--out', join(out, 'plan.json')],
        { env },
      );
      expect(run.code).toBe(0);
      const saved = JSON.parse(await readFile(join(out, 'plan.json'), 'utf8')) as Record<string, unknown>;
      expect(JSON.parse(run.stdout)).toEqual(saved);
      expect(saved.formatVersion).toBe(1);
      expect(saved.digest).toMatch(/^[0-9a-f]{64}$/);
      expect(saved.summary).toEqual({ create: 1, update: 1, delete: 0, pin: 3, drift: 1 });
      // One stored step per change but the drift; the estimate adds the recordings listing that verifies.
      const steps = saved.steps as { method: string }[];
      expect(steps.map((step) => step.method)).toEqual(['POST', 'PATCH', 'PUT', 'PUT', 'PUT']);
      expect((saved.requests as { applyNeeds: number }).applyNeeds).toBe(steps.length + 1);
    });
  });

  it('renders markdown for a pull-request comment', async () => {
    await withEmulator(async (_emulator, env) => {
      const run = await runBuilt(['plan', '--rate', '1000', EXAMPLES, '--format', 'markdown'], { env });
      expect(run.code).toBe(0);
      expect(run.stdout.startsWith('### viewctl plan: Acme Sales (ws\\_acme)')).toBe(true);
      expect(run.stdout).toContain('<details>');
    });
  });
});

describe('fail-safe rules: exit 1, nothing written', () => {
  const cases: Array<{ rule: string; code: string; files: Record<string, string>; where?: string }> = [
    {
      rule: 'a built-in default view is never updated',
      code: 'view.default-name',
      files: { 'v.yaml': `${WORKSPACE}---\nkind: RecordingView\nname: All recordings\nfilters: {}\n` },
      where: 'v.yaml:6:7',
    },
    {
      rule: 'a manifest bound by viewId to a built-in default view is refused',
      code: 'view.default-immutable',
      files: {
        'v.yaml': `${WORKSPACE}---\nkind: RecordingView\nname: Everything\nviewId: rv_default_all\nfilters: {}\n`,
      },
      where: 'v.yaml:7:9',
    },
    {
      rule: 'a view that would be created needs creatorEmail',
      code: 'workspace.creator-required',
      files: { 'v.yaml': 'kind: RecordingView\nname: Brand new\nfilters: {}\n' },
    },
    {
      // A member who left holds the creates instead (test/e2e/held-targets.test.ts); an address that never was one is the manifests' mistake.
      rule: 'creatorEmail must name a member',
      code: 'workspace.creator-inactive',
      files: {
        'v.yaml':
          'kind: Workspace\ncreatorEmail: nobody@acme.test\n---\nkind: RecordingView\nname: Brand new\nfilters: {}\n',
      },
      where: 'v.yaml:2:15',
    },
    {
      rule: 'the key of another workspace stops everything',
      code: 'workspace.mismatch',
      files: { 'w.yaml': 'kind: Workspace\nworkspaceId: ws_other\n---\nkind: RecordingView\nname: Customer calls\n' },
      where: 'w.yaml:2:14',
    },
  ];

  for (const { rule, code, files, where } of cases) {
    it(rule, async () => {
      const manifests = await dir(files);
      await withEmulator(async (emulator, env) => {
        const run = await runBuilt(['plan', '--rate', '1000', manifests], { env });
        expect(run.code).toBe(1);
        expect(run.stderr).toContain(code);
        if (where !== undefined) expect(run.stderr).toContain(where);
        expect(run.stderr).not.toMatch(/\n\s+at /); // no stack trace
        expect(emulator.stats().writes).toBe(0);
      });
    });
  }

  it('a wrong workspaceId is found with the first request, before anything else is read', async () => {
    const manifests = await dir({
      'w.yaml': 'kind: Workspace\nworkspaceId: ws_other\n---\nkind: RecordingView\nname: Customer calls\n',
    });
    await withEmulator(async (emulator, env) => {
      emulator.resetStats();
      await runBuilt(['plan', '--rate', '1000', manifests], { env });
      expect(emulator.stats().byEndpoint).toEqual({ 'GET /v1/workspaces/mine': 1 });
    });
  });

  it('two live views with a declared name are ambiguous: error with both ids and the way out', async () => {
    const data = cloneData();
    const twin = data.views.recordings.find((view) => view.viewId === 'rv_customer_calls');
    if (twin === undefined) throw new Error('demo lost rv_customer_calls');
    data.views.recordings.push({ ...structuredClone(twin), viewId: 'rv_customer_calls_copy' });
    const manifests = await dir({
      'v.yaml': `${WORKSPACE}---\nkind: RecordingView\nname: Customer calls\nfilters: {}\n`,
    });
    await withEmulator(
      async (emulator, env) => {
        const run = await runBuilt(['plan', '--rate', '1000', manifests], { env });
        expect(run.code).toBe(1);
        expect(run.stderr).toContain('view.ambiguous-name');
        expect(run.stderr).toContain('rv_customer_calls');
        expect(run.stderr).toContain('rv_customer_calls_copy');
        expect(run.stderr).toContain('viewId');
        expect(emulator.stats().writes).toBe(0);
      },
      { data },
    );
  });

  it('a validation error anywhere stops before the service is contacted', async () => {
    const manifests = await dir({
      'good.yaml': `${WORKSPACE}---\nkind: RecordingView\nname: Brand new\nfilters: {}\n`,
      'bad.yaml': 'kind: RecordingView\nname: Broken\nfilters:\n  sourceIn: [Fax]\n',
    });
    await withEmulator(async (emulator, env) => {
      emulator.resetStats();
      const run = await runBuilt(['plan', '--rate', '1000', manifests], { env });
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/bad\.yaml:4:\d+\s+schema\.enum/);
      expect(emulator.stats().requests).toBe(0);
    });
  });
});

describe('service errors', () => {
  it('a bad key exits 1 with a clear message that never shows the key', async () => {
    await withEmulator(async (emulator, env) => {
      const key = 'sk_wrong_key_do_not_print_4711';
      const run = await runBuilt(['plan', '--rate', '1000', EXAMPLES, '--verbose'], {
        env: { ...env, VIEWCTL_API_KEY: key },
      });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain('service.unauthorized');
      expect(run.stdout + run.stderr).not.toContain(key);
      expect(run.stdout + run.stderr).not.toContain(emulator.apiKey);
    });
  });

  it('a failed read cancels its queued siblings instead of spending more of the quota', async () => {
    // A misspelt address (never a member) fails its read; a member who left would be skipped.
    const users = [
      'tom.beker',
      'olivia.park',
      'adam.reyes',
      'mia.chen',
      'noah.patel',
      'lena.fischer',
      'sam.okafor',
      'ines.duarte',
    ];
    const manifests = await dir(
      // Files load in name order: the misspelt address's list is read first.
      Object.fromEntries(
        users.map((name, index) => [
          `pins/${index}-${name}.yaml`,
          `kind: PinnedViews\nuserEmail: ${name}@acme.test\nrecordings: [All recordings]\n`,
        ]),
      ),
    );
    // The service's own limits: eight pinned reads of one endpoint take about 2.5 s.
    await withEmulator(
      async (emulator, env) => {
        const run = await runBuilt(['plan', manifests], { env });
        expect(run.code).toBe(1);
        expect(run.stderr).toContain('pins.user-not-active');
        expect(run.stderr).toMatch(
          /pins\/0-tom\.beker\.yaml:\d+:\d+: tom\.beker@acme\.test is not a member of the workspace/,
        );
        expect(emulator.stats().byEndpoint['GET /v1/recordings/views/pinned'] ?? 0).toBeLessThan(users.length);
      },
      { rate: 3, burst: 3, quota: 3000 },
    );
  });

  it('without a base URL or --emulator it names both', async () => {
    const run = await runBuilt(['plan', '--rate', '1000', EXAMPLES]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('--base-url');
    expect(run.stderr).toContain('VIEWCTL_BASE_URL');
    expect(run.stderr).toContain('--emulator');
  });
});
