import { Worker } from 'node:worker_threads';
import { packBatch, parseEntries, type FileBytes } from './parse-batch.js';
import { MAX_FILE_BYTES, tooLarge, type ParsedFile } from './parse-file.js';
import type { ManifestSource } from './source.js';
import type { Problem } from './types.js';
import { unreadable } from './unreadable.js';

/**
 * PARALLEL_FROM is the file count from which parsing is shared with a worker thread.
 * A worker costs tens of milliseconds to start (it loads the YAML library afresh),
 * which parsing a few hundred small files does not win back; thousands of files,
 * the way `export` lays out a workspace, spend most of a run in the YAML parser.
 */
export const PARALLEL_FROM = 1000;

/**
 * WORKER_SHARE is the part of the files the worker parses. Less than half: it starts
 * while the main thread reads the files, then parses cold, and the main thread
 * still checks every document against its schema once both are done.
 */
export const WORKER_SHARE = 0.45;

/** ParseOptions tunes how files are parsed; tests lower `parallelFrom` to use the worker on a few files. */
export interface ParseOptions {
  parallelFrom?: number;
}

/**
 * parseFiles reads and parses `files`, in order, each into a ParsedFile (a file that
 * cannot be read is one with that problem). From PARALLEL_FROM files on, a worker
 * thread parses the first share while this thread parses the rest: the results are
 * plain data, so they are the same whichever thread parsed them.
 */
export async function parseFiles(files: readonly string[], source: ManifestSource, options: ParseOptions = {}): Promise<ParsedFile[]> {
  const parallel = files.length >= (options.parallelFrom ?? PARALLEL_FROM);
  const split = parallel ? Math.floor(files.length * WORKER_SHARE) : 0;
  // Started first, so that its start-up overlaps the reading below.
  const worker = split > 0 ? startWorker() : undefined;
  try {
    const results = new Array<ParsedFile>(files.length);
    const toWorker: number[] = [];
    const toParse: number[] = [];
    const read: FileBytes[] = [];
    for (const [at, file] of files.entries()) {
      if (at === split && worker !== undefined) {
        worker.send(read.splice(0));
        toWorker.push(...toParse.splice(0));
      }
      const outcome = await readFile(file, source);
      if ('parsed' in outcome) {
        results[at] = outcome.parsed;
      } else {
        read.push({ file, bytes: outcome.bytes });
        toParse.push(at);
      }
    }
    const parsed = parseEntries(read);
    toParse.forEach((at, index) => {
      results[at] = parsed[index] as ParsedFile;
    });
    if (worker !== undefined) {
      const fromWorker = await worker.answer;
      toWorker.forEach((at, index) => {
        results[at] = fromWorker[index] as ParsedFile;
      });
    }
    return results;
  } finally {
    void worker?.terminate();
  }
}

type ReadOutcome = { bytes: Uint8Array } | { parsed: ParsedFile };
async function readFile(file: string, source: ManifestSource): Promise<ReadOutcome> {
  const failed = (problem: Problem): ReadOutcome => ({ parsed: { file, documents: [], problems: [problem], lineStarts: [] } });
  try {
    const read = await source.read(file, MAX_FILE_BYTES);
    return 'tooLarge' in read ? failed(tooLarge(file, read.tooLarge)) : { bytes: read.bytes };
  } catch (error) {
    return failed(unreadable(source, file, error));
  }
}

interface ParseWorker {
  send(files: readonly FileBytes[]): void;
  answer: Promise<ParsedFile[]>;
  terminate(): Promise<number>;
}

/**
 * startWorker starts the parse worker (parse-worker.ts). Run from the TypeScript
 * sources (the tests), the worker is the .ts file, loaded through tsx as the tests are.
 */
function startWorker(): ParseWorker {
  const script = new URL(import.meta.url.endsWith('.ts') ? './parse-worker.ts' : './parse-worker.js', import.meta.url);
  const worker = script.pathname.endsWith('.ts')
    ? new Worker(`import('tsx/esm/api').then(({ tsImport }) => tsImport(${JSON.stringify(script.href)}, ${JSON.stringify(script.href)}))`, { eval: true })
    : new Worker(script);
  const answer = new Promise<ParsedFile[]>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the parse worker exited (code ${code}) before answering`)));
  });
  // Awaited only once sent; an unsent worker is terminated, and its rejection is no news.
  answer.catch(() => undefined);
  return {
    send(files) {
      const batch = packBatch(files);
      worker.postMessage(batch, [batch.bytes.buffer as ArrayBuffer]);
    },
    answer,
    terminate: () => worker.terminate(),
  };
}
