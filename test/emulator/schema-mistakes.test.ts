import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { AnySchemaObject } from 'ajv';
import { describe, expect, it } from 'vitest';
import type { Domain } from '../../src/domain/domains.js';
import { loadSchemaFiles, SCHEMA_BASE } from '../../src/manifest/schema-registry.js';
import { ids } from './fixture.js';
import { call, useEmulator } from './helpers.js';

/**
 * The emulator checks view bodies by its own rules, not with the manifests' schemas,
 * so a mistake made in a schema is one the emulator refuses: `viewctl validate` would
 * pass such a manifest, and the first run against the emulator (every end-to-end
 * test) shows the mistake. Each case edits one product schema in memory the way a
 * slip of the pen would, checks that the edited schema now accepts a body the
 * service refuses, and sends that body to the emulator.
 */

const start = useEmulator();
const addFormats = addFormatsModule.default;

type Schemas = Map<string, AnySchemaObject>;

/** compile builds the product's validator of `<file>#/$defs/<attribute>` from (edited) schema files, as the product does. */
function compile(files: Schemas, file: string, attribute: string): (value: unknown) => boolean {
  const ajv = new Ajv2020({ strict: true, allErrors: true, verbose: true, discriminator: true, allowUnionTypes: true });
  addFormats(ajv, { mode: 'full' });
  for (const [name, schema] of files) ajv.addSchema(schema, SCHEMA_BASE + name);
  const validate = ajv.getSchema(`${SCHEMA_BASE}${file}#/$defs/${attribute}`);
  if (validate === undefined) throw new Error(`no ${attribute} in ${file}`);
  return (value) => validate(value) === true;
}

const defs = (files: Schemas, file: string): Record<string, any> =>
  (files.get(file) as { $defs: Record<string, any> }).$defs;

interface Mistake {
  what: string;
  domain: Domain;
  file: string;
  attribute: 'columns' | 'filters' | 'sort';
  edit(files: Schemas): void;
  value: unknown;
  path: string;
}

const MISTAKES: Mistake[] = [
  {
    what: 'a misspelled recording source (MSTeams for MsTeams)',
    domain: 'recordings',
    file: 'recording-view.schema.json',
    attribute: 'filters',
    edit: (files) => {
      const source = defs(files, 'common.schema.json').recordingSource;
      source.enum = source.enum.map((value: string) => (value === 'MsTeams' ? 'MSTeams' : value));
    },
    value: { sourceIn: ['Zoom', 'MSTeams'] },
    path: 'filters.sourceIn',
  },
  {
    what: 'an unknown recording filter attribute (ownerIdIn)',
    domain: 'recordings',
    file: 'recording-view.schema.json',
    attribute: 'filters',
    edit: (files) => {
      defs(files, 'recording-view.schema.json').filters.properties.ownerIdIn = {
        $ref: 'common.schema.json#/$defs/stringList',
      };
    },
    value: { ownerIdIn: ['u_owner'] },
    path: 'filters.ownerIdIn',
  },
  {
    what: 'a deal status the service does not have (Closed)',
    domain: 'deals',
    file: 'deal-view.schema.json',
    attribute: 'filters',
    edit: (files) => {
      defs(files, 'common.schema.json').dealStatus.enum.push('Closed');
    },
    value: { statusIn: ['Closed'] },
    path: 'filters.statusIn',
  },
  {
    what: 'a sort order misspelled (Ascending)',
    domain: 'companies',
    file: 'company-view.schema.json',
    attribute: 'sort',
    edit: (files) => {
      defs(files, 'common.schema.json').sortOrder.enum = ['Ascending', 'Desc'];
    },
    value: [{ field: 'Name', order: 'Ascending' }],
    path: 'sort',
  },
];

describe('a mistake in a product schema is refused by the emulator', () => {
  it.each(MISTAKES)('$what', async ({ domain, file, attribute, edit, value, path }) => {
    const files = loadSchemaFiles();
    expect(compile(files, file, attribute)(value), 'the schema as shipped refuses the body').toBe(false);
    edit(files);
    expect(compile(files, file, attribute)(value), 'the edited schema accepts it').toBe(true);

    const emulator = await start();
    const viewId = ids(domain).publics[0] ?? '';
    const reply = await call(emulator, 'PATCH', `/v1/${domain}/views/${viewId}`, { body: { [attribute]: value } });
    expect(reply.status).toBe(400);
    expect(reply.body.error).toMatchObject({ type: 'validation_error', path });
  });
});
