import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiView } from '../../src/domain/api-types.js';
import { DOMAINS } from '../../src/domain/domains.js';
import { viewTarget } from '../../src/domain/targets.js';
import { isPublicSaved } from '../../src/domain/views.js';
import { carryOut } from '../../src/apply/carry-out.js';
import { reportExitCode } from '../../src/apply/report.js';
import { prepareApply } from '../../src/flows/apply-ready.js';
import { planWorkspace } from '../../src/flows/plan-workspace.js';
import { loadDesired } from '../../src/manifest/load-desired.js';
import { nodeManifestSource } from '../../src/manifest/load.js';
import type { Plan } from '../../src/plan/types.js';
import { renderText } from '../../src/render/text.js';
import { createServiceClient } from '../../src/service/client.js';
import type { ServiceClient } from '../../src/service/types.js';
import { emptyMemory, type SweepMemory } from '../../src/state/sweep-memory.js';
import type { Live } from '../../src/state/types.js';
import { DAY_MS } from '../../src/emulator/time.js';
import { tempDirs, withEmulator } from './harness.js';

/**
 * A declared view deleted in the app, over a few simulated days against the emulator
 * with a moving clock (README, "A declared view deleted in the app"). The test keeps
 * the sweep memory file itself, as `--ledger` will: after each run it records the views
 * seen live and public and the lists read, merged with what the file held. An admin
 * deletes a view a manifest binds by `viewId`: without the memory the view and the
 * lists naming it are held; with it the view is created again and the lists pin it;
 * the next plan resolves the stale `viewId` by name, in sync, with a warning.
 */

const { dir, cleanupAll } = tempDirs();
afterEach(cleanupAll);

const FILES = {
  'workspace.yaml': 'kind: Workspace\nworkspaceId: ws_acme\ncreatorEmail: adam.reyes@acme.test\nprune: false\n',
  'views/sdr-coaching.yaml':
    'kind: RecordingView\nname: SDR coaching\nviewId: rv_sdr_coaching\nicon: mortar_board\nfilters:\n  teamIdIn: [team_sdr]\n',
  'pins/mia.yaml': 'kind: PinnedViews\nuserEmail: mia.chen@acme.test\nrecordings: [SDR coaching, All recordings]\n',
  'pins/noah.yaml':
    'kind: PinnedViews\nuserEmail: noah.patel@acme.test\nrecordings:\n  - viewId: rv_sdr_coaching\n  - All recordings\n',
};

/** remember merges what a run read into the memory file, as the ledger does: views seen live and public, lists read. */
async function remember(file: string, live: Live, at: number): Promise<void> {
  const memory = await recall(file);
  const when = new Date(at).toISOString();
  for (const domain of DOMAINS) {
    for (const view of live.views[domain] ?? [])
      if (isPublicSaved(view))
        memory.views[viewTarget(domain, view.viewId)] = { domain, id: view.viewId, name: view.name, lastSeen: when };
  }
  for (const [key, views] of Object.entries(live.pins))
    memory.lists[key] = { lastRead: when, viewIds: views.map((view) => view.viewId) };
  await writeFile(file, `${JSON.stringify(memory, null, 2)}\n`);
}

async function recall(file: string): Promise<SweepMemory> {
  return readFile(file, 'utf8').then(
    (text) => JSON.parse(text) as SweepMemory,
    () => emptyMemory(),
  );
}

describe('a declared view deleted in the app, over simulated days (issue 25)', () => {
  it('is held without memory, created again with it, and its stale viewId resolves by name the next day, in sync', async () => {
    const manifests = await dir(FILES);
    const memoryFile = join(await dir({}), 'ledger.json');
    let now = Date.parse('2026-11-20T03:00:00.000Z');
    await withEmulator(
      async (emulator, _env) => {
        const client = (): ServiceClient =>
          createServiceClient({
            baseUrl: emulator.url,
            apiKey: emulator.apiKey,
            rate: 1000,
            burst: 5,
            backoff: { baseMs: 1, capMs: 4 },
            timeoutMs: 5000,
          });
        const { desired } = await loadDesired(['.'], nodeManifestSource(manifests));
        const plan = async (memory?: SweepMemory): Promise<{ plan: Plan; live: Live }> =>
          planWorkspace(desired, client(), memory === undefined ? {} : { memory });
        const apply = async (memory: SweepMemory): Promise<Plan> => {
          const connection = client();
          const ready = await prepareApply(desired, connection, { memory, maxDeletes: 5 });
          const report = await carryOut(ready.plan, ready.operations, {
            client: connection,
            live: ready.live,
            fromPlanFile: false,
            relistDelaysMs: [1, 5, 20],
          });
          expect(reportExitCode(report)).toBe(0);
          await remember(memoryFile, ready.live, now);
          return ready.plan;
        };
        const listing = async (): Promise<ApiView[]> => {
          const response = await fetch(`${emulator.url}/v1/recordings/views`, {
            headers: { 'X-Service-Key': emulator.apiKey },
          });
          return ((await response.json()) as { result: ApiView[] }).result;
        };
        const pinned = async (email: string): Promise<string[]> => {
          const response = await fetch(
            `${emulator.url}/v1/recordings/views/pinned?userEmail=${encodeURIComponent(email)}`,
            { headers: { 'X-Service-Key': emulator.apiKey } },
          );
          return ((await response.json()) as { result: ApiView[] }).result.map((view) => view.viewId);
        };

        // Day 1: the nightly applies the manifests and the memory sees SDR coaching live and public.
        await apply(await recall(memoryFile));
        expect((await plan(await recall(memoryFile))).plan.changes).toEqual([]);
        expect(await pinned('noah.patel@acme.test')).toEqual(['rv_sdr_coaching', 'rv_default_all']);

        // Day 2: an admin deletes it in the app; the service unpins it everywhere.
        now += DAY_MS;
        const deleted = await fetch(`${emulator.url}/v1/recordings/views/rv_sdr_coaching`, {
          method: 'DELETE',
          headers: { 'X-Service-Key': emulator.apiKey },
        });
        expect(deleted.status).toBe(200);

        // Without memory: a typo, a private view and a deletion look alike, so it is held with both lists.
        const blind = (await plan()).plan;
        expect(blind.held?.map((held) => [held.target, held.code])).toEqual([
          ['pins:recordings:mia.chen@acme.test', 'pins.names-held-view'],
          ['pins:recordings:noah.patel@acme.test', 'pins.names-held-view'],
          ['view:recordings:id:rv_sdr_coaching', 'view.id-not-found'],
        ]);
        expect(blind.changes).toEqual([]);

        // With memory: deleted in the app, created again, and both lists pin it again.
        const memory = await recall(memoryFile);
        expect(memory.views['view:recordings:id:rv_sdr_coaching']).toMatchObject({
          name: 'SDR coaching',
          lastSeen: '2026-11-20T03:00:00.000Z',
        });
        const seen = (await plan(memory)).plan;
        expect(seen.held).toBeUndefined();
        expect(seen.changes.map((change) => [change.action, change.target, change.origin ?? null])).toEqual([
          ['create', 'view:recordings:name:SDR coaching', 'outside'],
          // No apply recorded yet: the lists' differences are drift the memory cannot date to an apply.
          ['pin', 'pins:recordings:mia.chen@acme.test', 'unapplied-or-outside'],
          ['pin', 'pins:recordings:noah.patel@acme.test', 'unapplied-or-outside'],
        ]);
        expect(seen.changes[0]).toMatchObject({
          deletedOutside: { id: 'rv_sdr_coaching', lastSeen: '2026-11-20T03:00:00.000Z' },
        });
        expect(renderText(seen, { color: false })).toContain(
          'deleted in the app (rv_sdr_coaching, last seen 2026-11-20): created again',
        );
        expect(seen.warnings.map((warning) => warning.code)).toEqual(['pins.id-replaced']);
        // A pull request's plan (--base, the manifests unchanged since REF) reads the lists naming the view created again.
        const scoped = await planWorkspace(desired, client(), {
          memory,
          scope: { base: { ref: 'origin/main', commit: 'a'.repeat(40), desired } },
        });
        expect(scoped.plan.scope).toMatchObject({ lists: 2, unread: 0 });
        expect(scoped.plan.changes.map((change) => change.action)).toEqual(['create', 'pin', 'pin']);
        await apply(memory);
        const created = (await listing()).filter((view) => view.name === 'SDR coaching');
        expect(created).toHaveLength(1);
        const newId = created[0]?.viewId ?? '';
        expect(newId).not.toBe('rv_sdr_coaching');
        expect(created[0]).toMatchObject({ icon: 'mortar_board', filters: { teamIdIn: ['team_sdr'] } });
        // Mia's private tab stays hers, ahead of the listed ones.
        expect(await pinned('mia.chen@acme.test')).toEqual(['rv_mia_followups', newId, 'rv_default_all']);
        expect(await pinned('noah.patel@acme.test')).toEqual([newId, 'rv_default_all']);

        // Day 3: the manifest still says rv_sdr_coaching; it resolves by name to the new view: in sync, with the fix.
        now += DAY_MS;
        const next = (await plan(await recall(memoryFile))).plan;
        expect(next.changes).toEqual([]);
        expect(next.held).toBeUndefined();
        expect(next.warnings.map((warning) => [warning.code, warning.source?.file, warning.source?.line])).toEqual([
          ['view.id-replaced', 'views/sdr-coaching.yaml', 3],
          ['pins.id-replaced', 'pins/noah.yaml', 4],
        ]);
        const text = renderText(next, { color: false });
        expect(text).toContain(
          `warning: views/sdr-coaching.yaml:3:9: RecordingView "SDR coaching" binds to rv_sdr_coaching, which was deleted in the app; it resolves by name to ${newId}, the view that replaced it: set \`viewId: ${newId}\` in views/sdr-coaching.yaml, or \`viewctl pull --target RecordingView/SDR coaching\` rewrites it`,
        );
        emulator.resetStats();
        await apply(await recall(memoryFile));
        expect(emulator.stats().writes).toBe(0);

        expect(text).toContain(
          `warning: pins/noah.yaml:4:5: rv_sdr_coaching in the recordings tabs of noah.patel@acme.test was deleted in the app: it stands for "SDR coaching" (${newId}), the view that replaced it; name it \`SDR coaching\` instead`,
        );

        // Day 4: the view's manifest takes the new id, as its warning said; Noah's old id still resolves through the memory.
        now += DAY_MS;
        await writeFile(
          join(manifests, 'views/sdr-coaching.yaml'),
          FILES['views/sdr-coaching.yaml'].replace('rv_sdr_coaching', newId),
        );
        const halfFixed = (await loadDesired(['.'], nodeManifestSource(manifests))).desired;
        const half = await planWorkspace(halfFixed, client(), { memory: await recall(memoryFile) });
        expect(half.plan.changes).toEqual([]);
        expect(half.plan.warnings.map((warning) => warning.code)).toEqual(['pins.id-replaced']);

        // Day 5: Noah's list names the view, as its warning said: in sync without the memory too, and no warning.
        now += DAY_MS;
        await writeFile(
          join(manifests, 'pins/noah.yaml'),
          FILES['pins/noah.yaml'].replace('viewId: rv_sdr_coaching', 'SDR coaching'),
        );
        const fixed = await loadDesired(['.'], nodeManifestSource(manifests));
        const settled = await planWorkspace(fixed.desired, client());
        expect(settled.plan.changes).toEqual([]);
        expect(settled.plan.held).toBeUndefined();
        expect(settled.plan.warnings).toEqual([]);
      },
      { now: () => now },
    );
  });
});
