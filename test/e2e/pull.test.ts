import { cp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { snapshot } from './folder-bytes.js';
import { EXAMPLES, runBuilt, tempDirs, withEmulator } from './harness.js';

const { dir, cleanupAll } = tempDirs();
afterEach(cleanupAll);

/** inApp sends one request to the emulator as the app would (a person's edit), and expects it to succeed. */
async function inApp(
  emulator: { url: string; apiKey: string },
  method: string,
  path: string,
  body: unknown,
): Promise<void> {
  const response = await fetch(`${emulator.url}/v1${path}`, {
    method,
    headers: { 'x-service-key': emulator.apiKey, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.status, `${method} ${path}`).toBe(200);
}

const MEMBERS = ['--target', 'pins/adam.reyes@acme.test', '--target', 'pins/mia.chen@acme.test'];
const TARGETS = ['--target', 'RecordingView/Customer calls', ...MEMBERS];
/** The same targets once pull has written the app's new name into the view's document. */
const RENAMED = ['--target', 'RecordingView/Phone calls', ...MEMBERS];

describe('viewctl pull against the emulator', () => {
  it('writes what people changed in the app into the manifests, in place, and plan is then in sync for those targets', async () => {
    const root = await dir({});
    const manifests = join(root, 'manifests');
    await cp(EXAMPLES, manifests, { recursive: true });
    // A file with Windows line endings and a comment beside the value pull rewrites.
    const calls = join(manifests, 'views/recordings/customer-calls.yaml');
    await writeFile(
      calls,
      (await readFile(calls, 'utf8'))
        .replace('icon: telephone_receiver', 'icon: telephone_receiver   # chosen by the team')
        .replace(/\n/g, '\r\n'),
    );
    await withEmulator(async (emulator, env) => {
      expect((await runBuilt(['apply', manifests, '--auto-approve'], { env })).code).toBe(0);

      // In the app: an admin renames and edits a view, Adam re-orders his tabs, Mia (reached by a group) changes her company tabs.
      await inApp(emulator, 'PATCH', '/recordings/views/rv_customer_calls', {
        name: 'Phone calls',
        icon: 'phone',
        filters: { sourceIn: ['Call', 'Aircall'], recordingTypeIn: ['Meeting'], stateIn: ['Ready'] },
      });
      await inApp(emulator, 'PUT', '/recordings/views/pinned?userEmail=adam.reyes@acme.test', {
        viewIds: ['rv_deals_at_risk', 'rv_customer_calls'],
      });
      await inApp(emulator, 'PUT', '/companies/views/pinned?userEmail=mia.chen@acme.test', {
        viewIds: ['cv_customers', 'cv_default_all'],
      });
      const before = await snapshot(manifests);

      emulator.resetStats();
      const pull = await runBuilt(['pull', manifests, ...TARGETS], { env });
      expect(pull.code, pull.stderr).toBe(0);
      expect(emulator.stats().writes).toBe(0);
      expect(pull.stdout).toMatch(
        /customer-calls\.yaml:3 +RecordingView "Customer calls" +name: "Customer calls" -> "Phone calls"/,
      );
      expect(pull.stdout).toMatch(
        /pins\/adam\.yaml:5 +pins\/adam\.reyes@acme\.test \(recordings\) +recordings: \["Customer calls","Deals at risk","All recordings"\] -> \["Deals at risk","Phone calls"\]/,
      );
      expect(pull.stdout).toMatch(/pins\/mia-chen-acme-test\.yaml +pins of mia\.chen@acme\.test: companies/);
      expect(pull.stdout + pull.stderr).not.toContain(env.VIEWCTL_API_KEY);

      const after = await snapshot(manifests);
      const touched = new Map<string, (old: string) => string>([
        [
          'views/recordings/customer-calls.yaml',
          (old) =>
            old
              .replace('name: Customer calls\r\n', 'name: Phone calls\r\n')
              .replace('icon: telephone_receiver   # chosen by the team', 'icon: phone   # chosen by the team')
              .replace('sourceIn: [Aircall, Allo, Call, LemlistVoip, Ringover]', 'sourceIn: [Aircall, Call]'),
        ],
        [
          'pins/adam.yaml',
          (old) =>
            old.replace(
              'recordings: [Customer calls, Deals at risk, All recordings]',
              'recordings: [Deals at risk, Phone calls]',
            ),
        ],
      ]);
      for (const [path, bytes] of before) {
        const expected = touched.get(path);
        // Every file pull did not touch is byte-identical; a touched one differs only in the spliced values.
        expect(after.get(path)?.toString('utf8'), path).toBe(
          expected === undefined ? bytes.toString('utf8') : expected(bytes.toString('utf8')),
        );
        expect(expected !== undefined || after.get(path)?.equals(bytes) === true, path).toBe(true);
      }
      for (const path of touched.keys())
        expect(after.get(path)?.equals(before.get(path) ?? Buffer.alloc(0)), `${path} changed`).toBe(false);
      const added = [...after.keys()].filter((path) => !before.has(path));
      expect(added.filter((path) => !path.startsWith('.viewctl/'))).toEqual(['pins/mia-chen-acme-test.yaml']);
      // The group document is never edited for one member: Mia's own document now wins for her companies tabs.
      expect(after.get('pins/mia-chen-acme-test.yaml')?.toString()).toMatch(
        /userEmail: mia\.chen@acme\.test\ncompanies:\n  - Customers\n  - All companies\n/,
      );

      const plan = await runBuilt(['plan', manifests, ...RENAMED, '--detailed-exitcode'], { env });
      expect(plan.stdout, plan.stderr).toMatch(/^No changes\./m);
      expect(plan.code).toBe(0);

      // Pulled again, there is nothing left to pull, and no file changes.
      const again = await runBuilt(['pull', manifests, ...RENAMED, '--format', 'json'], { env });
      expect(again.code, again.stderr).toBe(0);
      expect(JSON.parse(again.stdout)).toMatchObject({ written: [], added: [] });
      const third = await snapshot(manifests);
      for (const [path, bytes] of after) expect(third.get(path)?.equals(bytes), path).toBe(true);
    });
  });

  it('rewrites a stale viewId to the view that replaced it in the app, and adds a member no document declares', async () => {
    const root = await dir({});
    const manifests = join(root, 'manifests');
    await cp(EXAMPLES, manifests, { recursive: true });
    await withEmulator(async (emulator, env) => {
      expect((await runBuilt(['apply', manifests, '--auto-approve'], { env })).code).toBe(0);
      const response = await fetch(`${emulator.url}/v1/recordings/views/rv_deals_at_risk`, {
        method: 'DELETE',
        headers: { 'x-service-key': emulator.apiKey },
      });
      expect(response.status).toBe(200);
      await inApp(emulator, 'POST', '/recordings/views', {
        creatorEmail: 'mia.chen@acme.test',
        name: 'Deals at risk',
        icon: 'fire',
      });
      const held = await runBuilt(
        ['plan', manifests, '--target', 'RecordingView/Deals at risk', '--detailed-exitcode'],
        { env },
      );
      expect(held.code).toBe(2);

      // Olivia (an owner) is reached by no document: plan does not know her as a target.
      const targets = ['--target', 'RecordingView/Deals at risk', '--target', 'pins/olivia.park@acme.test'];
      expect((await runBuilt(['plan', manifests, ...targets], { env })).stderr).toContain('target.unknown');
      const before = await snapshot(manifests);

      const pull = await runBuilt(['pull', manifests, ...targets], { env });
      expect(pull.code, pull.stderr).toBe(0);
      expect(pull.stdout).toMatch(
        /deals-at-risk\.yaml:4 +RecordingView "Deals at risk" +viewId: "rv_deals_at_risk" -> "rv_\w+"/,
      );
      expect(pull.stdout).toMatch(
        /pins\/olivia-park-acme-test\.yaml +pins of olivia\.park@acme\.test: recordings, deals, companies, contacts/,
      );
      const after = await snapshot(manifests);
      for (const [path, bytes] of before)
        if (path !== 'views/recordings/deals-at-risk.yaml') expect(after.get(path)?.equals(bytes), path).toBe(true);
      const plan = await runBuilt(['plan', manifests, ...targets, '--detailed-exitcode'], { env });
      expect(plan.stdout).toMatch(/^No changes\./m);
      expect(plan.code).toBe(0);
    });
  });

  it('reads for a member no document declares only what the plan did not read: their pinned lists and the listings it lacks', async () => {
    const root = await dir({});
    const manifests = join(root, 'manifests');
    await cp(EXAMPLES, manifests, { recursive: true });
    await withEmulator(async (emulator, env) => {
      expect((await runBuilt(['apply', manifests, '--auto-approve'], { env })).code).toBe(0);
      emulator.resetStats();
      // Olivia (an owner) is reached by no document; the group selects by role, so the users are read to tell.
      const pull = await runBuilt(
        ['pull', manifests, '--target', 'RecordingView/Deals at risk', '--target', 'pins/olivia.park@acme.test'],
        { env },
      );
      expect(pull.code, pull.stderr).toBe(0);
      expect(pull.stdout).toMatch(
        /pins\/olivia-park-acme-test\.yaml +pins of olivia\.park@acme\.test: recordings, deals, companies, contacts/,
      );
      // The plan read the workspace and the recordings listing, the check the users: each once. Her tabs of the
      // three other domains are named through their listings; nothing needs the automations.
      expect(emulator.stats().byEndpoint).toEqual({
        'GET /v1/workspaces/mine': 1,
        'GET /v1/users': 1,
        'GET /v1/recordings/views': 1,
        'GET /v1/deals/views': 1,
        'GET /v1/companies/views': 1,
        'GET /v1/contacts/views': 1,
        'GET /v1/recordings/views/pinned': 1,
        'GET /v1/deals/views/pinned': 1,
        'GET /v1/companies/views/pinned': 1,
        'GET /v1/contacts/views/pinned': 1,
      });
      expect(emulator.stats().requests).toBe(10);
    });
  });

  it('writes nothing, and names the files, when what it would write does not load', async () => {
    const root = await dir({});
    const manifests = join(root, 'manifests');
    await cp(EXAMPLES, manifests, { recursive: true });
    await withEmulator(async (emulator, env) => {
      expect((await runBuilt(['apply', manifests, '--auto-approve'], { env })).code).toBe(0);
      // In the app, a view takes the name another document declares: two documents would declare it.
      await inApp(emulator, 'PATCH', '/recordings/views/rv_competitor_mentions', { name: 'Team calls', icon: 'fire' });
      const before = await snapshot(manifests);
      const pull = await runBuilt(['pull', manifests, '--target', 'RecordingView/Competitor mentions'], { env });
      expect(pull.code).toBe(1);
      expect(pull.stderr).toMatch(
        /error\[pull\.invalid-result\]: pulling would make .*competitor-mentions\.yaml, .*team-calls\.yaml invalid, so nothing was written/,
      );
      expect(pull.stderr).toContain('view.duplicate-name');
      const after = await snapshot(manifests);
      expect([...after.keys()]).toEqual([...before.keys()]);
      for (const [path, bytes] of before) expect(after.get(path)?.equals(bytes), path).toBe(true);
    });
  });

  it("keeps the app's version through days of churn: after each day's pull, apply writes nothing and no one's change is lost", async () => {
    const root = await dir({});
    const manifests = join(root, 'manifests');
    await cp(EXAMPLES, manifests, { recursive: true });
    // The emulator's clock moves a day at a time (its daily quota and relative filters follow it).
    let now = Date.parse('2026-03-02T08:00:00Z');
    await withEmulator(
      async (emulator, env) => {
        expect((await runBuilt(['apply', manifests, '--auto-approve'], { env })).code).toBe(0);
        const days: { change: () => Promise<void>; targets: string[] }[] = [
          // Day 1: an admin renames a view and narrows its sources; Noah moves his deal tabs.
          {
            change: async () => {
              await inApp(emulator, 'PATCH', '/recordings/views/rv_video_meetings', {
                name: 'Video calls',
                filters: { sourceIn: ['Zoom'] },
              });
              await inApp(emulator, 'PUT', '/deals/views/pinned?userEmail=noah.patel@acme.test', {
                viewIds: ['dv_pipeline_review', 'dv_noah_focus'],
              });
            },
            targets: ['--target', 'pins/noah.patel@acme.test'],
          },
          // Day 2: Mia, reached by the members' group, swaps her company tabs; Adam drops a tab.
          {
            change: async () => {
              await inApp(emulator, 'PUT', '/companies/views/pinned?userEmail=mia.chen@acme.test', {
                viewIds: ['cv_default_active', 'cv_default_all'],
              });
              await inApp(emulator, 'PUT', '/recordings/views/pinned?userEmail=adam.reyes@acme.test', {
                viewIds: ['rv_customer_calls'],
              });
            },
            targets: ['--target', 'pins/mia.chen@acme.test', '--target', 'pins/adam.reyes@acme.test'],
          },
          // Day 3: the view renamed on day 1 is edited again, under its new name.
          {
            change: async () =>
              inApp(emulator, 'PATCH', '/recordings/views/rv_video_meetings', { icon: 'movie_camera' }),
            targets: ['--target', 'RecordingView/Video calls'],
          },
        ];
        for (const [index, day] of days.entries()) {
          now += 24 * 3600 * 1000;
          await day.change();
          const targets = index === 0 ? ['--target', 'RecordingView/Zoom and Meet calls', ...day.targets] : day.targets;
          const pull = await runBuilt(['pull', manifests, ...targets], { env });
          expect(pull.code, `day ${index + 1}: ${pull.stderr}`).toBe(0);
          expect(pull.stdout, `day ${index + 1}`).toMatch(/^(written in place|added), /m);
          // Whatever the day changed in the app is now what the manifests say: an apply of the whole folder writes nothing of it.
          const plan = await runBuilt(['plan', manifests, '--format', 'json'], { env });
          expect(plan.code, plan.stderr).toBe(0);
          const changes = (JSON.parse(plan.stdout) as { changes: { action: string }[] }).changes.filter(
            (change) => change.action !== 'drift',
          );
          expect(changes, `day ${index + 1}`).toEqual([]);
        }
        const mia = await readFile(join(manifests, 'pins/mia-chen-acme-test.yaml'), 'utf8');
        expect(mia).toMatch(/companies:\n  - Companies with interactions\n  - All companies\n/);
        expect(await readFile(join(manifests, 'views/recordings/zoom-and-meet-calls.yaml'), 'utf8')).toMatch(
          /name: Video calls\n/,
        );
      },
      { now: () => now },
    );
  });
});
