import { createReadStream } from 'node:fs';

/** readOnce opens the named pipe for reading and resolves with everything written before the writer closed it. */
export function readOnce(path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    createReadStream(path)
      .on('data', (chunk) => chunks.push(Buffer.from(chunk)))
      .on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
      .on('error', reject);
  });
}
