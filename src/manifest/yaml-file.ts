import {
  LineCounter,
  isAlias,
  isMap,
  isPair,
  isScalar,
  isSeq,
  parseAllDocuments,
  visit,
  type Document,
  type Node,
} from 'yaml';
import type { FileText } from './file-text.js';
import { failedFile, INDEXED_DEPTH, type ParsedFile, type ReadDocument } from './parsed-file.js';
import { taggedValues } from './plain-data.js';
import { makeProblem } from './problems.js';
import type { Problem, SourcePosition } from './types.js';
import { indexDocument } from './yaml-index.js';
import { decodePointer, locateOffset, type DocumentSpots } from './yaml-positions.js';

/**
 * The `yaml` library reads every file the simple reader declines: YAML beyond plain
 * manifests, and every file with a problem, which it reports with its position. The
 * loader imports this module only when such a file comes up.
 */

/**
 * MAX_ALIAS_COUNT bounds alias expansion per document: YAML aliases can expand
 * exponentially ("billion laughs"), so converting stops with an error past it.
 */
const MAX_ALIAS_COUNT = 100;

/** PARSE_OPTIONS are the loader's parse options; a file parsed again with them (as pull splices it) yields the same nodes at the same offsets. */
export const PARSE_OPTIONS = { uniqueKeys: true, merge: true } as const;

/**
 * parseWithYaml parses files in order, as one by one. (The parser reads
 * `process.env.LOG_TOKENS` once per token, a call into Node's environment each time;
 * that cost is accepted rather than replacing `process.env` around the library.)
 */
export function parseWithYaml(entries: readonly FileText[]): ParsedFile[] {
  return entries.map(({ file, text }) => parseYamlFile(file, text));
}

/** indexAll parses a file's text again and indexes every document to full depth. */
function indexAll(text: string): DocumentSpots[] {
  const parsed = parseAllDocuments(text, PARSE_OPTIONS);
  return Array.isArray(parsed) ? parsed.map((document) => indexDocument(document, document.range[0])) : [];
}

/** parseYamlFile parses every YAML document of one file, reporting all problems. */
function parseYamlFile(file: string, text: string): ParsedFile {
  const lineCounter = new LineCounter();
  let yamlDocuments: Document.Parsed[];
  try {
    const parsed = parseAllDocuments(text, { ...PARSE_OPTIONS, lineCounter, prettyErrors: true });
    yamlDocuments = Array.isArray(parsed) ? parsed : [];
  } catch (error) {
    // The YAML parser recurses per nesting level: thousands of levels exhaust the stack.
    if (!(error instanceof RangeError)) throw error;
    return failedFile(file, tooDeep({ file, line: 1, column: 1 }, 0));
  }
  const documents: ReadDocument[] = [];
  const problems: Problem[] = [];
  // A cheap pre-check on the text: no `!`, no tag.
  const mayBeTagged = text.includes('!');
  yamlDocuments.forEach((yamlDocument, index) => {
    const result = readDocument(file, index, yamlDocument, lineCounter, mayBeTagged);
    problems.push(...result.problems);
    if (result.document !== undefined) documents.push(result.document);
  });
  return { file, documents, problems, lineStarts: lineCounter.lineStarts, indexAll: () => indexAll(text) };
}

function readDocument(
  file: string,
  index: number,
  yamlDocument: Document.Parsed,
  lineCounter: LineCounter,
  mayBeTagged: boolean,
): { document?: ReadDocument; problems: Problem[] } {
  // Built to full depth on first use, for a problem: a document with syntax errors never needs it.
  let spots: DocumentSpots | undefined;
  const position = (pointer: string): SourcePosition => {
    spots ??= indexDocument(yamlDocument, yamlDocument.range[0]);
    const { line, col } = lineCounter.linePos(locateOffset(spots, pointer) ?? spots.fallbackOffset);
    return { file, line, column: col };
  };
  const problems: Problem[] = [];
  for (const error of yamlDocument.errors) {
    const [line, column] = [error.linePos?.[0].line ?? 1, error.linePos?.[0].col ?? 1];
    const duplicate = error.code === 'DUPLICATE_KEY';
    // The parser recurses per nesting level and reports a blown stack as a parse error,
    // once or more depending on the stack left: one cause, reported once per document.
    if (error.message.includes('Maximum call stack size exceeded')) {
      if (!problems.some((problem) => problem.code === 'yaml.too-deep'))
        problems.push(tooDeep({ file, line, column }, index));
      continue;
    }
    problems.push(
      makeProblem({
        code: duplicate ? 'yaml.duplicate-key' : 'yaml.syntax',
        message: duplicate ? 'this key appears twice in the same mapping' : firstLine(error.message),
        at: { file, line, column },
        document: index,
      }),
    );
  }
  for (const warning of yamlDocument.warnings) {
    problems.push(
      makeProblem({
        severity: 'warning',
        code: 'yaml.warning',
        message: firstLine(warning.message),
        at: { file, line: warning.linePos?.[0].line ?? 1, column: warning.linePos?.[0].col ?? 1 },
        document: index,
      }),
    );
  }
  if (yamlDocument.errors.length > 0) return { problems };
  const contents = yamlDocument.contents;
  // An empty document (`---` alone, comments only) declares nothing: skip it.
  if (contents === null || (isScalar(contents) && contents.value === null)) return { problems };
  if (!isMap(contents)) {
    const what = isSeq(contents) ? 'a list' : 'a single value';
    problems.push(
      makeProblem({
        code: 'manifest.not-an-object',
        message: `a manifest document must be a mapping with a "kind"; this one is ${what}`,
        at: position(''),
        document: index,
      }),
    );
    return { problems };
  }
  let body: unknown;
  try {
    body = yamlDocument.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (error) {
    problems.push(conversionProblem(error, { file, index, document: yamlDocument, lineCounter, start: position('') }));
    return { problems };
  }
  // Pairs (`!!pairs`) become arrays of one-entry maps, so the walk finds them as maps.
  const tagged = mayBeTagged ? taggedValues(body) : [];
  if (tagged.length > 0) {
    problems.push(
      ...tagged.map(({ pointer, what }) =>
        makeProblem({
          code: 'yaml.unsupported-type',
          message: `${pointer === '' ? 'the document' : `"${decodePointer(pointer).join('.')}"`} is ${what}; manifests hold only strings, numbers, booleans, null, lists and mappings`,
          at: position(pointer),
          document: index,
          pointer,
          hint: 'remove the tag and write the value as plain YAML',
        }),
      ),
    );
    return { problems };
  }
  spots ??= indexDocument(yamlDocument, yamlDocument.range[0], INDEXED_DEPTH);
  return { document: { index, body: body as Record<string, unknown>, spots }, problems };
}

/**
 * conversionProblem reports why a document that parsed could not become plain data:
 * an alias bomb, a merge key (`<<`) given something other than mappings, or nesting
 * too deep for the converter. Never a crash: the user gets a position to fix.
 */
function conversionProblem(
  error: unknown,
  where: { file: string; index: number; document: Document.Parsed; lineCounter: LineCounter; start: SourcePosition },
): Problem {
  const { file, index, document, lineCounter, start } = where;
  const unresolved = error instanceof ReferenceError ? /Unresolved alias[^:]*:\s*(\S+)/.exec(error.message) : null;
  if (unresolved !== null) {
    const name = unresolved[1] ?? '';
    return makeProblem({
      code: 'yaml.unknown-alias',
      message: `the alias *${name} names no anchor &${name} before it in this document`,
      at: firstPosition(document, lineCounter, file, alias(name)) ?? start,
      document: index,
      hint: 'define the anchor before the alias; anchors do not carry across `---` documents',
    });
  }
  if (error instanceof ReferenceError) {
    return makeProblem({
      code: 'yaml.alias-limit',
      message: `aliases expand to too many nodes (limit ${MAX_ALIAS_COUNT}); this looks like an alias bomb`,
      at: firstPosition(document, lineCounter, file, alias()) ?? start,
      document: index,
      hint: 'write the values out instead of nesting aliases',
    });
  }
  if (error instanceof RangeError) return tooDeep(start, index);
  return makeProblem({
    code: 'yaml.merge',
    message: `cannot read this document: ${firstLine(error instanceof Error ? error.message : String(error))}`,
    at: firstPosition(document, lineCounter, file, mergeKey) ?? start,
    document: index,
    hint: 'a merge key (<<) takes a mapping, an alias to one, or a list of them',
  });
}

function tooDeep(at: SourcePosition, document: number): Problem {
  return makeProblem({
    code: 'yaml.too-deep',
    message: 'the YAML nests too deeply to be read',
    at,
    document,
    hint: 'manifests need only a few levels of nesting: check for runaway brackets or indentation',
  });
}

/** firstPosition is where the first node `pick` answers (visiting the document in order) starts. */
function firstPosition(
  document: Document.Parsed,
  lineCounter: LineCounter,
  file: string,
  pick: (node: unknown) => Node | undefined,
): SourcePosition | undefined {
  let offset: number | undefined;
  visit(document, (_key, node) => {
    const picked = pick(node);
    if (picked === undefined) return undefined;
    offset = picked.range?.[0];
    return visit.BREAK;
  });
  if (offset === undefined) return undefined;
  const { line, col } = lineCounter.linePos(offset);
  return { file, line, column: col };
}

/** alias picks an alias: the one named `name`, when given. */
function alias(name?: string): (node: unknown) => Node | undefined {
  return (node) => (isAlias(node) && (name === undefined || node.source === name) ? node : undefined);
}

/** mergeKey picks the key of a merge pair (`<<`). */
export function mergeKey(node: unknown): Node | undefined {
  // With merge keys on, the parser turns a plain `<<` key into Symbol(<<).
  const key = isPair(node) && isScalar(node.key) ? node.key : undefined;
  const value: unknown = key?.value;
  return value === '<<' || (typeof value === 'symbol' && value.description === '<<') ? key : undefined;
}

function firstLine(message: string): string {
  const [first = message] = message.split('\n');
  return first.replace(/ at line \d+, column \d+:?$/, '');
}
