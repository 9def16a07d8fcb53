import { randomBytes } from 'node:crypto';
import { rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/**
 * Writing one file whole or not at all. A module of its own, importing only Node, so
 * `plan --out` and the commands that load it do not load the export's YAML writer.
 */

/** temporaryPath is a hidden, unique name beside `target`, on the same file system, so the rename is atomic. */
export function temporaryPath(target: string): string {
  return join(dirname(target), `.${basename(target)}.${randomBytes(6).toString('hex')}.tmp`);
}

/** writeAtomically writes via a temporary file beside `target` and a rename, so no reader sees half a file; the temporary file never stays. */
export async function writeAtomically(target: string, text: string): Promise<void> {
  const temporary = temporaryPath(target);
  try {
    await writeFile(temporary, text, 'utf8');
    await rename(temporary, target);
  } catch (error) {
    // The write's own error is the one to report, not a failure to tidy up after it.
    await rm(temporary, { force: true }).catch(() => undefined);
    throw error;
  }
}
