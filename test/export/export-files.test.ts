import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { exportFiles } from '../../src/export/export-files.js';
import { pinEntry } from '../../src/export/pin-documents.js';
import { schemaModeline } from '../../src/export/schema-ref.js';
import { schemaTexts } from '../../src/manifest/schema-registry.js';
import { loadManifests, memoryManifestSource } from '../../src/manifest/load.js';
import { assignStems, slugify } from '../../src/export/slug.js';
import { defaultView, smallWorkspace, view } from './fixture.js';

describe('exportFiles', () => {
  const { files, notes, summary } = exportFiles(smallWorkspace());

  it('writes one file per public saved view, the workspace, the automations and each user, sorted by path', () => {
    expect(Object.keys(files)).toEqual([
      'automations.yaml',
      'deals/pipeline-dv-1.yaml',
      'deals/pipeline-dv-2.yaml',
      'pins/mia-acme-test.yaml',
      'recordings/customer-calls.yaml',
      'workspace.yaml',
    ]);
    expect(summary).toEqual({
      views: { recordings: 1, deals: 2, companies: 0, contacts: 0 },
      automations: 1,
      pinUsers: 1,
      pinDocuments: { groups: 0, members: 1 },
    });
  });

  it('writes a view minimally: key order, sorted sets, no defaults repeated, no response-only attributes', () => {
    const text = files['recordings/customer-calls.yaml'] ?? '';
    expect(text.split('\n')[0]).toBe('# yaml-language-server: $schema=../.viewctl/schemas/recording-view.schema.json');
    expect(text).toContain('# viewId binds this document to its live view');
    expect(text.slice(text.indexOf('kind:'))).toBe(
      [
        'kind: RecordingView',
        'name: Customer calls',
        'viewId: rv_1',
        'icon: telephone_receiver',
        'columns:',
        '  - {type: Default, columnId: title}',
        '  - {type: AiSection, fieldId: fld_next, title: Next steps, width: 240}',
        'filters:',
        '  createdAfterRelative: 30',
        '  sourceIn: [Aircall, Call, Zoom]',
        'sort:',
        '  - {field: CreatedAt, order: Desc}',
        '',
      ].join('\n'),
    );
    const deal = files['deals/pipeline-dv-1.yaml'] ?? '';
    expect(deal).not.toContain('dealAgeRange');
    expect(deal).not.toContain('icon');
    expect(parse(deal)).toEqual({
      kind: 'DealView',
      name: 'Pipeline',
      viewId: 'dv_1',
      columns: [],
      filters: { statusIn: ['Open', 'Won'] },
      sort: [],
    });
    expect(parse(files['deals/pipeline-dv-2.yaml'] ?? '')).toMatchObject({ name: 'Pipeline!', filters: {} });
  });

  it('never writes default or private views as managed views', () => {
    const all = Object.values(files).join('\n');
    expect(all).not.toMatch(/name: All recordings/);
    expect(all).not.toMatch(/name: Mia's calls/);
  });

  it('writes pins by name, private ones by id with a comment, and leaves an empty domain out', () => {
    const text = files['pins/mia-acme-test.yaml'] ?? '';
    expect(text).toContain(`  - {viewId: rv_p} # private: "Mia's calls"\n  - Customer calls\n  - All recordings\n`);
    expect(parse(text)).toEqual({
      kind: 'PinnedViews',
      userEmail: 'mia@acme.test',
      recordings: [{ viewId: 'rv_p' }, 'Customer calls', 'All recordings'],
      deals: ['Pipeline!', 'All deals'],
      contacts: ['All contacts'],
    });
    expect(text).toContain('# companies: no tab pinned today');
    expect(notes).toEqual([expect.stringContaining('mia@acme.test has no pinned companies views today')]);
  });

  it('writes the automations complete, in priority order, without server ids', () => {
    const text = files['automations.yaml'] ?? '';
    expect(text).not.toContain('aa_1');
    expect(text.slice(text.indexOf('kind:'))).toBe(
      [
        'kind: AdminAutomations',
        'automations:',
        '  - name: Record external meetings',
        '    color: blue',
        '    disallowUserOverride: true',
        '    filters:',
        '      - {type: MeetingType, meetingType: Internal, combineWith: And, not: true}',
        '    actions:',
        '      autoRecord: {onlyHosted: false, toBeRecorded: true}',
        '',
      ].join('\n'),
    );
  });

  it('writes the workspace with prune off and creatorEmail commented out, explained', () => {
    const text = files['workspace.yaml'] ?? '';
    expect(parse(text)).toEqual({ kind: 'Workspace', workspaceId: 'ws_1', prune: false });
    expect(text).toContain('# creatorEmail is not knowable from the service');
    expect(text).toContain('# creatorEmail: someone@example.com\n');
  });

  it('is deterministic: the same input gives the same bytes', () => {
    expect(exportFiles(smallWorkspace()).files).toEqual(files);
  });

  it('exports every view of a shared name, each bound by its viewId, and pins both by id', () => {
    const input = smallWorkspace();
    const twin = view('rv_2', 'Customer calls');
    input.live.views.recordings = [...(input.live.views.recordings ?? []), twin];
    input.live.pins['recordings:mia@acme.test'] = [twin, view('rv_1', 'Customer calls')];
    const result = exportFiles(input);
    const files = Object.keys(result.files).filter((path) => path.startsWith('recordings/'));
    expect(files).toHaveLength(2);
    for (const path of files) {
      expect(result.files[path]).toMatch(/Other recordings views are named "Customer calls" too: rv_\d\. Keep viewId/);
    }
    expect(result.files[files[0]!]).toContain('viewId: rv_');
    expect(result.notes.filter((note) => note.includes('not exported'))).toEqual([]);
    expect(result.files['pins/mia-acme-test.yaml']).toContain(
      '  - {viewId: rv_2} # "Customer calls": 2 views share this name\n  - {viewId: rv_1} # "Customer calls": 2 views share this name\n',
    );
    expect(result.summary.views.recordings).toBe(2);
  });
});

describe('exportFiles with automations that share a name', () => {
  it('writes no expectation it cannot state, and says why', () => {
    const input = smallWorkspace();
    const first = input.live.automations?.[0];
    if (first === undefined) throw new Error('fixture has an automation');
    input.live.automations = [first, { ...first, adminAutomationId: 'aa_2', color: 'red' }];
    const result = exportFiles(input);
    expect(result.files['automations.yaml']).toBeUndefined();
    expect(result.summary.automations).toBeNull();
    expect(result.notes).toContainEqual(
      expect.stringContaining(
        'automations.yaml not written: several admin automations are named "Record external meetings"',
      ),
    );
  });
});

describe('pinEntry', () => {
  const listing = [
    view('v1', 'Mine'),
    view('v2', 'Shared'),
    view('v3', 'Shared'),
    defaultView('d1', 'All'),
    view('v4', 'All'),
  ];
  it('uses the name only when it names exactly one listed view', () => {
    expect(pinEntry(listing[0]!, listing)).toEqual({ name: 'Mine' });
    expect(pinEntry(listing[1]!, listing)).toMatchObject({ viewId: 'v2' });
    // A saved view named like a default: ambiguous for a reader, so by id either way.
    expect(pinEntry(listing[3]!, listing)).toMatchObject({ viewId: 'd1' });
    expect(pinEntry(view('p', 'Mine', { visibility: 'Private' }), listing)).toEqual({
      viewId: 'p',
      comment: 'private: "Mine"',
    });
  });
});

describe('file names', () => {
  it('slugs names to lowercase ascii with dashes, folding accents', () => {
    expect(slugify('Café Calls — Q3 / EMEA')).toBe('cafe-calls-q3-emea');
    expect(slugify('📞')).toBe('');
    expect(slugify('x'.repeat(80))).toHaveLength(60);
  });

  it('suffixes every colliding stem with the id, independent of order', () => {
    const items = [
      { name: 'Calls', id: 'rv_2' },
      { name: 'calls!', id: 'rv_1' },
      { name: 'Other', id: 'rv_3' },
      { name: '日本', id: 'rv_4' },
    ];
    const expected = new Map([
      ['rv_2', 'calls-rv-2'],
      ['rv_1', 'calls-rv-1'],
      ['rv_3', 'other'],
      ['rv_4', 'rv-4'],
    ]);
    expect(assignStems(items)).toEqual(expected);
    expect(new Map([...assignStems([...items].reverse())].sort())).toEqual(new Map([...expected].sort()));
  });

  it('stays unique when a suffixed stem meets a plain one, or ids slug alike', () => {
    const stems = assignStems([
      { name: 'A', id: 'v_1' },
      { name: 'a', id: 'v-1' },
      { name: 'a v 1', id: 'x' },
    ]);
    expect(new Set(stems.values()).size).toBe(3);
  });
});

describe('schema modeline', () => {
  it('points every file at the copy of the schemas export writes beside it, by relative path', () => {
    expect(schemaModeline('RecordingView', 'recordings/a.yaml')).toBe(
      'yaml-language-server: $schema=../.viewctl/schemas/recording-view.schema.json',
    );
    expect(schemaModeline('PinnedViews', 'pins/a.yaml')).toBe(
      'yaml-language-server: $schema=../.viewctl/schemas/pinned-views.schema.json',
    );
    expect(schemaModeline('Workspace', 'workspace.yaml')).toBe(
      'yaml-language-server: $schema=.viewctl/schemas/workspace.schema.json',
    );
  });

  it('writes the copy of every schema into the hidden folder, which validate skips', async () => {
    const { files } = exportFiles({ ...smallWorkspace(), schemas: schemaTexts() });
    expect(
      Object.keys(files)
        .filter((path) => path.startsWith('.viewctl/schemas/'))
        .sort(),
    ).toEqual([...schemaTexts().keys()].map((file) => `.viewctl/schemas/${file}`).sort());
    expect(files['.viewctl/schemas/common.schema.json']).toBe(schemaTexts().get('common.schema.json'));
    const loaded = await loadManifests(['.'], memoryManifestSource(files));
    expect(loaded.files.some((file) => file.startsWith('.viewctl'))).toBe(false);
  });
});
