import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { stringify } from 'yaml';
import type { LoadResult } from '../../src/manifest/load.js';

/**
 * Random manifest text built from the schema vocabulary: every attribute name and
 * enum value the JSON Schemas of `schemas/` mention, misspelt now and then, with
 * values of the right and the wrong types, random nesting and random unicode. Some
 * texts are YAML that parses (schema and semantic checks get exercised), others are
 * line soup that does not (the parser's error paths).
 */

const SCHEMAS = fileURLToPath(new URL('../../schemas/', import.meta.url));

/** Vocabulary is what the schemas name. */
export interface Vocabulary {
  kinds: string[];
  attributes: string[];
  enums: string[];
}

/** schemaVocabulary reads every attribute name and enum value out of the JSON Schemas. */
export function schemaVocabulary(): Vocabulary {
  const attributes = new Set<string>();
  const enums = new Set<string>();
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) {
      value.forEach(walk);
      return;
    }
    if (value === null || typeof value !== 'object') return;
    const node = value as Record<string, unknown>;
    if (node.properties !== null && typeof node.properties === 'object') {
      for (const key of Object.keys(node.properties as object)) attributes.add(key);
    }
    for (const member of Array.isArray(node.enum) ? node.enum : []) if (typeof member === 'string') enums.add(member);
    if (typeof node.const === 'string') enums.add(node.const);
    Object.values(node).forEach(walk);
  };
  for (const file of readdirSync(SCHEMAS)
    .filter((name) => name.endsWith('.json'))
    .sort()) {
    walk(JSON.parse(readFileSync(`${SCHEMAS}${file}`, 'utf8')) as unknown);
  }
  const kinds = [
    'Workspace',
    'RecordingView',
    'DealView',
    'CompanyView',
    'ContactView',
    'PinnedViews',
    'AdminAutomations',
  ];
  return { kinds, attributes: [...attributes].sort(), enums: [...enums].sort() };
}

const VOCABULARY = schemaVocabulary();

/** misspelt returns `word` or a typo of it: a letter dropped, doubled, swapped or re-cased. */
function misspelt(word: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc
    .tuple(word, fc.nat(), fc.constantFrom('keep', 'keep', 'keep', 'drop', 'double', 'swap', 'case'))
    .map(([text, at, how]) => {
      if (text.length < 2) return text;
      const i = at % (text.length - 1);
      switch (how) {
        case 'drop':
          return text.slice(0, i) + text.slice(i + 1);
        case 'double':
          return text.slice(0, i) + (text[i] ?? '') + text.slice(i);
        case 'swap':
          return text.slice(0, i) + (text[i + 1] ?? '') + (text[i] ?? '') + text.slice(i + 2);
        case 'case':
          return text.toLowerCase() === text ? text.toUpperCase() : text.toLowerCase();
        default:
          return text;
      }
    });
}

const attributeName = fc.oneof(
  { weight: 6, arbitrary: misspelt(fc.constantFrom(...VOCABULARY.attributes)) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 8 }) },
  { weight: 1, arbitrary: fc.constantFrom('kind', '<<', '? x', '', ' ', '0', 'true', 'null') },
);

const scalar: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(...VOCABULARY.enums),
  fc.constantFrom(...VOCABULARY.kinds),
  fc.string({ unit: 'grapheme', maxLength: 12 }),
  fc.string({ unit: 'binary', maxLength: 6 }),
  fc.constantFrom(
    'ops@acme.test',
    'not an email',
    'rv_1',
    '2026-13-45',
    '2026-01-01T00:00:00Z',
    '*',
    'Scratch *',
    '\u0000',
    '\uFEFF',
    '\u202E',
  ),
  fc.integer({ min: -5, max: 400 }),
  fc.constantFrom(0, -0, 1.5, 1e21, Number.MAX_SAFE_INTEGER),
  fc.boolean(),
  fc.constant(null),
);

/** jsonLike is a random value tree whose object keys come from the schema vocabulary. */
const jsonLike: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalar,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(attributeName, tie('value'), { maxKeys: 5 }),
  ),
})).value;

/** manifestDocument is a mapping with a (possibly wrong) kind and random attributes. */
export const manifestDocument: fc.Arbitrary<Record<string, unknown>> = fc
  .tuple(
    fc.oneof(
      { weight: 5, arbitrary: misspelt(fc.constantFrom(...VOCABULARY.kinds)) },
      { weight: 1, arbitrary: scalar },
      { weight: 1, arbitrary: fc.constant(undefined) },
    ),
    fc.dictionary(attributeName, jsonLike, { maxKeys: 7 }),
  )
  .map(([kind, rest]) => (kind === undefined ? rest : { kind, ...rest }));

/** parsedYaml is YAML text that parses: random documents, in block or flow style. */
export const parsedYaml: fc.Arbitrary<string> = fc
  .tuple(
    fc.array(fc.oneof({ weight: 8, arbitrary: manifestDocument }, { weight: 1, arbitrary: jsonLike }), {
      maxLength: 4,
    }),
    fc.boolean(),
  )
  .map(([documents, flow]) =>
    documents.map((document) => stringify(document, { collectionStyle: flow ? 'flow' : 'any' })).join('---\n'),
  );

const punctuation = fc.constantFrom(
  ':',
  ': ',
  '- ',
  '-',
  '[',
  ']',
  '{',
  '}',
  ',',
  '"',
  "'",
  '#',
  '&a ',
  '*a',
  '!!str ',
  '!tag ',
  '? ',
  '|',
  '>',
  '%YAML 1.2',
  '---',
  '...',
  '\t',
  '@',
  '`',
);

/** lineSoup is text made of vocabulary words, punctuation and indentation: mostly not YAML. */
export const lineSoup: fc.Arbitrary<string> = fc
  .array(
    fc.tuple(
      fc.nat(6),
      fc.array(
        fc.oneof(
          attributeName,
          punctuation,
          scalar.map((value) => String(value)),
        ),
        { maxLength: 6 },
      ),
    ),
    { maxLength: 12 },
  )
  .map((lines) => lines.map(([indent, parts]) => ' '.repeat(indent) + parts.join('')).join('\n'));

/** manifestText is any random manifest text, parsing or not. */
export const manifestText: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: parsedYaml },
  { weight: 1, arbitrary: lineSoup },
);

/** PROBLEM_CODE is the shape of every stable problem code (`schema.unknown-attribute`, `yaml.syntax`). */
export const PROBLEM_CODE = /^[a-z]+(?:\.[a-z0-9]+(?:-[a-z0-9]+)*)+$/;

/**
 * malformedProblems lists what is wrong with the problems of a load: each must carry
 * a known severity, a coded name, a message, one of the files read, and a position
 * (line and column at least 1, the line within the file).
 */
export function malformedProblems(result: LoadResult, lineCounts: ReadonlyMap<string, number>): string[] {
  const wrong: string[] = [];
  for (const problem of result.problems) {
    const where = `${problem.code} at ${problem.file}:${problem.line}:${problem.column}`;
    if (problem.severity !== 'error' && problem.severity !== 'warning')
      wrong.push(`${where}: severity ${String(problem.severity)}`);
    if (!PROBLEM_CODE.test(problem.code)) wrong.push(`${where}: code is not a stable code`);
    if (problem.message.trim() === '') wrong.push(`${where}: empty message`);
    const lines = lineCounts.get(problem.file);
    if (lines === undefined) wrong.push(`${where}: not one of the files read`);
    if (!Number.isInteger(problem.line) || problem.line < 1 || (lines !== undefined && problem.line > lines))
      wrong.push(`${where}: bad line`);
    if (!Number.isInteger(problem.column) || problem.column < 1) wrong.push(`${where}: bad column`);
    if (!Number.isInteger(problem.document) || problem.document < 0) wrong.push(`${where}: bad document index`);
  }
  return wrong;
}

/** lineCount is the number of lines of a text as an editor shows them (a final newline opens an empty last line). */
export function lineCount(text: string | Uint8Array): number {
  const decoded = typeof text === 'string' ? text : new TextDecoder().decode(text);
  return decoded.split(/\r\n|\r|\n/).length;
}
