import { parentPort } from 'node:worker_threads';
import { parseBatch, type FileBatch } from './parse-batch.js';

// The worker thread parse-files.ts starts: it parses one batch, answers with the
// parsed files (plain data) and ends.
parentPort?.once('message', (batch: FileBatch) => {
  parentPort?.postMessage(parseBatch(batch));
});
