import { describe, expect, it } from 'vitest';
import type { ApiView } from '../../src/domain/api-types.js';
import type { CreateChange, DeleteChange, ViewSnapshot } from '../../src/kinds/changes.js';
import { createdKey } from '../../src/kinds/kind.js';
import { SAVED_VIEWS, patchBody } from '../../src/kinds/saved-views.js';
import type { Live } from '../../src/state/types.js';

/** SAVED_VIEWS (saved-views.ts) on the cases test/kinds/kind-interface.test.ts does not reach. */

const snapshot = (name: string, extra: Partial<ViewSnapshot> = {}): ViewSnapshot => ({
  name,
  columns: [],
  filters: {},
  sort: [],
  ...extra,
});
const apiView = (viewId: string, name: string, extra: Partial<ApiView> = {}): ApiView => ({
  viewId,
  name,
  visibility: 'Public',
  isDefault: false,
  ownerId: 'u1',
  columns: [],
  filters: {},
  sort: [],
  ...extra,
});
const liveOf = (views: Partial<Live['views']>): Live => ({
  workspace: { id: 'ws_1', name: 'W' } as Live['workspace'],
  views,
  pins: {},
  requests: { used: 0, dailyRemaining: null },
});

const create: CreateChange = {
  action: 'create',
  target: 'view:deals:name:New',
  kind: 'DealView',
  name: 'New',
  domain: 'deals',
  before: null,
  after: snapshot('New', { icon: 'star' }),
};
const remove: DeleteChange = {
  action: 'delete',
  target: 'view:deals:id:dv_9',
  kind: 'DealView',
  name: 'Old',
  domain: 'deals',
  id: 'dv_9',
  before: snapshot('Old'),
  after: null,
  reason: 'prune',
  ownerId: 'u1',
  pinnedBy: [],
};

describe('SAVED_VIEWS.steps', () => {
  it('sends the icon of a new view in its POST', () => {
    const [step] = SAVED_VIEWS.steps(create, 0, {
      creatorEmail: 'ops@acme.test',
      created: new Set([createdKey('deals', 'New')]),
    });
    expect(step?.body).toEqual({
      creatorEmail: 'ops@acme.test',
      name: 'New',
      icon: 'star',
      columns: [],
      filters: {},
      sort: [],
    });
  });
});

describe('patchBody', () => {
  it('sends a new name, and each differing columns or sort whole, and nothing that is equal', () => {
    const before = snapshot('Pipeline', {
      icon: 'star',
      columns: [
        { columnId: 'a', type: 'Default' },
        { columnId: 'b', type: 'Default' },
      ],
      filters: { stageIn: ['a'] },
      sort: [{ field: 'Name', order: 'Asc' }],
    });
    const after = {
      ...before,
      name: 'Deals',
      columns: [{ columnId: 'a', type: 'Default' }],
      sort: [{ field: 'Name', order: 'Desc' }],
    };
    expect(patchBody(before, after)).toEqual({
      name: 'Deals',
      columns: [{ columnId: 'a', type: 'Default' }],
      sort: [{ field: 'Name', order: 'Desc' }],
    });
  });
});

describe('SAVED_VIEWS.hashed', () => {
  it('covers a view by id as absent when the key sees it only as private or as a default', () => {
    const live = liveOf({
      deals: [apiView('dv_1', 'Mine', { visibility: 'Private' }), apiView('dv_all', 'All deals', { isDefault: true })],
    });
    expect(SAVED_VIEWS.hashed('view:deals:id:dv_1', live)).toEqual({ id: 'dv_1', absent: true });
    expect(SAVED_VIEWS.hashed('view:deals:id:dv_all', live)).toEqual({ id: 'dv_all', absent: true });
  });

  it('covers a new view of a domain whose listing was not read as unknown, not as free', () => {
    expect(SAVED_VIEWS.hashed('view:deals:name:New', liveOf({}))).toEqual({ name: 'New', liveIds: null });
  });
});

describe('SAVED_VIEWS.verify', () => {
  it('does not count a built-in default of the created name as a second view', () => {
    const listing = [apiView('dv_5', 'New', { icon: 'star' }), apiView('dv_all', 'New', { isDefault: true })];
    expect(
      SAVED_VIEWS.verify(
        create,
        { viewId: 'dv_5' },
        { readBack: { views: { [create.domain]: listing } }, createdIds: new Map() },
      ),
    ).toBeUndefined();
  });
});

describe('SAVED_VIEWS.identityProblems', () => {
  it('checks the name a delete shows against the view it deletes (its before), and that before as viewctl writes it', () => {
    expect(SAVED_VIEWS.identityProblems(remove, undefined)).toEqual([]);
    expect(SAVED_VIEWS.identityProblems({ ...remove, name: 'New' }, undefined)).toEqual([
      'is shown as "New" but names the view "Old"',
    ]);
    expect(
      SAVED_VIEWS.identityProblems({ ...remove, before: snapshot('Old', { filters: { stageIn: [] } }) }, undefined),
    ).toEqual(['its before is not a view as viewctl writes it']);
  });
});
