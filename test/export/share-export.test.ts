import { describe, expect, it } from 'vitest';
import { declaredTargets } from '../../src/export/declared-targets.js';
import { renderPinsFile } from '../../src/export/pin-documents.js';
import { pullPlan } from '../../src/export/pull-edits.js';
import { toDesired } from '../../src/manifest/desired.js';
import { loadManifests, memoryManifestSource } from '../../src/manifest/load.js';
import { computePlan } from '../../src/plan/diff.js';
import { includePull } from '../../src/export/pull-include.js';
import { renderViewFile } from '../../src/export/view-documents.js';
import type { PinChange } from '../../src/kinds/changes.js';
import type { ManifestDocument } from '../../src/manifest/types.js';
import { at, defaultView, privateView, user, view } from '../plan/fixtures.js';

// export and pull under appOwns and mode: include: never an app-owned attribute, never a member's own tab.

const CALLS = view('rv_1', 'Calls', {
  columns: [{ type: 'Default', columnId: 'title' }],
  sort: [{ field: 'CreatedAt', order: 'Desc' }],
});
const ALL = defaultView('rv_all', 'All recordings');
const MINE = privateView('rv_p1', 'My follow-ups');

describe('export --pins include and appOwns', () => {
  it('writes mode: include with the public and default tabs only', () => {
    const { text } = renderPinsFile(
      user('u_mia', 'mia@acme.com'),
      { recordings: [MINE, CALLS, ALL] },
      { recordings: [CALLS, ALL] },
      '',
      { mode: 'include' },
    );
    expect(text).toContain(
      'kind: PinnedViews\nuserEmail: mia@acme.com\nmode: include\nrecordings:\n  - Calls\n  - All recordings\n',
    );
    expect(text).not.toContain('rv_p1');
    const exact = renderPinsFile(
      user('u_mia', 'mia@acme.com'),
      { recordings: [MINE, CALLS] },
      { recordings: [CALLS] },
      '',
    );
    expect(exact.text).not.toContain('mode:');
    expect(exact.text).toContain('viewId: rv_p1');
  });

  it('leaves the attributes the Workspace gives the app out of a new view document', () => {
    const text = renderViewFile('recordings', CALLS, [CALLS], 'recordings/calls.yaml', ['columns', 'sort']);
    expect(text).toContain('filters: {}');
    expect(text).not.toMatch(/^columns:/m);
    expect(text).not.toMatch(/^sort:/m);
    expect(renderViewFile('recordings', CALLS, [CALLS], 'recordings/calls.yaml')).toMatch(/^columns:/m);
  });
});

describe('pull of a mode: include document', () => {
  const document = {
    kind: 'PinnedViews',
    file: 'pins/mia.yaml',
    index: 0,
    body: {
      kind: 'PinnedViews',
      userEmail: 'mia@acme.com',
      mode: 'include',
      recordings: ['Calls', 'Demos'],
      unpin: ['Old'],
    },
    position: at('pins/mia.yaml'),
    positionOf: (pointer: string) => at('pins/mia.yaml', pointer.length, 1),
  } as unknown as ManifestDocument;
  const tab = (viewId: string, name: string) => ({ viewId, name, visibility: 'Public' as const, isDefault: false });
  const change = (before: PinChange['before'], after: PinChange['after']): PinChange => ({
    action: 'pin',
    target: 'pins:recordings:mia@acme.com',
    kind: 'PinnedViews',
    name: 'mia@acme.com',
    userEmail: 'mia@acme.com',
    domain: 'recordings',
    before,
    after,
  });

  it("takes out the listed tabs the member unpinned, and writes none of the member's own", () => {
    const pulled = includePull(
      document,
      change(
        [tab('rv_9', 'Mine'), tab('rv_1', 'Calls')],
        [tab('rv_2', 'Demos'), tab('rv_9', 'Mine'), tab('rv_1', 'Calls')],
      ),
      'mia',
    );
    expect(pulled.edit?.edits).toEqual([{ path: ['recordings'], value: ['Calls'] }]);
    expect(pulled.notPulled).toEqual([]);
  });

  it('leaves unpin as it is, and says so, when the member pinned an unpinned tab again', () => {
    const pulled = includePull(
      document,
      change(
        [tab('rv_1', 'Calls'), tab('rv_2', 'Demos'), tab('rv_8', 'Old')],
        [tab('rv_1', 'Calls'), tab('rv_2', 'Demos')],
      ),
      'mia',
    );
    expect(pulled.edit).toBeUndefined();
    expect(pulled.notPulled[0]?.reason).toContain('`unpin` is left as it is: mia@acme.com pins "Old" again');
  });
});

describe('pull under appOwns', () => {
  it('never writes an app-owned attribute back, and writes the managed ones', async () => {
    const files = {
      'calls.yaml': [
        'kind: RecordingView',
        'name: Calls',
        'viewId: rv_1',
        'appOwns: [columns]',
        'columns: [{type: Default, columnId: title, width: 120}]',
        'filters: {sourceIn: [Zoom]}',
        '',
      ].join('\n'),
    };
    const { documents } = await loadManifests(['.'], memoryManifestSource(files));
    const desired = toDesired(documents);
    const live = {
      workspace: { id: 'ws_1', name: 'Acme', createdAt: '2026-01-01T00:00:00Z', membersCount: 1, recordingsCount: 0 },
      views: {
        recordings: [
          view('rv_1', 'Calls', {
            columns: [{ type: 'Default', columnId: 'title', width: 480 }],
            filters: { sourceIn: ['Call'] },
          }),
        ],
      },
      pins: {},
      requests: { used: 0, dailyRemaining: null },
    };
    const { plan } = computePlan(desired, live);
    const pulled = pullPlan({
      changes: plan.changes,
      held: [],
      live,
      documents,
      views: desired.views,
      declared: declaredTargets(documents),
    });
    expect(pulled.edits.flatMap((edit) => edit.edits.map((one) => one.path.join('/')))).toEqual(['filters']);
  });
});
