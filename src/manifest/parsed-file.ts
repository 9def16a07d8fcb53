import { makeProblem } from './problems.js';
import { lineStartsOf, readSimpleYaml } from './simple-yaml.js';
import type { ManifestDocument, Problem, SourcePosition } from './types.js';
import type { FileText } from './file-text.js';
import { locateOffset, type DocumentSpots } from './yaml-positions.js';

/**
 * What reading one manifest file yields, whichever reader read it: the simple reader
 * (src/manifest/simple-yaml.ts) for the plain YAML nearly every manifest is written
 * in, the `yaml` library (src/manifest/yaml-file.ts, loaded only when a file needs it)
 * for everything else.
 */

/**
 * MAX_FILE_BYTES is the largest manifest file read (5 MiB). Thousands of views fit
 * in far less; anything bigger is a mistake (a log, a dump) and is refused unread.
 */
export const MAX_FILE_BYTES = 5 * 1024 * 1024;

/**
 * INDEXED_DEPTH is how deep the spot tree of a clean document is built while parsing:
 * the root and its attributes, whose positions plan reports for every view (name,
 * viewId). A position deeper down is asked for only about a problem, or for the few
 * pin and automation documents: the file is then read again and fully indexed once.
 */
export const INDEXED_DEPTH = 1;

/** RawDocument is one YAML document that parsed cleanly to a mapping, before any schema check. */
export interface RawDocument extends Omit<ManifestDocument, 'kind'> {
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
 * offsets where its lines start, and how to index its text to full depth again (with
 * the reader that read it). rawDocuments gives the documents their positions.
 */
export interface ParsedFile {
  file: string;
  documents: ReadDocument[];
  problems: Problem[];
  lineStarts: number[];
  indexAll(): DocumentSpots[];
}

/** failedFile is a file that yields one problem and nothing else. */
export function failedFile(file: string, problem: Problem): ParsedFile {
  return { file, documents: [], problems: [problem], lineStarts: [], indexAll: () => [] };
}

/**
 * readPlainFile reads a file the simple reader understands; one it does not comes back
 * as its decoded text, for the `yaml` library. A file too large or not UTF-8 is read
 * as its problem.
 */
export function readPlainFile(file: string, bytes: Uint8Array): ParsedFile | FileText {
  if (bytes.byteLength > MAX_FILE_BYTES) return failedFile(file, tooLarge(file, bytes.byteLength));
  const decoded = decodeUtf8(file, bytes);
  if ('problem' in decoded) return failedFile(file, decoded.problem);
  const { text } = decoded;
  const simple = readSimpleYaml(text, INDEXED_DEPTH);
  if (simple === undefined) return { file, text };
  const documents = simple.map(({ body, spots }, index) => ({ index, body, spots }));
  const indexAll = (): DocumentSpots[] => (readSimpleYaml(text) ?? []).map((document) => document.spots);
  return { file, documents, problems: [], lineStarts: lineStartsOf(text), indexAll };
}

/** rawDocuments gives the documents of a parsed file their positions, found in the file's spot trees. */
export function rawDocuments(parsed: ParsedFile): RawDocument[] {
  if (parsed.documents.length === 0) return [];
  const { file, lineStarts } = parsed;
  let reparsed: DocumentSpots[] | undefined;
  return parsed.documents.map(({ index, body, spots }) => {
    const position = (pointer: string, key: boolean): SourcePosition => {
      const full = (): number | undefined => {
        const all = (reparsed ??= parsed.indexAll())[index];
        return all === undefined ? undefined : locateOffset(all, pointer, key);
      };
      return { file, ...lineColumn(lineStarts, locateOffset(spots, pointer, key) ?? full() ?? spots.fallbackOffset) };
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

/**
 * lineColumn turns an offset into a 1-based line and column by a binary search of the
 * line starts, as the `yaml` library's LineCounter does.
 */
export function lineColumn(lineStarts: readonly number[], offset: number): { line: number; column: number } {
  let low = 0;
  let high = lineStarts.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if ((lineStarts[middle] ?? 0) < offset) low = middle + 1;
    else high = middle;
  }
  if (lineStarts[low] === offset) return { line: low + 1, column: 1 };
  if (low === 0) return { line: 0, column: offset };
  return { line: low, column: offset - (lineStarts[low - 1] ?? 0) + 1 };
}

// One decoder for every file: each decode call without `stream` starts afresh.
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * decodeUtf8 decodes strictly: a manifest in another encoding would otherwise load
 * with replacement characters in names. A leading BOM is dropped.
 */
function decodeUtf8(file: string, bytes: Uint8Array): { text: string } | { problem: Problem } {
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

export function tooLarge(file: string, size: number): Problem {
  return makeProblem({
    code: 'file.too-large',
    message: `the file has ${size} bytes; manifests are limited to ${MAX_FILE_BYTES} bytes (5 MiB)`,
    at: { file, line: 1, column: 1 },
    hint: 'split the manifests into several files',
  });
}
