import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../src/domain/api-types.js';
import { DOMAINS } from '../../src/domain/domains.js';
import { canonicalJson } from '../../src/kinds/canonical.js';
import {
  desiredSnapshot,
  isSetAttribute,
  normalizeFilters,
  normalizeSnapshot,
  normalizeView,
} from '../../src/kinds/normalize.js';
import { declared, view } from '../plan/fixtures.js';

describe('normalizeFilters', () => {
  it('sorts and de-duplicates sets, drops empty sets, keeps scalars', () => {
    expect(
      normalizeFilters('recordings', { sourceIn: ['Zoom', 'Call', 'Zoom'], stateIn: [], createdAfterRelative: 30 }),
    ).toEqual({ createdAfterRelative: 30, sourceIn: ['Call', 'Zoom'] });
  });

  it('sorts object members of sets by canonical JSON, whatever their key order', () => {
    const a = normalizeFilters('recordings', {
      authorIdIn: [{ userId: 'u_2', type: 'User' }, { type: 'Me' }, { type: 'User', userId: 'u_1' }],
    });
    const b = normalizeFilters('recordings', {
      authorIdIn: [{ type: 'User', userId: 'u_1' }, { type: 'User', userId: 'u_2' }, { type: 'Me' }],
    });
    expect(a).toEqual(b);
    expect(canonicalJson(a)).toBe(canonicalJson(b));
  });

  it('treats externalities, recordingTypeIn and select insight options as sets', () => {
    expect(normalizeFilters('contacts', { externalities: ['b', 'a'] })).toEqual({ externalities: ['a', 'b'] });
    expect(normalizeFilters('recordings', { recordingTypeIn: ['Meeting', 'Clip'] })).toEqual({
      recordingTypeIn: ['Clip', 'Meeting'],
    });
    const insights = normalizeFilters('recordings', {
      insights: [
        { type: 'select', fieldId: 'f2', selectFilter: { in: ['y', 'x'], notIn: [] } },
        { type: 'exists', fieldId: 'f1', existsFilter: true },
      ],
    });
    expect(insights).toEqual({
      insights: [
        { existsFilter: true, fieldId: 'f1', type: 'exists' },
        { fieldId: 'f2', selectFilter: { in: ['x', 'y'], notIn: [] }, type: 'select' },
      ],
    });
  });

  it('drops the response-only dealAgeRange of deal views only', () => {
    expect(normalizeFilters('deals', { dealAgeRange: 'OneDay', statusIn: ['Won', 'Open'] })).toEqual({
      statusIn: ['Open', 'Won'],
    });
    expect(normalizeFilters('recordings', { dealAgeRange: 'OneDay' })).toEqual({ dealAgeRange: 'OneDay' });
  });

  it('keeps the order of non-set arrays', () => {
    expect(normalizeFilters('recordings', { title: { contains: 'x' }, dealAmountValue: { lte: 5, gte: 1 } })).toEqual({
      dealAmountValue: { gte: 1, lte: 5 },
      title: { contains: 'x' },
    });
  });
});

describe('normalizeView', () => {
  it('keeps column and sort order, drops isHidden false and server attributes', () => {
    const snapshot = normalizeView(
      'recordings',
      view('rv_1', 'A', {
        icon: 'star',
        columns: [
          { type: 'Default', columnId: 'title', isHidden: false },
          { type: 'Default', columnId: 'source', isHidden: true },
        ],
        sort: [
          { field: 'Title', order: 'Asc', insight: { fieldId: 'f' } },
          { field: 'Insight', order: 'Desc', insight: { fieldId: 'f' } },
        ],
      }),
    );
    expect(snapshot).toEqual({
      name: 'A',
      icon: 'star',
      columns: [
        { columnId: 'title', type: 'Default' },
        { columnId: 'source', isHidden: true, type: 'Default' },
      ],
      filters: {},
      sort: [
        { field: 'Title', order: 'Asc' },
        { field: 'Insight', insight: { fieldId: 'f' }, order: 'Desc' },
      ],
    });
    expect(Object.keys(snapshot)).toEqual(['name', 'icon', 'columns', 'filters', 'sort']);
    expect(snapshot).not.toHaveProperty('viewId');
  });
});

describe('desiredSnapshot', () => {
  const live = normalizeView(
    'recordings',
    view('rv_1', 'A', {
      icon: 'star',
      columns: [{ type: 'Default', columnId: 'title' }],
      filters: { sourceIn: ['Zoom'] },
    }),
  );

  it('overrides managed attributes and keeps unmanaged ones from live', () => {
    const after = desiredSnapshot('recordings', declared('recordings', 'A', { filters: { sourceIn: ['Call'] } }), live);
    expect(after).toEqual({ ...live, filters: { sourceIn: ['Call'] } });
  });

  it('removes the icon for icon: null and empties filters for filters: {}', () => {
    const after = desiredSnapshot('recordings', declared('recordings', 'A', { icon: null, filters: {} }), live);
    expect(after).not.toHaveProperty('icon');
    expect(after.filters).toEqual({});
  });

  it('fills the service defaults for a create', () => {
    expect(desiredSnapshot('deals', declared('deals', 'New', {}))).toEqual({
      name: 'New',
      columns: [],
      filters: {},
      sort: [],
    });
  });
});

const setValue = fc.oneof(
  fc.constantFrom('Zoom', 'Call', 'Api', 'Loom', 'x', 'y'),
  fc.record({ type: fc.constant('User'), userId: fc.constantFrom('u_1', 'u_2', 'u_3') }),
  fc.constant({ type: 'Me' }),
);
const filtersArb = fc
  .dictionary(
    fc.constantFrom(
      'sourceIn',
      'sourceNotIn',
      'authorIdIn',
      'peopleNotIn',
      'labelIdIn',
      'externalities',
      'statusIn',
      'stageNotIn',
      'contactIdIn',
    ),
    fc.array(setValue, { maxLength: 6 }),
  )
  .chain((sets) =>
    fc.record({
      sets: fc.constant(sets),
      scalars: fc.dictionary(
        fc.constantFrom('createdAfterRelative', 'hasInteraction', 'dealAgeRange', 'title'),
        fc.oneof(fc.integer(), fc.boolean(), fc.constant('LessThan7Days'), fc.record({ contains: fc.string() })),
      ),
    }),
  );

describe('normalisation properties', () => {
  it('is idempotent and ignores set order, in every domain', () => {
    fc.assert(
      fc.property(fc.constantFrom(...DOMAINS), filtersArb, fc.integer(), (domain, { sets, scalars }, seed) => {
        const filters = { ...scalars, ...sets } as JsonObject;
        const once = normalizeSnapshot(domain, {
          name: 'V',
          filters,
          columns: [{ type: 'Default', columnId: 'a', isHidden: seed % 2 === 0 }],
        });
        expect(normalizeSnapshot(domain, once)).toEqual(once);
        const shuffled: JsonObject = { ...scalars };
        for (const [key, values] of Object.entries(sets)) {
          shuffled[key] = isSetAttribute(domain, key)
            ? [...values].reverse().concat(values.slice(0, seed % 3))
            : values;
        }
        expect(canonicalJson(normalizeFilters(domain, shuffled))).toBe(canonicalJson(once.filters));
      }),
      { numRuns: 200 },
    );
  });
});
