import { parseManifestFile, type ParsedFile } from './parse-file.js';

/** FileBytes is one file to parse: its name as problems report it, and its bytes. */
export interface FileBytes {
  file: string;
  bytes: Uint8Array;
}

/**
 * parseEntries parses files in order, as the loader would one by one. The YAML
 * parser reads `process.env.LOG_TOKENS` once per token (and the composer
 * `LOG_STREAM` once per document: node_modules/yaml/dist/parse/parser.js and
 * compose/composer.js); each read of Node's environment object is a call into the
 * C++ environment, which made up about 40% of parsing. The parsing below is
 * synchronous, so for its duration `process.env` is a plain copy: the parser sees the
 * same values, and no other code runs before the real one is back.
 */
export function parseEntries(entries: readonly FileBytes[]): ParsedFile[] {
  if (entries.length === 0) return [];
  const environment = process.env;
  process.env = { ...environment };
  try {
    return entries.map(({ file, bytes }) => parseManifestFile(file, bytes));
  } finally {
    process.env = environment;
  }
}

/**
 * FileBatch is files to parse, sent to a worker thread: their names and their bytes
 * end to end in one buffer (one transfer instead of thousands of copies), `ends[i]`
 * being where file i stops.
 */
export interface FileBatch {
  files: string[];
  bytes: Uint8Array;
  ends: number[];
}

/** packBatch lays the files' bytes end to end in a buffer of its own, which can be transferred. */
export function packBatch(entries: readonly FileBytes[]): FileBatch {
  const bytes = new Uint8Array(entries.reduce((total, entry) => total + entry.bytes.byteLength, 0));
  const ends: number[] = [];
  let at = 0;
  for (const entry of entries) {
    bytes.set(entry.bytes, at);
    at += entry.bytes.byteLength;
    ends.push(at);
  }
  return { files: entries.map((entry) => entry.file), bytes, ends };
}

/** parseBatch parses every file of a batch, in order. */
export function parseBatch(batch: FileBatch): ParsedFile[] {
  let start = 0;
  return parseEntries(batch.files.map((file, index) => {
    const end = batch.ends[index] ?? start;
    const entry = { file, bytes: batch.bytes.subarray(start, end) };
    start = end;
    return entry;
  }));
}
