import { describe, expect, it } from 'vitest';
import type { Domain } from '../../src/domain/domains.js';
import { ruleChecker } from '../../src/emulator/views/rule-checker.js';
import type { ViewAttribute } from '../../src/emulator/views/view-shapes.js';

/**
 * The emulator's own view rules (src/emulator/views/view-shapes.ts), one case per kind
 * of rule: the dotted `path` stops at the attribute holding the bad value, the message
 * names the exact place.
 */

describe('ruleChecker', () => {
  it.each<[Domain, ViewAttribute, unknown, string, string]>([
    [
      'recordings',
      'filters',
      { sourceIn: ['Zoom', 'Fax'] },
      'filters.sourceIn',
      'filters.sourceIn[1] must be one of Api, Call, MobileApp',
    ],
    [
      'recordings',
      'filters',
      { noSuchFilter: true },
      'filters.noSuchFilter',
      'filters.noSuchFilter is not a known attribute',
    ],
    [
      'recordings',
      'filters',
      { title: { contains: 'a', startsWith: 'b' } },
      'filters.title.startsWith',
      'filters.title.startsWith is not a known attribute',
    ],
    [
      'recordings',
      'filters',
      { authorIdIn: [{ type: 'Bob' }] },
      'filters.authorIdIn',
      'filters.authorIdIn[0] tag "type" must be one of User, Me',
    ],
    [
      'recordings',
      'filters',
      { authorIdIn: [{ userId: 'u1' }] },
      'filters.authorIdIn',
      'filters.authorIdIn[0] tag "type" must be one of User, Me',
    ],
    [
      'recordings',
      'filters',
      { authorIdIn: [{ type: 'User' }] },
      'filters.authorIdIn',
      'filters.authorIdIn[0].userId is required',
    ],
    [
      'recordings',
      'filters',
      { peopleIn: [{ type: 'Me', name: 'x' }] },
      'filters.peopleIn',
      'filters.peopleIn[0].name is not a known attribute',
    ],
    [
      'recordings',
      'filters',
      { insights: [{ type: 'select', fieldId: 'f', selectFilter: { in: [1] } }] },
      'filters.insights',
      'filters.insights[0].selectFilter.in[0] must be string',
    ],
    [
      'recordings',
      'filters',
      { videoDurationSecBetween: {} },
      'filters.videoDurationSecBetween',
      'filters.videoDurationSecBetween must set gte or lte',
    ],
    [
      'recordings',
      'filters',
      { createdAfterRelative: -1 },
      'filters.createdAfterRelative',
      'filters.createdAfterRelative must be >= 0',
    ],
    [
      'recordings',
      'filters',
      { createdAfterRelative: Number.POSITIVE_INFINITY },
      'filters.createdAfterRelative',
      'filters.createdAfterRelative must be number',
    ],
    [
      'recordings',
      'filters',
      { createdAfterAt: '2026-02-30' },
      'filters.createdAfterAt',
      'filters.createdAfterAt is not a date that exists; use YYYY-MM-DD',
    ],
    ['recordings', 'filters', { zzz: 1, sourceIn: ['Fax'] }, 'filters.sourceIn', 'filters.sourceIn[0] must be one of'],
    [
      'deals',
      'filters',
      { ownerEmailIn: [''] },
      'filters.ownerEmailIn',
      'filters.ownerEmailIn[0] must NOT have fewer than 1 characters',
    ],
    [
      'deals',
      'filters',
      { ownerEmailIn: [{ type: 'User' }] },
      'filters.ownerEmailIn',
      'filters.ownerEmailIn[0] tag "type" must be one of Me',
    ],
    ['deals', 'filters', { ownerEmailIn: [3] }, 'filters.ownerEmailIn', 'filters.ownerEmailIn[0] must be string'],
    [
      'deals',
      'filters',
      { dealAgeRange: 'Soon' },
      'filters.dealAgeRange',
      'filters.dealAgeRange must be one of ZeroDay, OneDay',
    ],
    ['recordings', 'sort', [{ field: 'Insight', order: 'Asc' }], 'sort', 'sort[0].insight is required'],
    [
      'recordings',
      'sort',
      [{ field: 'Created', order: 'Asc' }],
      'sort',
      'sort[0].field must be one of Author, Company, CreatedAt',
    ],
    [
      'deals',
      'sort',
      [{ field: 'amount', order: 'Asc' }],
      'sort',
      'sort[0].field must match pattern "^[A-Z][A-Za-z0-9]*$"',
    ],
    ['companies', 'sort', [{ field: 'Name', order: 'Up' }], 'sort', 'sort[0].order must be one of Asc, Desc'],
    [
      'companies',
      'columns',
      [{ type: 'AiSection', fieldId: 'f', title: 't' }],
      'columns',
      'columns[0] tag "type" must be one of Default',
    ],
    ['recordings', 'columns', [{ type: 'AiSection', fieldId: 'f' }], 'columns', 'columns[0].title is required'],
    ['deals', 'columns', [{ type: 'Default', columnId: 'c', width: -5 }], 'columns', 'columns[0].width must be >= 0'],
  ])('%s %s %j is refused at %s', (domain, attribute, value, path, message) => {
    const problem = ruleChecker(domain, attribute, value);
    expect(problem?.path).toBe(path);
    expect(problem?.message.startsWith(message), problem?.message).toBe(true);
  });

  it.each<[Domain, ViewAttribute, unknown]>([
    [
      'recordings',
      'filters',
      {
        authorIdIn: [{ type: 'Me' }, { type: 'User', userId: 'u1' }],
        createdAfterAt: '2026-01-31T09:00:00Z',
        insights: [],
      },
    ],
    [
      'recordings',
      'sort',
      [
        { field: 'Insight', order: 'Desc', insight: { fieldId: 'f' } },
        { field: 'CreatedAt', order: 'Asc' },
      ],
    ],
    [
      'deals',
      'filters',
      { ownerEmailIn: [{ type: 'Me' }, 'owner@acme.test'], dealAgeRange: 'OneDay', statusIn: ['Won'] },
    ],
    ['contacts', 'columns', [{ type: 'Default', columnId: 'name', isHidden: false, width: 120 }]],
  ])('%s %s %j is accepted', (domain, attribute, value) => {
    expect(ruleChecker(domain, attribute, value)).toBeUndefined();
  });
});
