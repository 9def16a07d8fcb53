import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { LineCounter, parseAllDocuments, isMap } from 'yaml';
import { describe, expect, it } from 'vitest';
import { lineStartsOf, readSimpleYaml, type SimpleDocument } from '../../src/manifest/simple-yaml.js';
import { INDEXED_DEPTH } from '../../src/manifest/parsed-file.js';
import { indexDocument } from '../../src/manifest/yaml-index.js';
import { recordingViewFile } from '../bench/validate-peer.js';

/**
 * The simple reader must answer exactly what the `yaml` library answers (values and
 * every node's offset), or not at all. `yamlReference` is what the loader makes of a
 * text through `yaml`: undefined when any document has a problem or is not a mapping
 * (those files must go to `yaml`, which reports them).
 */
function yamlReference(text: string, depth = Number.POSITIVE_INFINITY): SimpleDocument[] | undefined {
  const lineCounter = new LineCounter();
  const documents = parseAllDocuments(text, { uniqueKeys: true, merge: true, lineCounter });
  if (!Array.isArray(documents) || documents.length === 0) return undefined;
  const read: SimpleDocument[] = [];
  for (const document of documents) {
    if (document.errors.length > 0 || document.warnings.length > 0 || !isMap(document.contents)) return undefined;
    read.push({
      body: document.toJS({ maxAliasCount: 100 }) as Record<string, unknown>,
      spots: indexDocument(document, document.range[0], depth),
    });
  }
  expect(lineStartsOf(text)).toStrictEqual(lineCounter.lineStarts);
  return read;
}

/**
 * expectAgreement is the property: the simple reader declines, or yields what `yaml`
 * yields, with spots to full depth and to the depth the loader keeps. True when it read the text.
 */
function expectAgreement(text: string): boolean {
  const simple = readSimpleYaml(text);
  if (simple === undefined) return false;
  expect(simple, JSON.stringify(text)).toStrictEqual(yamlReference(text));
  expect(readSimpleYaml(text, INDEXED_DEPTH), JSON.stringify(text)).toStrictEqual(yamlReference(text, INDEXED_DEPTH));
  return true;
}

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

function yamlFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : yamlFiles(path);
    return /\.ya?ml$/.test(entry.name) ? [path] : [];
  });
}

// Scalars that are strings, numbers, booleans, null, or not plain at all.
const SCALARS = [
  'Recording view 1',
  'Deals [EMEA]',
  'Q&A calls',
  'it works',
  'é',
  'Zoom',
  'yes',
  'No',
  'on',
  'true',
  'False',
  'TRUE',
  'tRUE',
  'null',
  'Null',
  'nULL',
  '~',
  '0',
  '-0',
  '7',
  '-12',
  '007',
  '+3',
  '1.5',
  '1e3',
  '0x1F',
  '0o17',
  '.inf',
  '-.inf',
  '.nan',
  'NaN',
  'Infinity',
  'a: b',
  'a:b',
  'a #b',
  'a#b',
  '- x',
  '-x',
  '[x]',
  '{x}',
  'a,b',
  '@x',
  '`x',
  '*x',
  '&x',
  '!x',
  '|',
  '>',
  '%x',
  '?x',
  '? x',
  ':x',
  'http://x.test/a',
  "it's",
  '"q"',
  '',
  ' lead',
  'trail ',
  'two  spaces',
  'tab\there',
  'a\\b',
  'emoji 🎉',
  'nbsp\u00A0x',
  'ls\u2028x',
  '2024-01-01',
  '12:30',
  '1_000',
  'a\u0085b',
  '---',
  '...',
  'nbsp at end\u00A0',
  'em space\u2003',
  '\u3000ideographic',
  '🏆 Won last 90 days',
  '90 days won',
  '3rd quarter',
  '1st',
  '0x1G',
  '1e3x',
  '12e',
  '_x',
  '$x',
  '/img/x.png',
  '(EMEA) deals',
  '50%',
  '=',
  '<x',
  '<<',
  ';x',
  'x'.repeat(1030),
  'x\ud800y',
  'café ☕',
  '1 2',
];
const KEYS = [
  'kind',
  'name',
  'viewId',
  'a-b',
  '$ref',
  'null',
  'True',
  'false',
  '__proto__',
  '80',
  'a b',
  'x:y',
  '<<',
  'É',
  '_x',
  '-x',
  'k',
  'k'.repeat(1025),
  'k'.repeat(1024),
];

type Tree = string | Tree[] | { map: [string, Tree][] };

// Mostly what manifests hold, so that most texts are read; the rest probe the edges.
const scalar = fc.oneof(
  {
    arbitrary: fc.constantFrom('Recording view 1', 'Zoom', 'title', 'Desc', '42', 'true', 'fld_next_steps', 'Won'),
    weight: 15,
  },
  { arbitrary: fc.constantFrom(...SCALARS), weight: 1 },
);
const key = fc.oneof(
  {
    arbitrary: fc.constantFrom('kind', 'name', 'viewId', 'columns', 'filters', 'type', 'fieldId', 'a-b', '$ref'),
    weight: 25,
  },
  { arbitrary: fc.constantFrom(...KEYS), weight: 1 },
);
const tree: fc.Arbitrary<Tree> = fc.letrec<{ node: Tree }>((self) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalar,
    fc.array(self('node'), { maxLength: 4 }),
    fc.record({ map: fc.uniqueArray(fc.tuple(key, self('node')), { maxLength: 4, selector: ([name]) => name }) }),
  ),
})).node;
const style = fc.record({
  indent: fc.constantFrom(1, 2, 3, 4),
  compact: fc.boolean(),
  quote: fc.constantFrom('plain', 'plain', 'plain', 'single', 'double'),
  flowDepth: fc.constantFrom(0, 1, 1, 2, 9),
  comments: fc.boolean(),
});

type Style = { indent: number; compact: boolean; quote: string; flowDepth: number; comments: boolean };

function scalarText(value: string, quote: string): string {
  if (quote === 'single') return `'${value.replace(/'/g, "''")}'`;
  if (quote === 'double') return `"${value}"`;
  return value;
}

function depthOf(node: Tree): number {
  if (typeof node === 'string') return 0;
  const children = Array.isArray(node) ? node : node.map.map(([, value]) => value);
  return 1 + Math.max(0, ...children.map(depthOf));
}

function flowText(node: Tree, s: Style): string {
  if (typeof node === 'string') return scalarText(node, s.quote);
  if (Array.isArray(node)) return `[${node.map((item) => flowText(item, s)).join(', ')}]`;
  return `{${node.map.map(([k, value]) => `${k}: ${flowText(value, s)}`).join(', ')}}`;
}

/** inFlow tells whether a node is written on one line: a scalar, an empty collection, or one shallow enough for the style. */
function inFlow(node: Tree, s: Style): boolean {
  return (
    typeof node === 'string' ||
    (Array.isArray(node) ? node.length === 0 : node.map.length === 0) ||
    depthOf(node) <= s.flowDepth
  );
}

/** blockLines writes a tree as YAML lines in the style asked for; `at` is the indentation of the lines. */
function blockLines(node: Tree, s: Style, at: number, comment: () => string, root = false): string[] {
  const pad = ' '.repeat(at);
  if (typeof node === 'string' || (!root && inFlow(node, s))) return [`${pad}${flowText(node, s)}${comment()}`];
  if (Array.isArray(node)) {
    return node.flatMap((child) => {
      if (inFlow(child, s)) return [`${pad}- ${flowText(child, s)}${comment()}`];
      const inner = blockLines(child, s, at + 2, comment);
      const first = inner[0] ?? '';
      return [`${pad}- ${first.trimStart()}`, ...inner.slice(1)];
    });
  }
  return node.map.flatMap(([k, value]) => {
    if (inFlow(value, s)) return [`${pad}${k}: ${flowText(value, s)}${comment()}`];
    const deeper = Array.isArray(value) && s.compact ? at : at + s.indent;
    return [`${pad}${k}:${comment()}`, ...blockLines(value, s, deeper, comment)];
  });
}

const documentText = fc
  .tuple(
    fc.uniqueArray(fc.tuple(key, tree), { minLength: 1, maxLength: 5, selector: ([name]) => name }),
    style,
    fc.infiniteStream(fc.constantFrom('', '', '', ' # note', '\n# full line', '\n   # indented', '\n')),
  )
  .map(([entries, s, noise]) => {
    const comment = (): string => (s.comments ? noise.next().value : '');
    return blockLines({ map: entries }, s, 0, comment, true).join('\n');
  });

const fileText = fc
  .tuple(
    fc.array(documentText, { minLength: 1, maxLength: 3 }),
    fc.boolean(),
    fc.constantFrom('', '# yaml-language-server: $schema=x.json\n', '\n\n', '---\n', '# c\n---\n'),
    fc.constantFrom('\n', '\n', '\n', '\r\n'),
  )
  .map(([documents, trailingNewline, head, lineBreak]) =>
    `${head}${documents.join('\n---\n')}${trailingNewline ? '\n' : ''}`.replace(/\n/g, lineBreak),
  );

/** A near miss: one character inserted or deleted somewhere in a valid text. */
const nearMiss = fc
  .tuple(
    fileText,
    fc.nat(),
    fc.constantFrom(
      '',
      ' ',
      ':',
      '-',
      '#',
      '\n',
      '[',
      ']',
      '{',
      '}',
      ',',
      "'",
      '"',
      '\t',
      '\r',
      '&',
      '*',
      '!',
      '|',
      '  ',
    ),
  )
  .map(([text, at, insert]) => {
    const where = text.length === 0 ? 0 : at % text.length;
    return insert === ''
      ? text.slice(0, where) + text.slice(where + 1)
      : text.slice(0, where) + insert + text.slice(where);
  });

/**
 * readCount checks the property on `runs` texts of `texts` and returns how many the
 * reader read, so that a test cannot pass by declining everything.
 */
function readCount(texts: fc.Arbitrary<string>, seed: number, runs = 3000): number {
  let read = 0;
  fc.assert(
    fc.property(texts, (text) => {
      if (expectAgreement(text)) read += 1;
    }),
    { numRuns: runs, seed },
  );
  return read;
}

describe('readSimpleYaml', () => {
  it('yields what yaml yields, or declines, on generated manifests', () => {
    expect(readCount(fileText, 14)).toBeGreaterThan(800);
  });

  it('yields what yaml yields, or declines, on near misses of them', () => {
    expect(readCount(nearMiss, 41)).toBeGreaterThan(250);
  });

  it('reads every manifest of the repository as yaml does, with LF or CR LF line breaks, and the examples and exported files without yaml', () => {
    const files = [...yamlFiles(join(ROOT, 'examples')), ...yamlFiles(join(ROOT, 'test'))];
    expect(files.length).toBeGreaterThan(50);
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      expectAgreement(text);
      expectAgreement(text.replace(/\n/g, '\r\n'));
    }
    // A checkout on Windows may turn every line break into CR LF.
    for (const file of yamlFiles(join(ROOT, 'examples')).filter((path) => !path.includes('.github'))) {
      const text = readFileSync(file, 'utf8');
      expect(readSimpleYaml(text), file).toBeDefined();
      expect(readSimpleYaml(text.replace(/\n/g, '\r\n')), file).toBeDefined();
    }
    expect(readSimpleYaml(recordingViewFile(7))).toStrictEqual(yamlReference(recordingViewFile(7)));
  });

  it('declines what it does not read: problems, non-mappings, empty documents, anchors, block scalars', () => {
    for (const text of [
      'kind: A\nkind: B\n',
      '- a\n',
      'plain\n',
      '',
      '# only a comment\n',
      'kind: A\n---\n',
      '---\n---\nkind: A\n',
      'a: &x 1\nb: *x\n',
      'a: |\n  text\n',
      'a: "x\\ty"\n',
      'a:\n',
      'a: b\n c\n',
      'a: [x,\n  y]\n',
      'a: -\n',
      'a: [-]\n',
      'a: ?x\n',
      'a: %x\n',
    ]) {
      expect(readSimpleYaml(text), JSON.stringify(text)).toBeUndefined();
    }
  });
});

/** casings lists every spelling of `word` in upper and lower case: `null`, `Null`, `nUll`... */
function casings(word: string): string[] {
  return [...word].reduce<string[]>(
    (spellings, char) =>
      spellings.flatMap((start) => [...new Set([start + char.toLowerCase(), start + char.toUpperCase()])]),
    [''],
  );
}

const SIGNS = ['', '+', '-'];
// Every spelling of null, the booleans, infinity and not-a-number, in every case (`tRue`, `NuLL`, `.iNf` are strings).
const WORDS = [
  '~',
  '~~',
  ...casings('null'),
  ...casings('true'),
  ...casings('false'),
  'nul',
  'nulll',
  'truee',
  'fals',
  'yes',
  'No',
  'on',
  'OFF',
  'y',
  'n',
  ...SIGNS.flatMap((sign) =>
    ['inf', 'nan'].flatMap((word) =>
      casings(word).flatMap((spelling) => [`${sign}.${spelling}`, `${sign}${spelling}`]),
    ),
  ),
  'Infinity',
  '-Infinity',
  'NaN',
];
// Decimal, octal and hexadecimal integers, with signs, leading zeros, digits out of range and wrong prefixes.
const INTEGERS = SIGNS.flatMap((sign) => [
  ...['0', '7', '007', '12', '9007199254740993', '123456789012345678901234567890', '1_000'].map(
    (digits) => sign + digits,
  ),
  ...['0x', '0X', '0o', '0O', '0b', '0x-', 'x', 'o'].flatMap((prefix) =>
    ['', '0', '7', '17', '8', '1F', 'ff', 'g'].map((digits) => sign + prefix + digits),
  ),
]);
// Floats: every mantissa with every exponent, signed or not.
const FLOATS = SIGNS.flatMap((sign) =>
  ['0', '1', '01', '1.', '1.5', '1.50', '.5', '0.0', '.', '', '1.2.3', '1..5'].flatMap((mantissa) =>
    ['', 'e3', 'E3', 'e+3', 'e-3', 'E-03', 'e', 'E+', 'e3.5', 'e400', 'e-400', 'x3'].map(
      (exponent) => sign + mantissa + exponent,
    ),
  ),
);
// What starts as a number but is a string.
const NEAR_NUMBERS = [
  '2024-01-01',
  '1 2',
  '1,5',
  '1e3 x',
  '0x1F x',
  '.5.',
  '+',
  '.',
  '-x',
  '+x',
  '.x',
  '~x',
  '- ',
  '1st',
  '90 days',
];

/** PLAIN is every scalar above that can be written plain anywhere: not empty, no `- ` item start, no flow indicator, colon or comment character. */
const PLAIN = [...new Set([...WORDS, ...INTEGERS, ...FLOATS, ...NEAR_NUMBERS])].filter(
  (scalar) => scalar !== '' && !/^-(?: |$)/.test(scalar) && !/[,[\]{}#:]/.test(scalar) && scalar.trim() === scalar,
);

describe('plain scalars: every spelling of every core-schema tag', () => {
  const yamlValue = (scalar: string): unknown =>
    (parseAllDocuments(`a: ${scalar}\n`)[0]?.toJS() as { a: unknown } | undefined)?.a;

  it('spells every core-schema value (checked against yaml: 4 nulls written plain, 6 booleans, 12 infinities and not-a-numbers, numbers of each form)', () => {
    const kinds = (test: (value: unknown) => boolean): string[] => PLAIN.filter((scalar) => test(yamlValue(scalar)));
    expect(kinds((value) => value === null).sort()).toEqual(['NULL', 'Null', 'null', '~']);
    expect(kinds((value) => typeof value === 'boolean').sort()).toEqual([
      'FALSE',
      'False',
      'TRUE',
      'True',
      'false',
      'true',
    ]);
    expect(
      kinds((value) => typeof value === 'number' && !Number.isFinite(value))
        .filter((scalar) => /[a-z]$/i.test(scalar))
        .sort(),
    ).toEqual(['+.INF', '+.Inf', '+.inf', '-.INF', '-.Inf', '-.inf', '.INF', '.Inf', '.NAN', '.NaN', '.inf', '.nan']);
    expect(kinds((value) => typeof value === 'number').length).toBeGreaterThan(150);
    expect(kinds((value) => typeof value === 'string').length).toBeGreaterThan(300);
  });

  it('reads each, as a value, an item, in flow collections and as a key, as yaml does (values and offsets)', () => {
    for (const scalar of PLAIN) {
      expect(readSimpleYaml(`a: ${scalar}\n`), scalar).toBeDefined();
      expect(
        expectAgreement(
          `a: ${scalar}  # note\nb:\n  - ${scalar}\n  - x\nc: [${scalar}, ${scalar}]\nd: {b: ${scalar}}\n`,
        ),
        scalar,
      ).toBe(true);
      expectAgreement(`a:\n  ${scalar}: x\n`);
    }
  });

  it("reads the strings no core tag accepts and the values the tags resolve, spelled as yaml's own test regexes generate them", () => {
    const tags =
      parseAllDocuments('a: 1\n')[0]?.schema.tags.filter((tag) => tag.default === true && tag.test !== undefined) ?? [];
    expect(tags.length).toBeGreaterThan(0);
    for (const tag of tags) {
      fc.assert(
        fc.property(fc.stringMatching(tag.test as RegExp), (scalar) => {
          if (scalar === '' || /^-(?: |$)/.test(scalar)) return;
          expect(readSimpleYaml(`a: ${scalar}\n`), scalar).toBeDefined();
          expectAgreement(`a: ${scalar}\nb: [${scalar}]\n`);
        }),
        { numRuns: 300, seed: 24 },
      );
    }
  });
});
