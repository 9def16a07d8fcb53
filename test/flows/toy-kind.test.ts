import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { carryOut } from '../../src/apply/carry-out.js';
import { demoWorkspace } from '../../src/emulator/demo/demo-workspace.js';
import { exportWorkspace } from '../../src/flows/export-workspace.js';
import { planWorkspace } from '../../src/flows/plan-workspace.js';
import { connected as connectedEdge } from '../../src/flows/run-edges.js';
import { writeSchemas } from '../../src/flows/write-schemas.js';
import { parseTargetSelector } from '../../src/plan/targets-selection.js';
import { prepareSavedPlan } from '../../src/flows/saved-plan.js';
import { prepareApply } from '../../src/flows/apply-ready.js';
import { registerKind } from '../../src/kinds/kinds.js';
import { loadDesired } from '../../src/manifest/load-desired.js';
import { declaredTargets } from '../../src/export/declared-targets.js';
import { pullPlan } from '../../src/export/pull-edits.js';
import { loadManifests, memoryManifestSource } from '../../src/manifest/load.js';
import type { Desired } from '../../src/domain/desired.js';
import { planDigest, targetHash } from '../../src/plan/hash.js';
import { planSteps } from '../../src/plan/operations.js';
import type { Plan } from '../../src/plan/types.js';
import { renderReportText } from '../../src/render/apply-report.js';
import { renderJson } from '../../src/render/json.js';
import { renderMarkdown } from '../../src/render/markdown.js';
import { renderText } from '../../src/render/text.js';
import type { ServiceClient } from '../../src/service/types.js';
import { memoryService } from '../hardening/memory-service.js';
import { NOTES, notesService } from './toy-kind.js';

/**
 * A kind defined in the tests (test/flows/toy-kind.ts: the workspace's notes), registered
 * and run through the flows the CLI calls, against the emulator's routes in memory with
 * notes served beside them: its `Notes` documents loaded from YAML, planned, rendered as
 * text and markdown, saved, refused by `--max-deletes`, applied and reported, converged.
 * Nothing in src/ names it; the manifest kind, the desired state, the plan schema, the
 * summary, the order, the phases, the reads, the stale check, the rule re-checks, the
 * verification, the marks and counts of its actions all come from its answers.
 */

let unregister: () => void = () => undefined;
beforeAll(() => {
  unregister = registerKind(NOTES);
});
afterAll(() => unregister());

/** manifests are a Workspace document, a view and the notes "Kept" and "New", as files. */
function manifests(creator: string | undefined): Record<string, string> {
  return {
    'workspace.yaml': `kind: Workspace\n${creator === undefined ? '' : `creatorEmail: ${creator}\n`}`,
    'views/toy-calls.yaml': 'kind: RecordingView\nname: Toy calls\n',
    'notes.yaml': 'kind: Notes\nnotes:\n  - Kept\n  - New\n',
  };
}

/** workspace is the demo workspace with the notes "Old" and "Kept" beside it, and the manifests loaded from YAML. */
async function workspace(): Promise<{ service: ReturnType<typeof notesService>; desired: Desired }> {
  const data = demoWorkspace();
  const service = notesService(memoryService(data).client, [
    { id: 'note_1', title: 'Old' },
    { id: 'note_2', title: 'Kept' },
  ]);
  const creator = data.users.find((user) => user.state === 'Active')?.email;
  const { desired } = await loadDesired(['.'], memoryManifestSource(manifests(creator)));
  return { service, desired };
}

const connected = (client: ServiceClient) => async (): Promise<ServiceClient> => client;

describe('a kind registered by a test', () => {
  it('declares its manifest kind: its documents are validated against its schema and make its slice of the desired state', async () => {
    const { desired } = await workspace();
    expect(desired.slices?.notes).toEqual([
      { title: 'Kept', source: { file: 'notes.yaml', line: 3, column: 5 } },
      { title: 'New', source: { file: 'notes.yaml', line: 4, column: 5 } },
    ]);
    const { problems } = await loadManifests(
      ['.'],
      memoryManifestSource({ 'notes.yaml': 'kind: Notes\nnotes:\n  - 7\n', 'typo.yaml': 'kind: Note\n' }),
    );
    expect(problems.map((problem) => [problem.code, `${problem.file}:${problem.line}:${problem.column}`])).toEqual([
      ['schema.type', 'notes.yaml:3:5'],
      ['manifest.unknown-kind', 'typo.yaml:1:7'],
    ]);
    expect(problems[1]?.message).toMatch(/expected one of .*AdminAutomations, Notes$/);
  });

  it('is loaded, planned, rendered, saved, refused by --max-deletes, applied and reported like a built-in kind, and the next plan is empty', async () => {
    const { service, desired } = await workspace();
    const { plan } = await planWorkspace(desired, service.client);
    expect(plan.changes.map((change) => [change.action, change.name])).toEqual([
      ['create', 'Toy calls'],
      ['add-note', 'New'],
      ['drop-note', 'Old'],
    ]);
    expect(plan.summary).toEqual({ create: 1, update: 0, delete: 0, pin: 0, drift: 0, 'add-note': 1, 'drop-note': 1 });
    // Its steps run in its phases: adds after the creates (15 > 10), drops after everything (50).
    expect(plan.steps.map((step) => `${step.method} ${step.route}`)).toEqual([
      'POST /v1/recordings/views',
      'POST /v1/notes',
      'DELETE /v1/notes/{noteId}',
    ]);
    expect(
      Object.keys(plan.liveHashes)
        .filter((target) => target.startsWith('note:'))
        .sort(),
    ).toEqual(['note:New', 'note:Old']);

    // Rendered as its actions' traits say: an add is marked and counted as a create, a drop as a deletion.
    const text = renderText(plan, { color: false, maxDeletes: 0 });
    expect(text).toMatch(/^ {2}\+ add {5}Note +"New" +notes\.yaml:4$/m);
    expect(text).toMatch(/^ {2}- drop {4}Note +"Old" \(note_1\)$/m);
    expect(text).toContain('- Note "Old" (note_1)\n    now:   {"id":"note_1","title":"Old"}\n    after: null\n');
    expect(text).toContain('Apply will refuse this plan: it deletes 1 targets, more than --max-deletes 0 allows.');
    expect(text).toContain('Plan: 2 to create, 0 to update, 1 to delete, 0 pin lists,');
    const markdown = renderMarkdown(plan, { color: false, maxDeletes: 0 });
    expect(markdown).toContain('| ➕ | Note | New | `notes.yaml:4` |');
    expect(markdown).toContain('| 🗑️ | Note | Old (note\\_1) |  |');
    expect(markdown).toContain('<details><summary>🗑️ Old (note\\_1)</summary>');
    expect(markdown).toContain('**2 creates · 0 updates · 1 delete · 0 pin lists');

    // Pull writes only the built-in documents: the toy's changes are said to be left, never skipped silently.
    const documents = (await loadManifests(['.'], memoryManifestSource(manifests(plan.creatorEmail)))).documents;
    const pulled = pullPlan({
      changes: plan.changes,
      held: [],
      live: { views: {}, pins: {} },
      documents,
      views: [],
      declared: declaredTargets(documents),
    });
    expect(pulled.notPulled.filter((entry) => entry.target.startsWith('note:'))).toEqual([
      {
        target: 'note:New',
        reason: 'pull writes views, pinned lists and automations only: this Note is left as the manifests say',
        source: { file: 'notes.yaml', line: 4, column: 5 },
      },
      {
        target: 'note:Old',
        reason: 'pull writes views, pinned lists and automations only: this Note is left as the manifests say',
      },
    ]);

    // Saved, its drop is a deletion --max-deletes counts: 0 refuses the plan before any write.
    const saved = { name: 'plan.json', text: renderJson(plan) };
    await expect(prepareSavedPlan(saved, connected(service.client), { maxDeletes: 0 })).rejects.toMatchObject({
      code: 'apply.max-deletes',
      message: expect.stringContaining(
        'the plan deletes 1 targets, more than --max-deletes 0 allows; nothing was written:\n  Note "Old"',
      ),
    });
    expect(service.notes().map((note) => note.title)).toEqual(['Old', 'Kept']);
    const ready = await prepareSavedPlan(saved, connected(service.client), { maxDeletes: 1 });
    expect(ready.operations.map((operation) => [operation.action, operation.phase])).toEqual([
      ['create', 10],
      ['add-note', 15],
      ['drop-note', 50],
    ]);
    // The saved plan re-read the notes, as the kind's reads say, into the kind's key of Live.
    expect(ready.live.notes).toEqual([
      { id: 'note_1', title: 'Old' },
      { id: 'note_2', title: 'Kept' },
    ]);

    const report = await carryOut(ready.plan, ready.operations, {
      client: service.client,
      live: ready.live,
      fromPlanFile: true,
      relistDelaysMs: [],
    });
    expect(report.status).toBe('applied');
    expect(report.landed.map((entry) => [entry.action, entry.name])).toEqual([
      ['create', 'Toy calls'],
      ['add-note', 'New'],
      ['drop-note', 'Old'],
    ]);
    // Counted as its actions are: the add a create, the drop a deletion.
    expect(report.counts).toEqual({ created: 2, updated: 0, pinned: 0, deleted: 1 });
    expect(renderReportText({ ...report, elapsedMs: 0 }, { color: false })).toBe(
      `Applied: 2 created, 0 updated, 0 pin lists, 1 deleted (${report.requests} requests in 0.0 s).\n`,
    );
    expect(report.verification?.problems).toEqual([]);
    expect(
      service
        .notes()
        .map((note) => note.title)
        .sort(),
    ).toEqual(['Kept', 'New']);
    expect((await planWorkspace(desired, service.client)).plan.changes).toEqual([]);
  });

  it('is selected by --target Note/TITLE: only that note is read and planned, the view and the other notes left alone', async () => {
    const { service, desired } = await workspace();
    const { plan } = await planWorkspace(desired, service.client, { targets: [parseTargetSelector('Note/New')] });
    expect(plan.changes.map((change) => [change.action, change.name])).toEqual([['add-note', 'New']]);
    // A title no Notes document lists is refused before any read, with the nearest one.
    await expect(
      planWorkspace(desired, service.client, { targets: [parseTargetSelector('Note/Nwe')] }),
    ).rejects.toMatchObject({
      code: 'target.unknown',
      message: expect.stringContaining('Note/Nwe (did you mean "Note/New"?)'),
    });
    // Its KIND is one of the accepted forms, named in the refusal of a near miss.
    expect(() => parseTargetSelector('Notes/New')).toThrow(/did you mean "Note\/New"\?/);
  });

  it('is listed by viewctl schemas, and said by export to be not exported, since it has no export capability', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'viewctl-toy-kind-'));
    try {
      const { written } = await writeSchemas('schemas', dir);
      const files = await readdir(join(dir, 'schemas'));
      expect(files).toContain('notes.schema.json');
      expect(written).toBe(files.length);
      const schema = JSON.parse(await readFile(join(dir, 'schemas', 'notes.schema.json'), 'utf8')) as {
        title: string;
        properties: { kind: unknown };
      };
      expect(schema.title).toBe('Notes');
      expect(schema.properties.kind).toEqual({ const: 'Notes' });

      const { service } = await workspace();
      const outcome = await exportWorkspace(
        { out: 'exported', reserve: 0, rate: 1000 },
        { cwd: dir, connect: connectedEdge(service.client) },
      );
      expect(outcome.notes).toContain('kind Notes: not exported (no export capability)');
      expect((await readdir(join(dir, 'exported'))).filter((name) => name.includes('note'))).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('is repaired by self-heal as it says: its adds carried out and reported in its words, its drops left for a reviewed apply', async () => {
    const { service, desired } = await workspace();
    const head = { commit: 'c'.repeat(40), clean: true };
    const memory = {
      formatVersion: 1 as const,
      lists: {},
      views: {},
      members: {},
      lastApplied: { commit: head.commit, at: '2026-11-20T02:00:00Z' },
    };
    const ready = await prepareApply(desired, service.client, {
      maxDeletes: 0,
      memory,
      scope: { budget: 100, reserve: 0 },
      repair: true,
    });
    expect(ready.operations.map((operation) => [operation.action, operation.name])).toEqual([
      ['create', 'Toy calls'],
      ['add-note', 'New'],
    ]);
    const report = await carryOut(ready.plan, ready.operations, {
      client: service.client,
      live: ready.live,
      fromPlanFile: false,
      relistDelaysMs: [],
      ...(ready.repair === undefined ? {} : { repair: ready.repair }),
    });
    expect(report.status).toBe('applied');
    expect(report.repair?.repaired.map((group) => `${group.count} ${group.what}`)).toEqual([
      '1 view re-created',
      '1 note added',
    ]);
    expect(report.repair?.leftForReview).toEqual([{ what: 'note dropped', count: 1, names: ['Old'] }]);
    expect(
      service
        .notes()
        .map((note) => note.title)
        .sort(),
    ).toEqual(['Kept', 'New', 'Old']);
  });

  it('is stale-checked by its hash and re-checked by its rules when its notes change after the plan', async () => {
    const { service, desired } = await workspace();
    const { plan } = await planWorkspace(desired, service.client);
    // "Old" dropped and made again in the app after the plan: its target hashes
    // differently now, and it is not as the plan leaves it (gone) either: held. The kind
    // says nothing of what its changes depend on, so its add is held with it (the
    // default); the view's create does not depend on it and is carried out.
    await service.client.request({ method: 'DELETE', route: '/v1/notes/{noteId}', params: { noteId: 'note_1' } });
    await service.client.request({ method: 'POST', route: '/v1/notes', body: { title: 'Old' } });
    const ready = await prepareSavedPlan({ name: 'plan.json', text: renderJson(plan) }, connected(service.client), {
      maxDeletes: 0,
    });
    expect(ready.held?.map((entry) => [entry.code, entry.change])).toEqual([
      ['apply.held-dependent', 'add-note Note "New"'],
      ['apply.stale-target', 'drop-note Note "Old" (note_1)'],
    ]);
    expect(ready.operations.map((operation) => [operation.action, operation.name])).toEqual([['create', 'Toy calls']]);
    // A forged drop of a note that does not exist breaks its rule, though its hash was forged too.
    const forged = structuredClone(plan);
    const drop = forged.changes.find((change) => (change.action as string) === 'drop-note') as unknown as {
      id: string;
      before: { id: string };
    };
    drop.id = 'note_9';
    drop.before.id = 'note_9';
    forged.steps = planSteps(forged);
    const { live: now } = await planWorkspace(desired, service.client);
    forged.liveHashes['note:Old'] = targetHash('note:Old', now);
    await expect(
      prepareSavedPlan({ name: 'plan.json', text: withDigest(forged) }, connected(service.client), { maxDeletes: 0 }),
    ).rejects.toMatchObject({ code: 'plan.unsafe', message: expect.stringContaining('the note to drop is gone') });
  });

  it('gives the plan schema the shape of its changes: a malformed one is refused, and unregistered its action is no action', async () => {
    const { service, desired } = await workspace();
    const { plan } = await planWorkspace(desired, service.client);
    const malformed = structuredClone(plan);
    const add = malformed.changes.find((change) => (change.action as string) === 'add-note') as unknown as {
      after: unknown;
    };
    add.after = { heading: 'New' };
    await expect(
      prepareSavedPlan({ name: 'plan.json', text: withDigest(malformed) }, connected(service.client), {
        maxDeletes: 0,
      }),
    ).rejects.toMatchObject({ code: 'plan.invalid', message: expect.stringContaining('needs "title"') });
    unregister();
    try {
      await expect(
        prepareSavedPlan({ name: 'plan.json', text: renderJson(plan) }, connected(service.client), { maxDeletes: 0 }),
      ).rejects.toMatchObject({
        code: 'plan.invalid',
        message: expect.stringContaining('/changes/1/action: must be one of'),
      });
    } finally {
      unregister = registerKind(NOTES);
    }
  });
});

/** withDigest is the plan's JSON with its digest recomputed, as anyone editing a plan file can. */
function withDigest(plan: Plan): string {
  return renderJson({ ...plan, digest: planDigest(plan) });
}
