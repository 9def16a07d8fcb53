import { MAX_FILE_BYTES, parseManifestFile, tooLarge, type ParsedFile } from './parse-file.js';
import type { ManifestSource } from './source.js';
import type { Problem } from './types.js';
import { unreadable } from './unreadable.js';

/**
 * parseFiles reads `files`, then parses them in one synchronous pass, in order, each
 * into a ParsedFile (a file that cannot be read is one with that problem).
 */
export async function parseFiles(files: readonly string[], source: ManifestSource): Promise<ParsedFile[]> {
  const outcomes: ReadOutcome[] = [];
  for (const file of files) outcomes.push(await readFile(file, source));
  const parsed = parseEntries(outcomes.filter((outcome): outcome is FileBytes => 'bytes' in outcome));
  let next = 0;
  return outcomes.map((outcome) => ('bytes' in outcome ? (parsed[next++] as ParsedFile) : outcome.parsed));
}

/** FileBytes is one file to parse: its name as problems report it, and its bytes. */
export interface FileBytes {
  file: string;
  bytes: Uint8Array;
}

/**
 * parseEntries parses files in order, as one by one. The YAML parser reads
 * `process.env.LOG_TOKENS` once per token (and the composer `LOG_STREAM` once per
 * document: node_modules/yaml/dist/parse/parser.js and compose/composer.js); each
 * read of Node's environment object is a call into the C++ environment, which made
 * up about 40% of parsing. The parsing below is synchronous, so for its duration
 * `process.env` is a plain copy: the parser sees the same values, and no other code
 * runs before the real one is back.
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

type ReadOutcome = FileBytes | { parsed: ParsedFile };

async function readFile(file: string, source: ManifestSource): Promise<ReadOutcome> {
  const failed = (problem: Problem): ReadOutcome => ({ parsed: { file, documents: [], problems: [problem], lineStarts: [], text: '' } });
  try {
    const read = await source.read(file, MAX_FILE_BYTES);
    return 'tooLarge' in read ? failed(tooLarge(file, read.tooLarge)) : { file, bytes: read.bytes };
  } catch (error) {
    return failed(unreadable(source, file, error));
  }
}
