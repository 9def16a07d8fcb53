import { failedFile, MAX_FILE_BYTES, readPlainFile, tooLarge, type ParsedFile } from './parsed-file.js';
import type { ManifestSource, ReadResult } from './source.js';
import { unreadable } from './unreadable.js';
import type { FileText } from './file-text.js';

/**
 * parseFiles reads `files` and parses them, in order, each into a ParsedFile (a file
 * that cannot be read is one with that problem). The simple reader reads what it
 * can; the `yaml` library, imported only then, reads the rest.
 */
export async function parseFiles(files: readonly string[], source: ManifestSource): Promise<ParsedFile[]> {
  const read: (ParsedFile | FileText)[] = [];
  for (const file of files) read.push(await readFile(file, source));
  const rest = read.filter((entry): entry is FileText => !isParsed(entry));
  if (rest.length === 0) return read.filter(isParsed);
  const { parseWithYaml } = await import('./yaml-file.js');
  const parsed = parseWithYaml(rest);
  let next = 0;
  return read.map((entry) => (isParsed(entry) ? entry : (parsed[next++] as ParsedFile)));
}

function isParsed(entry: ParsedFile | FileText): entry is ParsedFile {
  return 'documents' in entry;
}

/** readFile reads one file: parsed when the simple reader can, else its text for the `yaml` library. */
async function readFile(file: string, source: ManifestSource): Promise<ParsedFile | FileText> {
  let read: ReadResult;
  try {
    read = await source.read(file, MAX_FILE_BYTES);
  } catch (error) {
    return failedFile(file, unreadable(source, file, error));
  }
  if ('tooLarge' in read) return failedFile(file, tooLarge(file, read.tooLarge));
  return readPlainFile(file, read.bytes);
}
