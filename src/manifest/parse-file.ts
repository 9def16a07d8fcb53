import { LineCounter, isMap, isScalar, isSeq, parseAllDocuments, visit, type Document } from 'yaml';
import { mayHoldTaggedValues, taggedValues } from './plain-data.js';
import { makeProblem } from './problems.js';
import { lineStartsOf, readSimpleYaml } from './simple-yaml.js';
import type { Problem, SourcePosition } from './types.js';
import { decodePointer, indexDocument, locateOffset, type DocumentSpots } from './yaml-positions.js';

/**
 * MAX_FILE_BYTES is the largest manifest file read (5 MiB). Thousands of views fit
 * in far less; anything bigger is a mistake (a log, a dump) and is refused unread.
 */
export const MAX_FILE_BYTES = 5 * 1024 * 1024;

/**
 * MAX_ALIAS_COUNT bounds alias expansion per document: YAML aliases can expand
 * exponentially ("billion laughs"), so converting stops with an error past it.
 */
export const MAX_ALIAS_COUNT = 100;

/** RawDocument is one YAML document that parsed cleanly to a mapping, before any schema check. */
export interface RawDocument {
  file: string;
  index: number;
  body: Record<string, unknown>;
  position: SourcePosition;
  positionOf(pointer: string): SourcePosition;
  keyPositionOf(pointer: string): SourcePosition;
}

/** ReadDocument is one document that parsed cleanly to a mapping, as plain data: its body and where its nodes are. */
export interface ReadDocument {
  index: number;
  body: Record<string, unknown>;
  spots: DocumentSpots;
}

/**
 * ParsedFile is what one file yields: its clean mapping documents, its problems, the
 * offsets where its lines start, and its text. rawDocuments gives the documents their
 * positions.
 */
export interface ParsedFile {
  file: string;
  documents: ReadDocument[];
  problems: Problem[];
  lineStarts: number[];
  /** The decoded text ('' when the file could not be read or decoded). */
  text: string;
}

/**
 * INDEXED_DEPTH is how deep the spot tree of a clean document is built while parsing:
 * the root and its attributes, whose positions plan reports for every view (name,
 * viewId). A position deeper down is asked for only about a problem, or for the few
 * pin and automation documents: the file is then parsed again and fully indexed once.
 */
export const INDEXED_DEPTH = 1;

/** The parse options; a file parsed again with them yields the same nodes at the same offsets. */
const PARSE_OPTIONS = { uniqueKeys: true, merge: true } as const;

/** rawDocuments gives the documents of a parsed file their positions, found in the file's spot trees. */
export function rawDocuments(parsed: ParsedFile): RawDocument[] {
  if (parsed.documents.length === 0) return [];
  const lineCounter = new LineCounter();
  lineCounter.lineStarts = parsed.lineStarts;
  const { file } = parsed;
  let reparsed: DocumentSpots[] | undefined;
  const fullSpots = (index: number): DocumentSpots | undefined => {
    reparsed ??= indexAll(parsed.text);
    return reparsed[index];
  };
  return parsed.documents.map(({ index, body, spots }) => {
    const position = (pointer: string, key: boolean): SourcePosition => {
      const full = (): number | undefined => {
        const all = fullSpots(index);
        return all === undefined ? undefined : locateOffset(all, pointer, key);
      };
      const { line, col } = lineCounter.linePos(locateOffset(spots, pointer, key) ?? full() ?? spots.fallbackOffset);
      return { file, line, column: col };
    };
    return {
      file,
      index,
      body,
      position: position('', false),
      positionOf: (pointer) => position(pointer, false),
      keyPositionOf: (pointer) => position(pointer, true),
    };
  });
}

/** indexAll parses a file's text again and indexes every document to full depth. */
function indexAll(text: string): DocumentSpots[] {
  const simple = readSimpleYaml(text);
  if (simple !== undefined) return simple.map((document) => document.spots);
  const parsed = parseAllDocuments(text, PARSE_OPTIONS);
  return Array.isArray(parsed) ? parsed.map((document) => indexDocument(document, document.range[0])) : [];
}

// One decoder for every file: each decode call without `stream` starts afresh.
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * decodeUtf8 decodes strictly: a manifest in another encoding would otherwise load
 * with replacement characters in names. A leading BOM is dropped.
 */
export function decodeUtf8(file: string, bytes: Uint8Array): { text: string } | { problem: Problem } {
  try {
    return { text: STRICT_UTF8.decode(bytes) };
  } catch {
    // Locate the first bad sequence: the lenient decoding marks it with U+FFFD.
    const lenient = new TextDecoder('utf-8').decode(bytes);
    const before = lenient.slice(0, Math.max(0, lenient.indexOf('\uFFFD')));
    const lines = before.split('\n');
    const at = { file, line: lines.length, column: (lines[lines.length - 1]?.length ?? 0) + 1 };
    return {
      problem: makeProblem({
        code: 'file.not-utf8',
        message: 'the file is not valid UTF-8',
        at,
        hint: 'save the file as UTF-8',
      }),
    };
  }
}

/** parseManifestFile parses every YAML document of one file, reporting all problems. */
export function parseManifestFile(file: string, bytes: Uint8Array): ParsedFile {
  const failed = (problem: Problem): ParsedFile => ({ file, documents: [], problems: [problem], lineStarts: [], text: '' });
  if (bytes.byteLength > MAX_FILE_BYTES) return failed(tooLarge(file, bytes.byteLength));
  const decoded = decodeUtf8(file, bytes);
  if ('problem' in decoded) return failed(decoded.problem);
  const simple = readSimpleYaml(decoded.text, INDEXED_DEPTH);
  if (simple !== undefined) {
    const documents = simple.map(({ body, spots }, index) => ({ index, body, spots }));
    return { file, documents, problems: [], lineStarts: lineStartsOf(decoded.text), text: decoded.text };
  }
  const lineCounter = new LineCounter();
  let yamlDocuments: Document.Parsed[];
  try {
    const parsed = parseAllDocuments(decoded.text, { ...PARSE_OPTIONS, lineCounter, prettyErrors: true });
    yamlDocuments = Array.isArray(parsed) ? parsed : [];
  } catch (error) {
    // The YAML parser recurses per nesting level: thousands of levels exhaust the stack.
    if (!(error instanceof RangeError)) throw error;
    return failed(tooDeep({ file, line: 1, column: 1 }, 0));
  }
  const documents: ReadDocument[] = [];
  const problems: Problem[] = [];
  const mayBeTagged = mayHoldTaggedValues(decoded.text);
  yamlDocuments.forEach((yamlDocument, index) => {
    const result = readDocument(file, index, yamlDocument, lineCounter, mayBeTagged);
    problems.push(...result.problems);
    if (result.document !== undefined) documents.push(result.document);
  });
  return { file, documents, problems, lineStarts: lineCounter.lineStarts, text: decoded.text };
}

/** tooLarge is the problem of a file over MAX_FILE_BYTES. */
export function tooLarge(file: string, size: number): Problem {
  return makeProblem({
    code: 'file.too-large',
    message: `the file has ${size} bytes; manifests are limited to ${MAX_FILE_BYTES} bytes (5 MiB)`,
    at: { file, line: 1, column: 1 },
    hint: 'split the manifests into several files',
  });
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
    // The parser recurses per nesting level and reports a blown stack as a parse error.
    if (error.message.includes('Maximum call stack size exceeded')) {
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
  if (mayBeTagged) {
    const tagged = taggedValues(body);
    if (tagged.length > 0) {
      problems.push(...tagged.map(({ pointer, what }) =>
        makeProblem({
          code: 'yaml.unsupported-type',
          message: `${pointer === '' ? 'the document' : `"${decodePointer(pointer).join('.')}"`} is ${what}; manifests hold only strings, numbers, booleans, null, lists and mappings`,
          at: position(pointer),
          document: index,
          pointer,
          hint: 'remove the tag and write the value as plain YAML',
        })));
      return { problems };
    }
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
      at: firstAliasPosition(document, lineCounter, file, name) ?? start,
      document: index,
      hint: 'define the anchor before the alias; anchors do not carry across `---` documents',
    });
  }
  if (error instanceof ReferenceError) {
    return makeProblem({
      code: 'yaml.alias-limit',
      message: `aliases expand to too many nodes (limit ${MAX_ALIAS_COUNT}); this looks like an alias bomb`,
      at: firstAliasPosition(document, lineCounter, file) ?? start,
      document: index,
      hint: 'write the values out instead of nesting aliases',
    });
  }
  if (error instanceof RangeError) return tooDeep(start, index);
  return makeProblem({
    code: 'yaml.merge',
    message: `cannot read this document: ${firstLine(error instanceof Error ? error.message : String(error))}`,
    at: firstMergePosition(document, lineCounter, file) ?? start,
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

function firstMergePosition(document: Document.Parsed, lineCounter: LineCounter, file: string): SourcePosition | undefined {
  let offset: number | undefined;
  visit(document, {
    Pair(_key, pair) {
      // With merge keys on, the parser turns a plain `<<` key into Symbol(<<).
      const node = isScalar(pair.key) ? pair.key : undefined;
      const key: unknown = node?.value;
      if (node !== undefined && (key === '<<' || (typeof key === 'symbol' && key.description === '<<'))) {
        offset = node.range?.[0];
        return visit.BREAK;
      }
      return undefined;
    },
  });
  if (offset === undefined) return undefined;
  const { line, col } = lineCounter.linePos(offset);
  return { file, line, column: col };
}

function firstAliasPosition(document: Document.Parsed, lineCounter: LineCounter, file: string, name?: string): SourcePosition | undefined {
  let offset: number | undefined;
  visit(document, {
    Alias(_key, node) {
      if (name !== undefined && node.source !== name) return undefined;
      offset = node.range?.[0];
      return visit.BREAK;
    },
  });
  if (offset === undefined) return undefined;
  const { line, col } = lineCounter.linePos(offset);
  return { file, line, column: col };
}

function firstLine(message: string): string {
  const [first = message] = message.split('\n');
  return first.replace(/ at line \d+, column \d+:?$/, '');
}
