import { describe, expect, it } from 'vitest';
import { listRecords } from '../../../src/emulator/records/list.js';
import type { EndpointResult } from '../../../src/emulator/records/result.js';
import type { StoredInsight } from '../../../src/emulator/records/types.js';
import { ctx, daysAgo, deal, recording, view, workspace } from './fixtures.js';

const seats = (value: number | null): StoredInsight[] => [
  { fieldId: 'f_seats', title: 'Seats', kind: 'number', value },
];

const data = workspace({
  views: {
    recordings: [
      view('rv_zoom', { sourceIn: ['Zoom'] }, [{ field: 'Title', order: 'Asc' }]),
      view('rv_private', {}, [], { visibility: 'Private' }),
      view('rv_default', {}, [], { isDefault: true, ownerId: '#global' }),
      view('rv_not_me', { authorIdNotIn: [{ type: 'Me' }] }),
      view('rv_me', { authorIdIn: [{ type: 'Me' }] }),
      view('rv_seats', {}, [{ field: 'Insight', insight: { fieldId: 'f_seats' }, order: 'Desc' }]),
      view('rv_by_deal', {}, [
        { field: 'DealAmountValue', order: 'Desc' },
        { field: 'Manual', order: 'Asc' },
      ]),
    ],
    deals: [view('dv_open', { statusIn: ['Open'] }, [{ field: 'AmountValue', order: 'Desc' }])],
    companies: [view('cv_won', { dealStatusIn: ['Won'] }), view('cv_private', {}, [], { visibility: 'Private' })],
    contacts: [view('kv_champ', { externalities: ['champion'] }, [{ field: 'Name', order: 'Desc' }])],
  },
  deals: [
    deal('d1', { amount: { value: 500, currency: 'USD' }, companyId: 'c1' }),
    deal('d2', { amount: { value: 900, currency: 'EUR' }, status: 'Won', companyId: 'c2', name: 'Alpha deal' }),
  ],
  companies: [
    {
      id: 'c1',
      name: 'Globex',
      domain: 'globex.example',
      contactIds: ['k1'],
      dealIds: ['d1'],
      hasInteraction: true,
      lastActivityAt: daysAgo(1),
    },
    {
      id: 'c2',
      name: 'Hooli',
      domain: 'hooli.example',
      contactIds: ['k2'],
      dealIds: ['d2'],
      hasInteraction: true,
      lastActivityAt: daysAgo(2),
    },
  ],
  contacts: [
    {
      id: 'k1',
      name: 'Ada',
      email: 'ada@globex.example',
      companyId: 'c1',
      externalities: ['champion'],
      lastActivityAt: null,
    },
    {
      id: 'k2',
      name: 'Zed',
      email: 'zed@hooli.example',
      companyId: 'c2',
      externalities: ['champion'],
      lastActivityAt: null,
    },
    { id: 'k3', name: 'Moe', email: 'moe@hooli.example', companyId: 'c2', externalities: [], lastActivityAt: null },
  ],
  recordings: [
    recording('r1', {
      title: 'Charlie',
      createdAt: daysAgo(1),
      source: 'Zoom',
      channelId: 'ch_1',
      labelIds: ['lbl_x'],
      durationSeconds: 300,
      insights: seats(10),
      dealId: 'd1',
    }),
    recording('r2', {
      title: 'alpha',
      createdAt: daysAgo(2),
      source: 'Zoom',
      recorderId: 'u_ben',
      durationSeconds: 900,
      insights: seats(null),
      dealId: 'd2',
    }),
    recording('r3', {
      title: 'Bravo',
      createdAt: daysAgo(3),
      source: 'Aircall',
      labelIds: ['lbl_y'],
      durationSeconds: 100,
      insights: seats(40),
    }),
    recording('r4', { title: 'Delta', createdAt: daysAgo(4), source: 'Zoom', isPrivate: true }),
    recording('r5', { title: 'Bravo', createdAt: daysAgo(3), source: 'Zoom', insights: seats(40) }),
  ],
});

function ids(result: EndpointResult, key = 'recordings'): string[] {
  if (result.status !== 200) throw new Error(`unexpected ${result.status}: ${result.message}`);
  return ((result.result as Record<string, { id: string }[]>)[key] ?? []).map((entry) => entry.id);
}

const list = (query: string, fullAccess = false): EndpointResult =>
  listRecords(data, 'recordings', new URLSearchParams(query), ctx({ fullAccess }));

describe('listRecords: recordings', () => {
  it('lists public recordings newest first, ties by id; private ones only with Full access', () => {
    expect(ids(list(''))).toEqual(['r1', 'r2', 'r3', 'r5']);
    expect(ids(list('', true))).toEqual(['r1', 'r2', 'r3', 'r5', 'r4']);
  });

  it('answers in the recording details shape with pagination', () => {
    const result = list('limit=2');
    expect(result.status).toBe(200);
    const body = (
      result as {
        result: { recordings: Record<string, unknown>[]; pagination: { nextCursor?: string; totalCount: number } };
      }
    ).result;
    expect(body.pagination.totalCount).toBe(4);
    expect(body.pagination.nextCursor).toEqual(expect.any(String));
    expect(body.recordings[0]).toMatchObject({
      id: 'r1',
      state: 'Ready',
      labels: ['X'],
      insightTemplates: [],
      deal: { id: 'd1' },
    });
  });

  it('applies a view, and reports unknown and private views as not found', () => {
    expect(ids(list('viewId=rv_zoom'))).toEqual(['r2', 'r5', 'r1']);
    expect(ids(list('viewId=rv_default'))).toEqual(['r1', 'r2', 'r3', 'r5']);
    expect(list('viewId=rv_nope')).toMatchObject({ status: 404, type: 'not_found' });
    expect(list('viewId=rv_private', true)).toMatchObject({ status: 404, type: 'not_found' });
  });

  it('resolves Me against the whole workspace: included matches members, excluded gives an empty page', () => {
    expect(ids(list('viewId=rv_me'))).toEqual(['r1', 'r2', 'r3', 'r5']);
    expect(list('viewId=rv_not_me')).toEqual({
      status: 200,
      result: { recordings: [], pagination: { totalCount: 0 } },
    });
  });

  it('narrows a view with query parameters and never widens it', () => {
    expect(ids(list('viewId=rv_zoom&sources=Zoom,Aircall'))).toEqual(['r2', 'r5', 'r1']);
    expect(ids(list('viewId=rv_zoom&sources=Aircall'))).toEqual([]);
    expect(ids(list('viewId=rv_zoom&recorderId=u_ben'))).toEqual(['r2']);
    expect(ids(list('viewId=rv_zoom&labels=lbl_y'))).toEqual([]);
  });

  it.each([
    ['channelId=ch_1', ['r1']],
    ['labels=lbl_y', ['r3']],
    ['labels=X,Y', ['r1', 'r3']],
    ['recorderId=u_ben', ['r2']],
    ['recorderEmail=BEN@acme.test', ['r2']],
    [`createdAfter=${daysAgo(2)}`, ['r1', 'r2']],
    [`createdBefore=${daysAgo(2)}`, ['r3', 'r5']],
    ['sources=Aircall', ['r3']],
  ])('narrows with %s', (query, expected) => {
    expect(ids(list(query))).toEqual(expected);
  });

  it.each([
    ['sources=Zoom,Skype', 'sources'],
    ['createdAfter=yesterday', 'createdAfter'],
    ['createdBefore=2026-13-45', 'createdBefore'],
    ['createdAfter=2026-02-30', 'createdAfter'],
    ['createdAfter=2026-00-00', 'createdAfter'],
    ['createdBefore=2026-10-01T25:61:00Z', 'createdBefore'],
    ['sort=newest', 'sort'],
    ...['__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty'].map((name) => [`sort=${name}`, 'sort']),
    ['limit=0', 'limit'],
    ['cursor=zzz', 'cursor'],
  ])('rejects %s with path %s', (query, path) => {
    expect(list(query)).toMatchObject({ status: 400, type: 'validation_error', path });
  });

  it('lets the sort parameter override the view sort', () => {
    expect(ids(list('viewId=rv_zoom&sort=created_asc'))).toEqual(['r5', 'r2', 'r1']);
    expect(ids(list('sort=duration_desc'))).toEqual(['r2', 'r5', 'r1', 'r3']);
    expect(ids(list('sort=duration_asc'))).toEqual(['r3', 'r1', 'r5', 'r2']);
    expect(ids(list('sort=title_asc'))).toEqual(['r2', 'r3', 'r5', 'r1']);
    expect(ids(list('sort=title_desc'))).toEqual(['r1', 'r3', 'r5', 'r2']);
  });

  it('sorts by an insight with missing values last, ties by id', () => {
    expect(ids(list('viewId=rv_seats'))).toEqual(['r3', 'r5', 'r1', 'r2']);
  });

  it('sorts by linked deal fields, keeping fields without data in id order', () => {
    expect(ids(list('viewId=rv_by_deal'))).toEqual(['r2', 'r1', 'r3', 'r5']);
  });
});

describe('listRecords: deals, companies, contacts', () => {
  const other = (domain: 'deals' | 'companies' | 'contacts', query: string): EndpointResult =>
    listRecords(data, domain, new URLSearchParams(query), ctx());

  it('lists by name without a view, and applies a view filters and sort', () => {
    expect(ids(other('deals', ''), 'deals')).toEqual(['d2', 'd1']);
    expect(ids(other('deals', 'viewId=dv_open'), 'deals')).toEqual(['d1']);
    expect(ids(other('companies', 'viewId=cv_won'), 'companies')).toEqual(['c2']);
    expect(ids(other('contacts', 'viewId=kv_champ'), 'contacts')).toEqual(['k2', 'k1']);
    expect(other('companies', 'viewId=cv_private')).toMatchObject({ status: 404 });
    expect(other('contacts', 'limit=101')).toMatchObject({ status: 400, path: 'limit' });
  });

  it('answers in the documented shapes', () => {
    const deals = other('deals', 'viewId=dv_open') as { result: { deals: unknown[] } };
    expect(deals.result.deals[0]).toEqual({
      id: 'd1',
      name: 'Deal d1',
      status: 'Open',
      aiStatus: 'OnTrack',
      stage: 'Demo',
      pipelineId: 'pl_a',
      type: 'NewBusiness',
      owner: { email: 'ann@acme.test', name: 'Ann Lee' },
      amount: { value: 500, currency: 'USD' },
      openedAt: daysAgo(20),
      closedAt: null,
      companyId: 'c1',
      contactIds: [],
      hasInteraction: true,
      lastActivityAt: daysAgo(5),
    });
    const companies = other('companies', 'limit=1') as { result: { companies: unknown[] } };
    expect(companies.result.companies[0]).toEqual({
      id: 'c1',
      name: 'Globex',
      domain: 'globex.example',
      contactIds: ['k1'],
      dealIds: ['d1'],
      hasInteraction: true,
      lastActivityAt: daysAgo(1),
    });
    const contacts = other('contacts', 'limit=1') as { result: { contacts: unknown[] } };
    expect(contacts.result.contacts[0]).toEqual({
      id: 'k1',
      name: 'Ada',
      email: 'ada@globex.example',
      companyId: 'c1',
      externalities: ['champion'],
      lastActivityAt: null,
    });
  });
});
