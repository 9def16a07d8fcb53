import { describe, expect, it } from 'vitest';
import { toDesired } from '../../src/manifest/desired.js';
import { ManifestInvalidError } from '../../src/manifest/format-problems.js';
import { loadDesired } from '../../src/manifest/load-desired.js';
import { loadManifests } from '../../src/manifest/load.js';
import { memoryManifestSource } from '../../src/manifest/source.js';

async function desiredOf(files: Record<string, string>) {
  const result = await loadManifests(['.'], memoryManifestSource(files));
  expect(result.problems).toEqual([]);
  return toDesired(result.documents);
}

describe('toDesired', () => {
  it('builds the Desired state with sources, managed attributes and defaults', async () => {
    const desired = await desiredOf({
      'workspace.yaml': 'kind: Workspace\nworkspaceId: ws_1\ncreatorEmail: ops@acme.com\n',
      'views.yaml': [
        'kind: RecordingView',
        'name: Customer calls',
        'viewId: rv_42',
        'icon: null',
        'filters: {}',
        '---',
        'kind: DealView',
        'name: Pipeline',
        'columns: [{type: Default, columnId: amount}]',
        'sort: [{field: AmountCurrency, order: Desc}]',
        '---',
        'kind: CompanyView',
        'name: Accounts',
        'icon: office',
        '',
      ].join('\n'),
      'pins.yaml': [
        'kind: PinnedViews',
        'userEmail: alice@acme.com',
        'recordings:',
        '  - Customer calls',
        '  - {viewId: rv_private_7}',
        'contacts: [All contacts]',
        'unpinPrivate: true',
        '---',
        'kind: PinnedViews',
        'userEmail: bob@acme.com',
        'deals: [Pipeline]',
        '',
      ].join('\n'),
      'automations.yaml': [
        'kind: AdminAutomations',
        'automations:',
        '  - name: Record external meetings',
        '    color: blue',
        '    filters: [{type: MeetingType, meetingType: Internal, combineWith: And, not: true}]',
        '  - name: Share',
        '    actions: {autoShare: {autoShare: AllParticipants}}',
        '',
      ].join('\n'),
    });
    expect(desired.workspace).toEqual({
      workspaceId: 'ws_1',
      creatorEmail: 'ops@acme.com',
      prune: false,
      ignore: [],
      source: { file: 'workspace.yaml', line: 1, column: 1 },
      workspaceIdSource: { file: 'workspace.yaml', line: 2, column: 14 },
      creatorEmailSource: { file: 'workspace.yaml', line: 3, column: 15 },
    });
    expect(desired.views).toEqual([
      {
        domain: 'recordings',
        name: 'Customer calls',
        viewId: 'rv_42',
        managed: { icon: null, filters: {} },
        source: { file: 'views.yaml', line: 1, column: 1 },
        nameSource: { file: 'views.yaml', line: 2, column: 7 },
        viewIdSource: { file: 'views.yaml', line: 3, column: 9 },
      },
      {
        domain: 'deals',
        name: 'Pipeline',
        managed: {
          columns: [{ type: 'Default', columnId: 'amount' }],
          sort: [{ field: 'AmountCurrency', order: 'Desc' }],
        },
        source: { file: 'views.yaml', line: 7, column: 1 },
        nameSource: { file: 'views.yaml', line: 8, column: 7 },
      },
      {
        domain: 'companies',
        name: 'Accounts',
        managed: { icon: 'office' },
        source: { file: 'views.yaml', line: 12, column: 1 },
        nameSource: { file: 'views.yaml', line: 13, column: 7 },
      },
    ]);
    expect(desired.pins).toEqual([
      {
        userEmail: 'alice@acme.com',
        domain: 'recordings',
        refs: [{ name: 'Customer calls' }, { viewId: 'rv_private_7' }],
        unpinPrivate: true,
        source: { file: 'pins.yaml', line: 4, column: 3 },
        refSources: [
          { file: 'pins.yaml', line: 4, column: 5 },
          { file: 'pins.yaml', line: 5, column: 5 },
        ],
      },
      {
        userEmail: 'alice@acme.com',
        domain: 'contacts',
        refs: [{ name: 'All contacts' }],
        unpinPrivate: true,
        source: { file: 'pins.yaml', line: 6, column: 11 },
        refSources: [{ file: 'pins.yaml', line: 6, column: 12 }],
      },
      {
        userEmail: 'bob@acme.com',
        domain: 'deals',
        refs: [{ name: 'Pipeline' }],
        unpinPrivate: false,
        source: { file: 'pins.yaml', line: 11, column: 8 },
        refSources: [{ file: 'pins.yaml', line: 11, column: 9 }],
      },
    ]);
    expect(desired.automations).toEqual({
      automations: [
        {
          name: 'Record external meetings',
          color: 'blue',
          filters: [{ type: 'MeetingType', meetingType: 'Internal', combineWith: 'And', not: true }],
          source: { file: 'automations.yaml', line: 3, column: 5 },
        },
        {
          name: 'Share',
          actions: { autoShare: { autoShare: 'AllParticipants' } },
          source: { file: 'automations.yaml', line: 6, column: 5 },
        },
      ],
      source: { file: 'automations.yaml', line: 1, column: 1 },
    });
  });

  it('uses the workspace defaults when no Workspace document exists, and no automations', async () => {
    const desired = await desiredOf({ 'a.yaml': 'kind: ContactView\nname: C\n' });
    expect(desired.workspace).toEqual({ prune: false, ignore: [] });
    expect(desired.automations).toBeUndefined();
    expect(desired.pins).toEqual([]);
  });

  it('keeps prune and ignore when set', async () => {
    const desired = await desiredOf({ 'w.yaml': 'kind: Workspace\nprune: true\nignore: ["Scratch *"]\n' });
    expect(desired.workspace).toMatchObject({ prune: true, ignore: ['Scratch *'] });
    expect(desired.workspace.creatorEmail).toBeUndefined();
  });
});

describe('loadDesired', () => {
  it('throws ManifestInvalidError on errors and returns warnings otherwise', async () => {
    await expect(loadDesired(['.'], memoryManifestSource({ 'a.yaml': 'kind: ContactView\n' }))).rejects.toBeInstanceOf(
      ManifestInvalidError,
    );
    const loaded = await loadDesired(
      ['.'],
      memoryManifestSource({ 'a.yaml': 'kind: RecordingView\nname: R\nfilters: {peopleNotIn: [{type: Me}]}\n' }),
    );
    expect(loaded.desired.views).toHaveLength(1);
    expect(loaded.warnings.map((problem) => problem.code)).toEqual(['filter.excludes-me']);
    expect([loaded.documents, loaded.files]).toEqual([1, 1]);
  });

  it('warns when a folder holds no manifest', async () => {
    const result = await loadManifests(['docs'], memoryManifestSource({ 'docs/readme.md': '# hi' }));
    expect(result.problems.map((problem) => [problem.severity, problem.code])).toEqual([
      ['warning', 'file.no-manifests'],
    ]);
  });
});
