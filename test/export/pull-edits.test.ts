import { describe, expect, it } from 'vitest';
import type { ApiView } from '../../src/domain/api-types.js';
import { declaredTargets } from '../../src/export/declared-targets.js';
import { pullPlan, type PullInput, type PullPlan } from '../../src/export/pull-edits.js';
import { spliceEdits } from '../../src/export/pull-files.js';
import { toDesired } from '../../src/manifest/desired.js';
import { loadManifests, memoryManifestSource } from '../../src/manifest/load.js';
import type { ManifestDocument } from '../../src/manifest/types.js';
import { computePlan } from '../../src/plan/diff.js';
import { pinsKey, type Live } from '../../src/state/types.js';
import { defaultView, user, view } from './fixture.js';

const WORKSPACE = 'kind: Workspace\nprune: false\n';

async function load(files: Record<string, string>): Promise<ManifestDocument[]> {
  const { documents, problems } = await loadManifests(['.'], memoryManifestSource(files));
  expect(problems.filter((problem) => problem.severity === 'error')).toEqual([]);
  return documents;
}

function liveOf(views: ApiView[], pins: Record<string, ApiView[]> = {}): Live {
  return {
    workspace: { id: 'ws_1', name: 'Acme', createdAt: '2026-01-01T00:00:00Z', membersCount: 2, recordingsCount: 0 },
    views: { recordings: views },
    pins,
    users: [user('u_ana', 'ana@acme.test', 'Ana')],
    requests: { used: 0, dailyRemaining: null },
  };
}

/** pull runs pull's pure halves on in-memory files: the plan, what to write, the spliced texts. */
async function pull(
  files: Record<string, string>,
  live: Live,
): Promise<{ pulled: PullPlan; texts: Map<string, string>; after: Record<string, string> }> {
  const documents = await load(files);
  const desired = toDesired(documents);
  const { plan } = computePlan(desired, live);
  const pulled = pullPlan({
    changes: plan.changes,
    held: plan.held ?? [],
    live,
    documents,
    views: desired.views,
    declared: declaredTargets(documents),
  });
  const spliced = spliceEdits(pulled.edits, new Map(Object.entries(files)));
  return { pulled, texts: spliced.texts, after: { ...files, ...Object.fromEntries(spliced.texts) } };
}

/** inSync plans the files again against the same live state: pull's result must plan no change. */
async function inSync(files: Record<string, string>, live: Live): Promise<void> {
  const documents = await load(files);
  expect(
    computePlan(toDesired(documents), live).plan.changes.map((change) => `${change.action} ${change.name}`),
  ).toEqual([]);
}

const CALLS = [
  'kind: RecordingView',
  "name: Customer calls   # the team's name for it",
  'viewId: rv_1',
  'filters:',
  '  # phone only',
  '  sourceIn: [Zoom, Call]',
  '  createdAfterRelative: 30',
  '',
].join('\n');

describe('what pull writes into a view document', () => {
  it('splices the changed attributes a document writes, and adds none it leaves unmanaged', async () => {
    const live = liveOf([
      view('rv_1', 'Team calls', { icon: 'phone', filters: { sourceIn: ['Call', 'Zoom'], createdAfterRelative: 60 } }),
      defaultView('rv_d', 'All recordings'),
    ]);
    const files = { 'workspace.yaml': WORKSPACE, 'calls.yaml': CALLS };
    const { texts, after } = await pull(files, live);
    // icon is not in the document: it stays unmanaged; the set in another order stays as written.
    expect(texts.get('calls.yaml')).toBe(
      CALLS.replace('name: Customer calls', 'name: Team calls').replace(
        'createdAfterRelative: 30',
        'createdAfterRelative: 60',
      ),
    );
    expect([...texts.keys()]).toEqual(['calls.yaml']);
    await inSync(after, live);
  });

  it('renames the tabs that name a renamed view, in every pins document, groups too', async () => {
    const live = liveOf(
      [
        view('rv_1', 'Team calls', { filters: { sourceIn: ['Call', 'Zoom'], createdAfterRelative: 30 } }),
        defaultView('rv_d', 'All recordings'),
      ],
      {
        [pinsKey('recordings', 'ana@acme.test')]: [view('rv_1', 'Team calls'), defaultView('rv_d', 'All recordings')],
      },
    );
    const pins =
      "kind: PinnedViews\nuserEmail: ana@acme.test\nrecordings: [Customer calls, All recordings]  # Ana's order\n";
    const group =
      'kind: PinnedViews\nname: Sales\nusers: ["*@sales.acme.test"]\nrecordings:\n  - All recordings\n  - Customer calls\n';
    const files = { 'workspace.yaml': WORKSPACE, 'calls.yaml': CALLS, 'pins/ana.yaml': pins, 'pins/sales.yaml': group };
    const { texts, after } = await pull(files, live);
    expect(texts.get('pins/ana.yaml')).toBe(pins.replace('[Customer calls,', '[Team calls,'));
    expect(texts.get('pins/sales.yaml')).toBe(group.replace('  - Customer calls', '  - Team calls'));
    await inSync(
      {
        'workspace.yaml': WORKSPACE,
        'calls.yaml': after['calls.yaml'] ?? '',
        'pins/ana.yaml': after['pins/ana.yaml'] ?? '',
      },
      live,
    );
  });

  it('rewrites a stale viewId to the one live view of its name that replaced it, with its attributes', async () => {
    const live = liveOf([view('rv_9', 'Customer calls', { filters: { sourceIn: ['Call'] } })]);
    const files = { 'workspace.yaml': WORKSPACE, 'calls.yaml': CALLS };
    const { pulled, texts, after } = await pull(files, live);
    expect(pulled.notPulled).toEqual([]);
    expect(texts.get('calls.yaml')).toBe(
      CALLS.replace('viewId: rv_1', 'viewId: rv_9').replace(
        '  sourceIn: [Zoom, Call]\n  createdAfterRelative: 30\n',
        '  sourceIn: [Call]\n',
      ),
    );
    await inSync(after, live);
  });

  it('leaves a stale viewId no single live view replaces, saying why', async () => {
    const live = liveOf([view('rv_8', 'Customer calls'), view('rv_9', 'Customer calls')]);
    const { pulled, texts } = await pull({ 'workspace.yaml': WORKSPACE, 'calls.yaml': CALLS }, live);
    expect(texts.size).toBe(0);
    expect(pulled.notPulled.map((entry) => entry.reason)).toEqual([
      expect.stringMatching(/no longer has rv_1, and 2 unbound live public views named "Customer calls" replace it/),
    ]);
  });

  it('lists a create as nothing to pull, and keeps a view prune would delete as a new document', async () => {
    const live = liveOf([view('rv_5', 'Made in the app')]);
    const files = {
      'workspace.yaml': 'kind: Workspace\nprune: true\ncreatorEmail: ana@acme.test\n',
      'new.yaml': 'kind: RecordingView\nname: Brand new\n',
    };
    const { pulled, texts } = await pull(files, live);
    expect(texts.size).toBe(0);
    expect(pulled.notPulled).toEqual([
      expect.objectContaining({
        target: 'RecordingView "Brand new"',
        reason: expect.stringMatching(
          /no live view has this name \(apply creates it\); a view renamed in the app is found only through the viewId/,
        ),
      }),
    ]);
    expect(pulled.added.views.map(({ view: added }) => added.viewId)).toEqual(['rv_5']);
  });
});

describe('what pull writes into a pinned list', () => {
  const shared = [view('rv_1', 'Customer calls'), view('rv_2', 'Deals at risk'), defaultView('rv_d', 'All recordings')];
  const privateTab = view('rv_p', "Ana's own", { visibility: 'Private' });

  it("writes the member's live order into their own document, private tabs left implicit when they lead", async () => {
    const pins =
      "# Ana's tabs\nkind: PinnedViews\nuserEmail: ana@acme.test\nrecordings:\n  - Customer calls   # first\n  - All recordings\n";
    const live = liveOf(shared, {
      [pinsKey('recordings', 'ana@acme.test')]: [
        privateTab,
        view('rv_2', 'Deals at risk'),
        view('rv_1', 'Customer calls'),
        defaultView('rv_d', 'All recordings'),
      ],
    });
    const { texts, after } = await pull({ 'workspace.yaml': WORKSPACE, 'pins/ana.yaml': pins }, live);
    // The tabs Ana kept keep their lines and comments; the new one gets a line of its own.
    expect(texts.get('pins/ana.yaml')).toBe(
      "# Ana's tabs\nkind: PinnedViews\nuserEmail: ana@acme.test\nrecordings:\n  - Deals at risk\n  - Customer calls   # first\n  - All recordings\n",
    );
    await inSync(after, live);
  });

  it('keeps a leading private tab the document lists by {viewId}: the member wrote it down, and its line and comment stay', async () => {
    const pins =
      'kind: PinnedViews\nuserEmail: ana@acme.test\nrecordings:\n  - {viewId: rv_p}   # my own, by id\n  - Customer calls\n  - Deals at risk\n';
    const live = liveOf(shared, {
      [pinsKey('recordings', 'ana@acme.test')]: [
        privateTab,
        view('rv_2', 'Deals at risk'),
        view('rv_1', 'Customer calls'),
      ],
    });
    const { texts, after } = await pull({ 'workspace.yaml': WORKSPACE, 'pins/ana.yaml': pins }, live);
    expect(texts.get('pins/ana.yaml')).toBe(
      'kind: PinnedViews\nuserEmail: ana@acme.test\nrecordings:\n  - {viewId: rv_p}   # my own, by id\n  - Deals at risk\n  - Customer calls\n',
    );
    await inSync(after, live);
  });

  it('writes a private tab by {viewId} at its place when it does not lead, or the document drops the others', async () => {
    const pins = 'kind: PinnedViews\nuserEmail: ana@acme.test\nunpinPrivate: true\nrecordings: [Customer calls]\n';
    const live = liveOf(shared, {
      [pinsKey('recordings', 'ana@acme.test')]: [privateTab, view('rv_1', 'Customer calls')],
    });
    const { texts, after } = await pull({ 'workspace.yaml': WORKSPACE, 'pins/ana.yaml': pins }, live);
    expect(texts.get('pins/ana.yaml')).toBe(
      'kind: PinnedViews\nuserEmail: ana@acme.test\nunpinPrivate: true\nrecordings: [{viewId: rv_p}, Customer calls]\n',
    );
    await inSync(after, live);
  });

  it('never edits a group document for one member: a member named by --target gets a document of their own', () => {
    const input: PullInput = {
      changes: [
        {
          action: 'pin',
          target: 'pins:recordings:ana@acme.test',
          kind: 'PinnedViews',
          name: 'ana@acme.test',
          domain: 'recordings',
          userEmail: 'ana@acme.test',
          group: 'Sales',
          before: [],
          after: [],
        },
      ],
      held: [],
      live: liveOf(shared),
      documents: [],
      views: [],
      declared: declaredTargets([]),
    };
    const named = pullPlan({ ...input, selectedMembers: new Set(['ana@acme.test']) });
    expect(named.edits).toEqual([]);
    expect(named.added.members.map(({ user: member, domains }) => [member.email, domains])).toEqual([
      ['ana@acme.test', ['recordings']],
    ]);
    // A whole pull leaves the member with the group: the difference may be a joiner the group has not reached yet.
    const whole = pullPlan(input);
    expect([whole.edits, whole.added.members]).toEqual([[], []]);
    expect(whole.notPulled.map((entry) => entry.reason)).toEqual([
      expect.stringMatching(
        /reached by the group "Sales": a whole pull never splits a member off a group; `--target pins\/ana@acme.test`/,
      ),
    ]);
  });
});

describe('what pull writes into the AdminAutomations document', () => {
  const automation = (id: string, name: string, color: string) => ({
    adminAutomationId: id,
    name,
    color,
    disallowUserOverride: true,
    filters: [],
    actions: { autoRecord: { toBeRecorded: true, onlyHosted: false } },
  });
  const document = [
    'kind: AdminAutomations',
    'automations:',
    '  - name: Record external meetings',
    "    color: red   # the team's colour",
    '    actions:',
    '      autoRecord: {onlyHosted: false, toBeRecorded: false}',
    '  - name: File internal meetings',
    '    color: green',
    '',
  ].join('\n');

  it('writes the live value of each attribute an entry writes, and leaves a changed priority to the team', async () => {
    const live = {
      ...liveOf([]),
      automations: [
        automation('aa_2', 'File internal meetings', 'green'),
        automation('aa_1', 'Record external meetings', 'blue'),
      ],
    };
    const { pulled, texts, after } = await pull({ 'workspace.yaml': WORKSPACE, 'automations.yaml': document }, live);
    expect(texts.get('automations.yaml')).toBe(
      document.replace('color: red', 'color: blue').replace('toBeRecorded: false}', 'toBeRecorded: true}'),
    );
    expect(pulled.notPulled.map((entry) => entry.reason)).toEqual([
      expect.stringMatching(/priority differs: re-order/),
    ]);
    const again = computePlan(toDesired(await load(after)), live).plan.changes;
    expect(
      again.flatMap((change) =>
        change.action === 'drift' ? change.differences.map((difference) => difference.pointer) : [],
      ),
    ).toEqual(['/priority']);
  });
});

describe('spliceEdits', () => {
  it('reports each value at its line in the file as written, whatever order the targets came in', () => {
    const text = 'kind: RecordingView\nname: A\nfilters:\n  sourceIn:\n    - Zoom\n---\nkind: RecordingView\nname: B\n';
    const edit = (target: string, index: number, path: string[], value: string | string[]) => ({
      target,
      file: 'v.yaml',
      index,
      edits: [{ path, value }],
      equal: () => false,
      at: { file: 'v.yaml', line: 1, column: 1 },
    });
    // The second document's edit first: the first document's grows by two lines above it.
    const spliced = spliceEdits(
      [
        edit('RecordingView/B', 1, ['name'], 'B2'),
        edit('RecordingView/A', 0, ['filters', 'sourceIn'], ['Zoom', 'Call', 'Meet']),
      ],
      new Map([['v.yaml', text]]),
    );
    const after = spliced.texts.get('v.yaml') ?? '';
    const lineOf = (target: string): string | undefined =>
      after.split('\n')[(spliced.written.find((value) => value.target === target)?.at.line ?? 0) - 1];
    expect(lineOf('RecordingView/B')).toBe('name: B2');
    expect(lineOf('RecordingView/A')).toBe('    - Zoom');
  });
});

describe('spliceEdits within one document', () => {
  const edit = (target: string, edits: { path: string[]; value: string[] }[]) => ({
    target,
    file: 'v.yaml',
    index: 0,
    edits,
    equal: () => false,
    at: { file: 'v.yaml', line: 1, column: 1 },
  });
  const linesOf = (spliced: ReturnType<typeof spliceEdits>): string[] => {
    const after = spliced.texts.get('v.yaml') ?? '';
    return spliced.written.map((value) => `${value.what}: ${after.split('\n')[value.at.line - 1] ?? ''}`);
  };

  it('reports a value below another of its document that grew at its line in the file as written', () => {
    const text = 'kind: RecordingView\nname: A\nfilters:\n  sourceIn:\n    - Zoom\ncolumns:\n  - title\n';
    const spliced = spliceEdits(
      [
        edit('RecordingView/A', [
          { path: ['filters', 'sourceIn'], value: ['Zoom', 'Call', 'Meet'] },
          { path: ['columns'], value: ['date'] },
        ]),
      ],
      new Map([['v.yaml', text]]),
    );
    expect(linesOf(spliced)).toEqual(['filters.sourceIn:     - Zoom', 'columns.0:   - date']);
  });

  it("moves the lines reported of one target when another target's edit of the same document splices above them", () => {
    const text = 'kind: PinnedViews\nuserEmail: a@x.test\nrecordings:\n  - One\ndeals:\n  - Two\n';
    const spliced = spliceEdits(
      [
        edit('deals', [{ path: ['deals'], value: ['Three'] }]),
        edit('recordings', [{ path: ['recordings'], value: ['One', 'Four', 'Five'] }]),
      ],
      new Map([['v.yaml', text]]),
    );
    expect(linesOf(spliced)).toEqual(['deals.0:   - Three', 'recordings:   - One']);
  });
});

describe('writeSplicedFiles', () => {
  it('writes no file when one cannot be written, and says so, naming every file not written', async () => {
    const { writeSplicedFiles } = await import('../../src/export/pull-files.js');
    const { NODE_PULL_FILE_SYSTEM } = await import('../../src/export/pull-journal.js');
    const { mkdtemp, readFile, readdir, rm, writeFile } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const root = await mkdtemp(join(tmpdir(), 'viewctl-pull-write-'));
    try {
      for (const name of ['a', 'b', 'c']) await writeFile(join(root, `${name}.yaml`), `old ${name}\n`);
      const texts = new Map([
        ['a.yaml', 'a\n'],
        ['b.yaml', 'b\n'],
        ['c.yaml', 'c\n'],
      ]);
      const fs = {
        ...NODE_PULL_FILE_SYSTEM,
        writeFile: async (path: string, text: string, mode: number): Promise<void> => {
          if (path.includes('.b.yaml.')) throw Object.assign(new Error('read-only'), { code: 'EACCES' });
          await NODE_PULL_FILE_SYSTEM.writeFile(path, text, mode);
        },
      };
      const error = await writeSplicedFiles(texts, root, { fs }).then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(error).toMatchObject({ code: 'pull.write-failed' });
      expect((error as Error).message).toBe(
        'cannot write b.yaml: EACCES; no file was written (not written: a.yaml, b.yaml, c.yaml)',
      );
      expect(await readFile(join(root, 'a.yaml'), 'utf8')).toBe('old a\n');
      expect((await readdir(root)).sort()).toEqual(['a.yaml', 'b.yaml', 'c.yaml']);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
