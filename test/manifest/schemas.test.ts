import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DOMAINS, RECORDING_SOURCES, VIEW_KINDS } from '../../src/domain/domains.js';
import { GENERATED_TYPES_FILE, REFERENCE_FILE, generateManifestTypes } from '../../src/manifest/generate-types.js';
import {
  KIND_SCHEMAS,
  SCHEMA_BASE,
  discriminatorValues,
  loadSchemaFiles,
  manifestValidator,
  schemaRegistry,
  validatorFor,
  viewAttributeValidator,
} from '../../src/manifest/schema-registry.js';
import { renderSchemaReference } from '../../src/manifest/schema-reference.js';

const files = loadSchemaFiles();

function defsOf(file: string): Record<string, unknown> {
  return (files.get(file)?.$defs ?? {}) as Record<string, unknown>;
}

describe('schemas', () => {
  it('has one schema per kind, plus common and manifest, none naming a URL that does not serve it', () => {
    expect([...files.keys()].sort()).toEqual(
      [...Object.values(KIND_SCHEMAS), 'common.schema.json', 'manifest.schema.json'].sort(),
    );
    for (const [, schema] of files) {
      // No `$id`: the files reference each other by relative path, which editors resolve by location.
      expect(schema.$id).toBeUndefined();
      expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    }
  });

  it('compiles every schema in strict mode', () => {
    for (const kind of Object.keys(KIND_SCHEMAS)) expect(validatorFor(kind)).toBeTypeOf('function');
    expect(manifestValidator()).toBeTypeOf('function');
    expect(validatorFor('Nope')).toBeUndefined();
    expect(validatorFor('constructor')).toBeUndefined();
  });

  it('gives each view schema $defs columns, filters and sort', () => {
    for (const domain of DOMAINS) {
      for (const attribute of ['columns', 'filters', 'sort'] as const) {
        expect(viewAttributeValidator(domain, attribute)).toBeTypeOf('function');
      }
    }
  });

  it('accepts the manifests of the product contract', () => {
    const validate = manifestValidator();
    const documents = [
      { kind: 'Workspace', workspaceId: 'ws_123', creatorEmail: 'ops@acme.com', prune: false, ignore: ['Scratch *'] },
      {
        kind: 'RecordingView',
        name: 'Customer calls',
        viewId: 'rv_42',
        icon: 'telephone_receiver',
        columns: [
          { type: 'Default', columnId: 'title' },
          { type: 'AiSection', fieldId: 'fld_next_steps', title: 'Next steps' },
        ],
        filters: { sourceIn: ['Call', 'Zoom'], createdAfterRelative: 30 },
        sort: [{ field: 'CreatedAt', order: 'Desc' }],
      },
      {
        kind: 'PinnedViews',
        userEmail: 'alice@acme.com',
        recordings: ['Customer calls', 'All recordings', { viewId: 'rv_private_7' }],
        deals: ['Pipeline review'],
      },
      {
        kind: 'AdminAutomations',
        automations: [
          {
            name: 'Record external meetings',
            color: 'blue',
            disallowUserOverride: true,
            filters: [{ type: 'MeetingType', meetingType: 'Internal', combineWith: 'And', not: true }],
            actions: { autoRecord: { onlyHosted: false, toBeRecorded: true } },
          },
        ],
      },
      {
        kind: 'DealView',
        name: 'Pipeline',
        icon: null,
        filters: {},
        sort: [{ field: 'AmountCurrency', order: 'Asc' }],
      },
      {
        kind: 'CompanyView',
        name: 'Companies',
        columns: [{ type: 'Default', columnId: 'name', width: 200 }],
        sort: [{ field: 'ContactName', order: 'Asc' }],
      },
      {
        kind: 'ContactView',
        name: 'Contacts',
        filters: { externalities: [] },
        sort: [{ field: 'Name', order: 'Desc' }],
      },
    ];
    for (const document of documents) {
      expect(validate(document), JSON.stringify(validate.errors)).toBe(true);
    }
    expect(validate({ kind: 'Nope' })).toBe(false);
  });

  it('accepts every recording filter attribute of the service with a value of its type', () => {
    const numeric = { gte: 1, lte: 9 };
    const filters = {
      authorIdIn: [{ type: 'User', userId: 'u_1' }, { type: 'Me' }],
      authorIdNotIn: [{ type: 'User', userId: 'u_2' }],
      companyIdIn: ['c'],
      companyIdNotIn: ['c'],
      createdAfterAt: '2026-01-01',
      createdBeforeAt: '2026-02-01T10:00:00Z',
      createdAfterRelative: 30,
      createdBeforeRelative: 1,
      dealAgeRange: 'LessThan30Days',
      dealAiStatusIn: ['AtRisk'],
      dealAiStatusNotIn: ['Won'],
      dealAmountCurrencyIn: ['EUR'],
      dealAmountCurrencyNotIn: ['USD'],
      dealAmountValue: { exists: true, gte: 1, is: 2, isNot: 3, lte: 4 },
      dealClosedAfterRelative: 1,
      dealClosedBeforeRelative: 2,
      dealOpenedAfterRelative: 3,
      dealOpenedBeforeRelative: 4,
      dealIdIn: ['d'],
      dealIdNotIn: ['d'],
      dealOwnerNameIn: ['n'],
      dealOwnerNameNotIn: ['n'],
      dealPipelineIdIn: ['p'],
      dealPipelineIdNotIn: ['p'],
      dealStageIn: ['s'],
      dealStageNotIn: ['s'],
      dealStatusIn: ['Open'],
      dealStatusNotIn: ['Lost'],
      dealTypeIn: ['t'],
      dealTypeNotIn: ['t'],
      insights: [
        { type: 'boolean', fieldId: 'f', boolFilter: { is: true } },
        { type: 'date', fieldId: 'f', dateFilter: { gte: 1 } },
        { type: 'exists', fieldId: 'f', existsFilter: false },
        { type: 'number', fieldId: 'f', numFilter: numeric },
        { type: 'select', fieldId: 'f', selectFilter: { in: ['a'], notIn: ['b'] } },
        {
          type: 'string',
          fieldId: 'f',
          strFilter: { contains: 'a', containsNot: 'b', is: 'c', isNot: 'd', exists: true },
        },
      ],
      interactivityScore: numeric,
      labelIdIn: ['l'],
      labelIdNotIn: ['l'],
      langIso2In: ['en'],
      langIso2NotIn: ['fr'],
      longestCustomerStorySeconds: numeric,
      longestMonologueSeconds: numeric,
      patienceSeconds: numeric,
      peopleIn: [
        { type: 'User', userId: 'u', name: 'U', email: 'u@x.io' },
        { type: 'Contact', name: 'C' },
        { type: 'Me' },
      ],
      peopleNotIn: [{ type: 'Contact', name: 'C', email: 'c@x.io' }],
      questionsPerHour: numeric,
      recordingIdIn: ['r'],
      recordingIdNotIn: ['r'],
      recordingTypeIn: ['Clip', 'Meeting'],
      sourceIn: [...RECORDING_SOURCES],
      sourceNotIn: ['Api'],
      stateIn: ['Empty', 'Uploaded', 'Ready', 'Failed'],
      talkingRatio: numeric,
      teamIdIn: ['t'],
      teamIdNotIn: ['t'],
      title: { contains: 'demo' },
      topicIdIn: ['t'],
      topicIdNotIn: ['t'],
      userGroupIn: ['g'],
      userGroupNotIn: ['g'],
      videoDurationSecBetween: { lte: 600 },
    };
    const validate = viewAttributeValidator('recordings', 'filters');
    expect(validate(filters), JSON.stringify(validate.errors)).toBe(true);
    const properties = (defsOf('recording-view.schema.json').filters as { properties: object }).properties;
    expect(Object.keys(properties).sort()).toEqual(Object.keys(filters).sort());
  });

  it('has exactly the twelve recording sources and the recording sort fields', () => {
    expect((defsOf('common.schema.json').recordingSource as { enum: string[] }).enum).toEqual([...RECORDING_SOURCES]);
    const fields = (defsOf('recording-view.schema.json').sortField as { enum: string[] }).enum;
    expect(fields).toHaveLength(28);
    expect(fields).toContain('Insight');
  });

  it('describes the filters of deals, companies and contacts exactly', () => {
    const deals = viewAttributeValidator('deals', 'filters');
    expect(
      deals({
        aiStatusIn: ['Stalled'],
        statusNotIn: ['Won'],
        contactIdIn: ['c'],
        hasInteraction: true,
        ownerEmailIn: ['a@b.co'],
      }),
    ).toBe(true);
    expect(deals({ dealAgeRange: 'OneDay' })).toBe(false);
    expect(deals({ contactIdNotIn: ['c'] })).toBe(false);
    const companies = viewAttributeValidator('companies', 'filters');
    expect(companies({ contactIdIn: [], dealIdNotIn: [], dealStatusIn: ['Won'], hasInteraction: false })).toBe(true);
    expect(companies({ dealStatusIn: ['Closed'] })).toBe(false);
    const contacts = viewAttributeValidator('contacts', 'filters');
    expect(contacts({ companyIdIn: ['c'], companyIdNotIn: [], externalities: [] })).toBe(true);
    expect(contacts({ hasInteraction: true })).toBe(false);
  });

  it('checks columns and sort by domain', () => {
    expect(
      viewAttributeValidator(
        'deals',
        'columns',
      )([{ type: 'AiSection', fieldId: 'f', title: 'T', hasAutogen: true, isConfigured: false }]),
    ).toBe(true);
    expect(viewAttributeValidator('companies', 'columns')([{ type: 'AiSection', fieldId: 'f', title: 'T' }])).toBe(
      false,
    );
    expect(viewAttributeValidator('contacts', 'columns')([{ columnId: 'name' }])).toBe(false);
    const recordingSort = viewAttributeValidator('recordings', 'sort');
    expect(recordingSort([{ field: 'Insight', order: 'Asc' }])).toBe(false);
    expect(recordingSort([{ field: 'Insight', order: 'Asc', insight: { fieldId: 'f' } }])).toBe(true);
    expect(recordingSort([{ field: 'Title', order: 'Asc', insight: { fieldId: 'f' } }])).toBe(true);
    expect(viewAttributeValidator('deals', 'sort')([{ field: 'Insight', order: 'Asc' }])).toBe(false);
    expect(
      viewAttributeValidator('contacts', 'sort')([{ field: 'Name', order: 'Asc', insight: { fieldId: 'f' } }]),
    ).toBe(false);
  });

  it('refuses a between filter without bounds and a pinned list that is empty', () => {
    expect(viewAttributeValidator('recordings', 'filters')({ videoDurationSecBetween: {} })).toBe(false);
    expect(validatorFor('PinnedViews')?.({ kind: 'PinnedViews', userEmail: 'a@b.co', deals: [] })).toBe(false);
  });

  it('reads the allowed tag values of discriminated unions', () => {
    const registry = schemaRegistry();
    const author = registry.getSchema(`${SCHEMA_BASE}common.schema.json#/$defs/authorFilter`)?.schema;
    expect(discriminatorValues(author)).toEqual(['User', 'Me']);
    expect(Object.values(VIEW_KINDS).every((kind) => Object.hasOwn(KIND_SCHEMAS, kind))).toBe(true);
  });
});

describe('files generated from the schemas', () => {
  it('src/manifest/generated/manifest-types.ts is up to date (npm run schemas:types)', async () => {
    expect(await generateManifestTypes()).toBe(readFileSync(GENERATED_TYPES_FILE, 'utf8'));
  });

  it('schemas/README.md is up to date (npm run schemas:types)', () => {
    expect(renderSchemaReference(files)).toBe(readFileSync(REFERENCE_FILE, 'utf8'));
  });
});
