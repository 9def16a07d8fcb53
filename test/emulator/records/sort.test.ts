import { describe, expect, it } from 'vitest';
import { filterEnv } from '../../../src/emulator/records/filters/env.js';
import {
  COMPANY_SORT,
  CONTACT_SORT,
  DEAL_SORT,
  RECORDING_SORT,
  sortDimensions,
  sortRecords,
} from '../../../src/emulator/records/sort.js';
import { daysAgo, deal, NOW, recording, workspace } from './fixtures.js';

const RECORDING_SORT_FIELDS = [
  'Author',
  'Company',
  'CreatedAt',
  'DealAge',
  'DealAmount',
  'DealAmountCurrency',
  'DealAmountValue',
  'DealClosedAt',
  'DealOpenedAt',
  'DealOwnerName',
  'DealStage',
  'DealStatus',
  'DealTitle',
  'DealType',
  'Insight',
  'InteractivityScore',
  'Label',
  'LastActivityAt',
  'LongestCustomerStory',
  'LongestMonologue',
  'Manual',
  'Patience',
  'People',
  'QuestionsPerHour',
  'TalkingRatio',
  'Title',
  'Topic',
  'VideoDurationSec',
];

const data = workspace({
  deals: [deal('d1', { amount: { value: 100, currency: 'USD' } }), deal('d2', { amount: null, name: 'Beta' })],
  recordings: [
    recording('r3', { dealId: 'd1', recorderId: 'u_ben', labelIds: ['lbl_y'] }),
    recording('r1', { dealId: null, labelIds: ['lbl_x', 'lbl_y'] }),
    recording('r2', { dealId: 'd2', analytics: null }),
  ],
});
const env = filterEnv(data, NOW);
const order = (dimensions: Parameters<typeof sortDimensions>[0]): string[] =>
  sortRecords(data.recordings, sortDimensions(dimensions), RECORDING_SORT, env).map((entry) => entry.id);

describe('sortRecords', () => {
  it('maps every recording sort field that has data (all but Manual)', () => {
    expect(Object.keys(RECORDING_SORT).sort()).toEqual(
      RECORDING_SORT_FIELDS.filter((field) => field !== 'Manual').sort(),
    );
  });

  it('puts missing values last in both orders', () => {
    expect(order([{ field: 'DealAmountValue', order: 'Asc' }])).toEqual(['r3', 'r1', 'r2']);
    expect(order([{ field: 'DealAmountValue', order: 'Desc' }])).toEqual(['r3', 'r1', 'r2']);
    expect(order([{ field: 'InteractivityScore', order: 'Desc' }])).toEqual(['r1', 'r3', 'r2']);
  });

  it('applies dimensions in turn and breaks ties by id', () => {
    expect(order([{ field: 'Author', order: 'Asc' }])).toEqual(['r1', 'r2', 'r3']);
    expect(
      order([
        { field: 'Author', order: 'Desc' },
        { field: 'Label', order: 'Desc' },
      ]),
    ).toEqual(['r3', 'r1', 'r2']);
  });

  it('keeps the id order for fields without data and drops malformed entries', () => {
    expect(order([{ field: 'Manual', order: 'Asc' }])).toEqual(['r1', 'r2', 'r3']);
    expect(order([{ order: 'Asc' }, 'CreatedAt', null])).toEqual(['r1', 'r2', 'r3']);
    expect(
      sortDimensions([{ field: 'Insight', insight: { fieldId: 'f' }, order: 'Desc' }, { field: 'Title' }]),
    ).toEqual([
      { field: 'Insight', insight: { fieldId: 'f' }, order: 'Desc' },
      { field: 'Title', order: 'Asc' },
    ]);
  });

  it('sorts deals, companies and contacts by their own fields', () => {
    expect(sortRecords(data.deals, [{ field: 'Name', order: 'Asc' }], DEAL_SORT, env).map((entry) => entry.id)).toEqual(
      ['d2', 'd1'],
    );
    expect(
      sortRecords(data.deals, [{ field: 'AmountCurrency', order: 'Asc' }], DEAL_SORT, env).map((entry) => entry.id),
    ).toEqual(['d1', 'd2']);
    const companies = [
      {
        id: 'c1',
        name: 'Zeta',
        domain: 'a.example',
        contactIds: [],
        dealIds: [],
        hasInteraction: false,
        lastActivityAt: daysAgo(1),
      },
      {
        id: 'c2',
        name: 'Alpha',
        domain: 'b.example',
        contactIds: [],
        dealIds: [],
        hasInteraction: false,
        lastActivityAt: null,
      },
    ];
    expect(
      sortRecords(companies, [{ field: 'Name', order: 'Asc' }], COMPANY_SORT, env).map((entry) => entry.id),
    ).toEqual(['c2', 'c1']);
    expect(
      sortRecords(companies, [{ field: 'LastActivityAt', order: 'Asc' }], COMPANY_SORT, env).map((entry) => entry.id),
    ).toEqual(['c1', 'c2']);
    const contacts = [
      { id: 'k1', name: 'bea', email: 'b@x.example', companyId: null, externalities: [], lastActivityAt: null },
      { id: 'k2', name: 'Al', email: 'a@x.example', companyId: null, externalities: [], lastActivityAt: null },
    ];
    expect(
      sortRecords(contacts, [{ field: 'Name', order: 'Desc' }], CONTACT_SORT, env).map((entry) => entry.id),
    ).toEqual(['k1', 'k2']);
  });
});
