import { KIND_SCHEMAS, resolveLocalRef } from './schema-registry.js';
import { isJsonObject } from '../domain/api-types.js';

/**
 * The manifest reference (`schemas/README.md`) is rendered from the schemas, so the
 * documentation cannot drift from what `viewctl validate` enforces. `npm run
 * schemas:types` rewrites it; a test fails when the committed file differs.
 */

/** renderSchemaReference renders the Markdown reference of every manifest kind and shared shape. */
export function renderSchemaReference(files: ReadonlyMap<string, unknown>): string {
  const typeOf = (schema: unknown, file: string): string => {
    if (schema === true) return 'any';
    if (!isJsonObject(schema)) return 'never';
    if (typeof schema.$ref === 'string') {
      const target = resolveLocalRef(schema.$ref, file, files);
      const title = target?.node.title;
      if (typeof title === 'string' && target !== undefined && isShape(target.node))
        return `[${title}](#${anchor(title)})`;
      return target === undefined ? schema.$ref : typeOf(target.node, target.file);
    }
    if ('const' in schema) return `\`${JSON.stringify(schema.const)}\``;
    if (Array.isArray(schema.enum)) return schema.enum.map((value) => `\`${String(value)}\``).join(', ');
    if (Array.isArray(schema.oneOf)) return schema.oneOf.map((branch) => typeOf(branch, file)).join(' or ');
    const type = schema.type;
    if (Array.isArray(type)) return type.join(' or ');
    if (type === 'array') return `list of ${typeOf(schema.items, file)}`;
    if (type === 'object' && isJsonObject(schema.properties)) {
      const required = new Set(Array.isArray(schema.required) ? schema.required : []);
      const fields = Object.entries(schema.properties).map(
        ([name, field]) => `${name}${required.has(name) ? '' : '?'}: ${typeOf(field, file)}`,
      );
      return `{${fields.join(', ')}}`;
    }
    if (type === 'string' && schema.format === 'email') return 'email';
    if (type === 'string' && typeof schema.title === 'string' && typeof schema.pattern === 'string')
      return `string (${schema.title})`;
    return typeof type === 'string' ? type : 'any';
  };
  const constraints = (schema: unknown, file: string): string => {
    const ref = isJsonObject(schema) ? schema.$ref : undefined;
    const target = typeof ref === 'string' ? resolveLocalRef(ref, file, files)?.node : undefined;
    const merged: Record<string, unknown> = { ...(target ?? {}), ...(isJsonObject(schema) ? schema : {}) };
    const notes: string[] = [];
    if (typeof merged.minItems === 'number') notes.push(`at least ${merged.minItems} entry`);
    if (typeof merged.minLength === 'number') notes.push('not empty');
    if (typeof merged.minimum === 'number') notes.push(`≥ ${merged.minimum}`);
    if (typeof merged.minProperties === 'number') notes.push('at least one attribute');
    return notes.join('; ');
  };
  const table = (schema: Record<string, unknown>, file: string): string[] => {
    const properties = isJsonObject(schema.properties) ? schema.properties : {};
    const required = new Set(Array.isArray(schema.required) ? schema.required : []);
    const rows = Object.entries(properties).map(([name, field]) => {
      const description =
        isJsonObject(field) && typeof field.description === 'string' ? field.description : describeRef(field, file);
      const notes = [required.has(name) ? '**required**' : '', constraints(field, file)]
        .filter((note) => note !== '')
        .join('; ');
      return `| \`${name}\` | ${escapeCell(typeOf(field, file))} | ${escapeCell(notes)} | ${escapeCell(description)} |`;
    });
    return ['| attribute | type | notes | description |', '| --- | --- | --- | --- |', ...rows];
  };
  const describeRef = (field: unknown, file: string): string => {
    if (!isJsonObject(field) || typeof field.$ref !== 'string') return '';
    const description = resolveLocalRef(field.$ref, file, files)?.node.description;
    return typeof description === 'string' ? description : '';
  };

  const lines: string[] = [
    '# Manifest reference',
    '',
    '<!-- Generated from schemas/*.schema.json by `npm run schemas:types`. Do not edit: a test fails when it is out of date. -->',
    '',
    'Manifests are YAML files holding one or more documents, each with a `kind`. These JSON Schemas',
    '(draft 2020-12) are the single source of truth for their shapes: `viewctl validate` checks them,',
    "the TypeScript types are generated from them, and the view schemas' `$defs` `columns`, `filters`",
    "and `sort` are the service API's own shapes.",
    '',
    'The schemas carry no `$id` and reference each other by relative path (`common.schema.json#/$defs/...`),',
    'so they work from any folder they are copied to together. `viewctl schemas --out DIR` writes them;',
    '`viewctl export` writes them into `.viewctl/schemas/` of the manifests folder (a hidden folder the',
    'loader skips) and points each file at its schema, e.g. `# yaml-language-server: $schema=../.viewctl/schemas/recording-view.schema.json`.',
    '',
    'Unknown attributes are errors everywhere. Attributes a view manifest omits are left as they are live.',
    '',
  ];
  for (const [kind, file] of Object.entries(KIND_SCHEMAS)) {
    const schema = files.get(file);
    if (!isJsonObject(schema)) continue;
    lines.push(
      `## ${kind}`,
      '',
      `Schema: \`${file}\`. ${String(schema.description ?? '')}`,
      '',
      ...table(schema, file),
      '',
    );
    const defs = isJsonObject(schema.$defs) ? schema.$defs : {};
    for (const [name, def] of Object.entries(defs)) {
      if (!isJsonObject(def)) continue;
      const heading = typeof def.title === 'string' ? def.title : `${kind} ${name}`;
      lines.push(
        `### ${heading}`,
        '',
        `\`${file}#/$defs/${name}\`${typeof def.description === 'string' ? `: ${def.description}` : ''}`,
        '',
      );
      if (isJsonObject(def.properties)) lines.push(...table(def, file), '');
      else lines.push(`Type: ${escapeCell(typeOf(def, file))}.`, '');
      if (isJsonObject(def.items) && isJsonObject(def.items.properties))
        lines.push('Each entry:', '', ...table(def.items, file), '');
    }
  }
  const common = files.get('common.schema.json');
  const commonDefs = isJsonObject(common) && isJsonObject(common.$defs) ? common.$defs : {};
  lines.push('## Shared shapes', '', 'Schema: `common.schema.json`.', '');
  for (const def of Object.values(commonDefs)) {
    if (!isJsonObject(def) || typeof def.title !== 'string' || !isShape(def)) continue;
    lines.push(`### ${def.title}`, '', String(def.description ?? ''), '');
    if (isJsonObject(def.properties)) lines.push(...table(def, 'common.schema.json'), '');
    else lines.push(`Type: ${escapeCell(typeOf({ ...def, title: undefined }, 'common.schema.json'))}.`, '');
  }
  return `${lines.join('\n').trimEnd()}\n`;
}

/** isShape tells whether a titled definition is worth its own section (not a plain string alias). */
function isShape(def: Record<string, unknown>): boolean {
  return isJsonObject(def.properties) || Array.isArray(def.enum) || Array.isArray(def.oneOf) || def.type === 'array';
}

function anchor(title: string): string {
  return title.toLowerCase().replace(/[^a-z0-9-]/g, '');
}

function escapeCell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}
