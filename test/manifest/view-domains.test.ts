import { describe, expect, it } from 'vitest';
import { DOMAINS, VIEW_DOMAINS, type ViewDomain } from '../../src/domain/domains.js';
import { isSetAttribute } from '../../src/kinds/normalize.js';
import { loadSchemaFiles } from '../../src/manifest/schema-registry.js';

/**
 * VIEW_DOMAINS (src/domain/domains.ts) is the one table a view domain is written in;
 * its schema, the manifest dispatch and the pinned lists live in schemas/. These
 * checks keep the two in step, so a fifth domain's entry that names a missing schema,
 * a filter the schema does not know, or an array filter it forgets to call a set fails here.
 */

type Node = Record<string, unknown>;
const files = loadSchemaFiles() as Map<string, Node>;
const node = (value: unknown): Node =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Node) : {};

/** resolved follows one `$ref` (to another file, or within `file`). */
function resolved(schema: Node, file: string): Node {
  const ref = schema.$ref;
  if (typeof ref !== 'string') return schema;
  const [target = '', fragment = ''] = ref.split('#');
  let at: unknown = files.get(target === '' ? file : target);
  for (const segment of fragment.split('/').filter((part) => part !== '')) at = node(at)[segment];
  return node(at);
}

function filterProperties(entry: ViewDomain): Node {
  return node(node(node(files.get(entry.schema)?.$defs).filters).properties);
}

describe.each(DOMAINS)('the VIEW_DOMAINS entry of %s', (domain) => {
  const entry: ViewDomain = VIEW_DOMAINS[domain];

  it('names a schema of schemas/ for its kind, which the manifest schema dispatches to and pinned lists key by the domain', () => {
    expect(node(node(files.get(entry.schema)?.properties).kind).const).toBe(entry.kind);
    const manifest = files.get('manifest.schema.json') ?? {};
    expect(node(node(manifest.properties).kind).enum).toContain(entry.kind);
    expect(manifest.oneOf).toContainEqual({ $ref: entry.schema });
    expect(Object.keys(node(files.get('pinned-views.schema.json')?.properties))).toContain(domain);
  });

  it('names as sets only filters its schema declares as lists, and every list filter of the schema is a set', () => {
    const properties = filterProperties(entry);
    for (const attribute of entry.setAttributes)
      expect(resolved(node(properties[attribute]), entry.schema).type, attribute).toBe('array');
    for (const [attribute, schema] of Object.entries(properties)) {
      if (resolved(node(schema), entry.schema).type === 'array')
        expect(isSetAttribute(domain, attribute), attribute).toBe(true);
    }
    for (const attribute of Object.keys(entry.nestedSets ?? {})) expect(entry.setAttributes).toContain(attribute);
  });

  it('keeps its response-only filters out of its schema, which refuses them in a manifest', () => {
    const properties = filterProperties(entry);
    for (const attribute of entry.responseOnlyFilters ?? []) expect(Object.keys(properties)).not.toContain(attribute);
  });
});
