import { describe, expect, it } from 'vitest';
import { renderPinsFile } from '../../src/export/pin-documents.js';
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
