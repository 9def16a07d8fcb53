import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { declaredTargets, pinCoverage, type DeclaredView } from '../../src/export/declared-targets.js';
import { mergeFiles, nameClash } from '../../src/export/merge-files.js';
import { pinDocumentMatcher } from '../../src/export/pin-coverage.js';
import { takenPaths, writeNewFiles } from '../../src/export/write-files.js';
import { loadManifests, memoryManifestSource } from '../../src/manifest/load.js';
import { defaultView, smallWorkspace, view } from './fixture.js';
import { FAST_LIMITS, runExport } from './helpers.js';
import { demoWorkspace } from '../../src/emulator/demo/demo-workspace.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/server.js';

const at = (file: string, line = 1) => ({ file, line, column: 1 });

async function declaredIn(files: Record<string, string>) {
  // Group documents may not fit today's schema; what they declare is read all the same.
  const { documents } = await loadManifests(['.'], memoryManifestSource(files));
  return declaredTargets(documents);
}

describe('which members a PinnedViews document targets', () => {
  const ana = { email: 'Ana@Sales.Acme.test', role: 'Member' };
  const olivia = { email: 'olivia@acme.test', role: 'Owner' };

  it('takes the userEmail member, case-insensitively', () => {
    const matches = pinDocumentMatcher({ userEmail: 'ana@sales.acme.test', users: [], roles: [] });
    expect([matches(ana), matches(olivia)]).toEqual([true, false]);
  });

  it("takes a group's listed emails and globs case-insensitively, and its roles", () => {
    expect(pinDocumentMatcher({ users: ['ANA@sales.acme.test'], roles: [] })(ana)).toBe(true);
    expect(pinDocumentMatcher({ users: ['*@sales.acme.TEST'], roles: [] })(ana)).toBe(true);
    expect(pinDocumentMatcher({ users: ['*@sales.acme.test'], roles: [] })(olivia)).toBe(false);
    expect(pinDocumentMatcher({ users: [], roles: ['Owner'] })(olivia)).toBe(true);
    expect(pinDocumentMatcher({ users: [], roles: ['Owner'] })(ana)).toBe(false);
  });

  it('compares an entry that is no valid glob as a plain email', () => {
    const matches = pinDocumentMatcher({ users: ['odd\\'], roles: [] });
    expect([matches({ email: 'ODD\\', role: 'Member' }), matches(ana)]).toEqual([true, false]);
  });
});

describe('what a manifests folder declares', () => {
  it('reads views, workspace, automations and per-member and group pin documents', async () => {
    const declared = await declaredIn({
      'a.yaml': 'kind: RecordingView\nname: Team calls\nviewId: rv_1\n---\nkind: DealView\nname: Pipeline\n',
      'w.yaml': 'kind: Workspace\nprune: true\n---\nkind: AdminAutomations\nautomations: []\n',
      'pins.yaml': [
        'kind: PinnedViews\nuserEmail: Mia@acme.test\nrecordings: [All recordings]\n---',
        'kind: PinnedViews\nname: Sales\nusers: ["*@sales.acme.test"]\nroles: [Admin]\ndeals: [Pipeline]\ncontacts: [All contacts]\n',
      ].join('\n'),
    });
    expect(declared.views).toEqual([
      { domain: 'recordings', name: 'Team calls', viewId: 'rv_1', source: at('a.yaml') },
      { domain: 'deals', name: 'Pipeline', source: expect.objectContaining({ file: 'a.yaml' }) },
    ]);
    expect(declared.workspace?.file).toBe('w.yaml');
    expect(declared.automations?.file).toBe('w.yaml');
    expect(declared.pins.map(({ source, ...rest }) => rest)).toEqual([
      { userEmail: 'Mia@acme.test', users: [], roles: [], domains: ['recordings'] },
      { name: 'Sales', users: ['*@sales.acme.test'], roles: ['Admin'], domains: ['deals', 'contacts'] },
    ]);
  });

  it('covers a member per domain, the userEmail document ahead of a group', async () => {
    const declared = await declaredIn({
      'group.yaml': 'kind: PinnedViews\nname: All\nroles: [Member]\nrecordings: [All recordings]\ndeals: [All deals]\n',
      'mia.yaml': 'kind: PinnedViews\nuserEmail: mia@acme.test\nrecordings: [All recordings]\n',
    });
    const covered = pinCoverage(declared)({ email: 'MIA@acme.test', role: 'Member' });
    expect(Object.fromEntries([...covered].map(([domain, document]) => [domain, document.source.file]))).toEqual({
      recordings: 'mia.yaml',
      deals: 'group.yaml',
    });
    expect(pinCoverage(declared)({ email: 'olivia@acme.test', role: 'Owner' }).size).toBe(0);
  });
});

describe('the documents a merge adds', () => {
  it('writes only undeclared targets, in paths no entry takes, and lists what it skipped with where it is declared', async () => {
    const input = smallWorkspace();
    const declared = await declaredIn({
      'm/recordings/customer-calls.yaml': 'kind: RecordingView\nname: Team calls\nviewId: rv_1\n',
      'm/deals/pipeline.yaml': 'kind: DealView\nname: Pipeline\n',
      'm/automations.yaml': 'kind: AdminAutomations\nautomations: []\n',
      'm/pins/sales.yaml': 'kind: PinnedViews\nname: Sales\nusers: ["*@ACME.test"]\ndeals: [All deals]\n',
    });
    const result = mergeFiles({
      ...input,
      declared,
      schemas: new Map([
        ['a.schema.json', '{}'],
        ['b.schema.json', '{}'],
      ]),
      taken: ['deals/PIPELINE.yaml', 'deals/pipeline-2.yaml', '.viewctl/schemas/a.schema.json', 'pins/sales.yaml'],
      folder: 'm',
    });
    expect(Object.keys(result.files)).toEqual([
      '.viewctl/schemas/b.schema.json',
      'deals/pipeline-3.yaml',
      'pins/mia-acme-test.yaml',
      'workspace.yaml',
    ]);
    expect(result.written.map((file) => file.target)).toEqual([
      'DealView "Pipeline!" (dv_2)',
      'pins of mia@acme.test: recordings, contacts',
      'Workspace "Acme" (ws_1)',
    ]);
    expect(result.skipped).toEqual([
      { target: 'RecordingView "Customer calls" (rv_1)', declaredAt: at('m/recordings/customer-calls.yaml') },
      { target: 'DealView "Pipeline" (dv_1)', declaredAt: at('m/deals/pipeline.yaml') },
      { target: 'AdminAutomations', declaredAt: at('m/automations.yaml') },
      { target: 'pins of mia@acme.test: deals (group "Sales")', declaredAt: at('m/pins/sales.yaml') },
    ]);
    expect(result.notes).toContain('mia@acme.test has no pinned companies views today: left unmanaged');

    const pins = result.files['pins/mia-acme-test.yaml'] ?? '';
    // The folder renames rv_1: its live name would not resolve to it after apply. Paths in comments are within the folder.
    expect(pins).toContain(
      '- {viewId: rv_1} # "Customer calls": renamed to "Team calls" in recordings/customer-calls.yaml:1',
    );
    expect(pins).toContain('- All recordings');
    expect(pins).not.toMatch(/^deals:/m);
    expect(pins).toContain('# Other domains of this member are managed elsewhere: deals in pins/sales.yaml:1.');
    expect(result.files['deals/pipeline-3.yaml']?.split('\n')[0]).toBe(
      '# yaml-language-server: $schema=../.viewctl/schemas/deal-view.schema.json',
    );
  });

  it('writes nothing for a member whose every list is declared, and everything for a folder that declares nothing', async () => {
    const input = smallWorkspace();
    const covered = mergeFiles({
      ...input,
      declared: await declaredIn({
        'all.yaml':
          'kind: PinnedViews\nusers: ["mia@acme.test"]\nrecordings: [a]\ndeals: [a]\ncompanies: [a]\ncontacts: [a]\n',
      }),
      taken: [],
      folder: '.',
    });
    expect(Object.keys(covered.files).some((path) => path.startsWith('pins/'))).toBe(false);
    const empty = mergeFiles({ ...input, declared: { views: [], pins: [], ignore: [] }, taken: [], folder: '.' });
    expect(Object.keys(empty.files)).toEqual([
      'automations.yaml',
      'deals/pipeline-dv-1.yaml',
      'deals/pipeline-dv-2.yaml',
      'pins/mia-acme-test.yaml',
      'recordings/customer-calls.yaml',
      'workspace.yaml',
    ]);
    expect(empty.skipped).toEqual([]);
  });

  it('leaves out the views the Workspace ignores: they are unmanaged on purpose', async () => {
    const result = mergeFiles({
      ...smallWorkspace(),
      declared: await declaredIn({ 'workspace.yaml': 'kind: Workspace\nprune: true\nignore: ["Pipeline?"]\n' }),
      taken: [],
      folder: '.',
    });
    expect(Object.keys(result.files).filter((path) => path.startsWith('deals/'))).toEqual(['deals/pipeline.yaml']);
    expect(result.skipped).toContainEqual({
      target: 'DealView "Pipeline!" (dv_2), ignored ("Pipeline?")',
      declaredAt: at('workspace.yaml'),
    });
  });

  it('pins by viewId a tab whose name the manifests give to another view', () => {
    const declared = (name: string, viewId?: string): DeclaredView => ({
      domain: 'deals',
      name,
      ...(viewId === undefined ? {} : { viewId }),
      source: at('d.yaml', 3),
    });
    const allDeals = defaultView('dv_d1', 'All deals');
    const pipeline = view('dv_1', 'Pipeline');
    expect(nameClash([declared('All deals', 'dv_9')], allDeals)).toBe(
      'the name is declared for another view in d.yaml:3',
    );
    expect(nameClash([declared('All deals')], allDeals)).toBe('the name is declared for another view in d.yaml:3');
    expect(nameClash([declared('Pipeline')], pipeline)).toBeUndefined();
    expect(nameClash([declared('Pipeline', 'dv_1')], pipeline)).toBeUndefined();
    expect(nameClash([declared('Pipes', 'dv_1')], pipeline)).toBe('renamed to "Pipes" in d.yaml:3');
  });
});

describe('the merge writer', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'viewctl-merge-write-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('lists every entry of the folders it writes to, and never writes over one', async () => {
    await mkdir(join(dir, 'deals', 'nested.yaml'), { recursive: true });
    await writeFile(join(dir, 'deals', 'mine.yaml'), 'kind: DealView # ours\n');
    expect(await takenPaths(dir, ['.', 'deals', 'pins'])).toEqual(['deals', 'deals/mine.yaml', 'deals/nested.yaml']);

    await writeNewFiles(dir, { 'pins/new.yaml': 'kind: PinnedViews\n' });
    expect(await readFile(join(dir, 'pins', 'new.yaml'), 'utf8')).toBe('kind: PinnedViews\n');
    await expect(writeNewFiles(dir, { 'deals/mine.yaml': 'replaced\n' })).rejects.toMatchObject({
      code: 'export.write-failed',
      message: expect.stringContaining('deals/mine.yaml'),
    });
    expect(await readFile(join(dir, 'deals', 'mine.yaml'), 'utf8')).toBe('kind: DealView # ours\n');
    expect((await readdir(join(dir, 'deals'))).sort()).toEqual(['mine.yaml', 'nested.yaml']);
  });

  it.each(['contacts/new.yaml', 'contacts/sub/new.yaml'])(
    'never writes %s through a linked folder that leads out of the folder',
    async (path) => {
      const outside = await mkdtemp(join(tmpdir(), 'viewctl-outside-'));
      try {
        await symlink(outside, join(dir, 'contacts'));
        await expect(writeNewFiles(dir, { [path]: 'kind: ContactView\n' })).rejects.toMatchObject({
          code: 'export.write-failed',
          message: expect.stringMatching(
            /its folder is reached through a link to .*, outside .*; viewctl never writes through a linked folder$/,
          ),
        });
        expect(await readdir(outside)).toEqual([]);
      } finally {
        await rm(join(dir, 'contacts'), { force: true });
        await rm(outside, { recursive: true, force: true });
      }
    },
  );
});

describe('viewctl export --merge output', () => {
  let emulator: RunningEmulator;
  let work: string;
  beforeAll(async () => {
    const data = demoWorkspace();
    data.views.recordings.unshift(view('rv_bidi', 'Calls \u202egnp.exe', { ownerId: 'u_adam' }));
    emulator = await startEmulator({ data, port: 0, ...FAST_LIMITS });
    work = await mkdtemp(join(tmpdir(), 'viewctl-merge-out-'));
    await mkdir(join(work, 'm'));
    await writeFile(join(work, 'm', 'workspace.yaml'), 'kind: Workspace\n');
  });
  afterAll(async () => {
    await emulator.close();
    await rm(work, { recursive: true, force: true });
  });

  it('escapes names from the service for the terminal', async () => {
    const run = await runExport(['--out', 'm', '--merge'], {
      cwd: work,
      env: { VIEWCTL_BASE_URL: emulator.url, VIEWCTL_API_KEY: emulator.apiKey },
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /m\/recordings\/calls-gnp-exe\.yaml +RecordingView "Calls \\u\{202e\}gnp\.exe" \(rv_bidi\)/,
    );
    expect(run.stdout).not.toContain('\u202e');
  });
});

describe('viewctl export --merge, refused before any request', () => {
  let work: string;
  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'viewctl-merge-cmd-'));
    await mkdir(join(work, 'bad'));
    await writeFile(join(work, 'bad', 'view.yaml'), 'kind: RecordingView\nname: A\ncolour: red\n');
    await mkdir(join(work, 'notes'));
    await writeFile(join(work, 'notes', 'README.md'), 'no manifests\n');
  });
  afterAll(async () => {
    await rm(work, { recursive: true, force: true });
  });

  // No service is configured: reaching for one would fail with connection.no-service instead.
  it.each([
    [['--out', 'bad', '--merge', '--force'], 'usage.conflicting-options'],
    [['--out', 'missing', '--merge'], 'export.merge-no-manifests'],
    [['--out', 'notes', '--merge'], 'export.merge-no-manifests'],
    [['--out', 'bad', '--merge', '--users', 'mia@acme.test'], 'manifest.invalid'],
  ])('export %j: %s', async (args, code) => {
    const run = await runExport(args, { cwd: work, env: {} });
    expect(run.error?.code).toBe(code);
    expect(run.code).toBe(1);
  });

  it('names the problems of an invalid folder with their positions', async () => {
    const run = await runExport(['--out', 'bad', '--merge'], { cwd: work, env: {} });
    expect(run.error?.message).toMatch(/bad\/view\.yaml:3:1 +schema\.unknown-attribute/);
  });
});
