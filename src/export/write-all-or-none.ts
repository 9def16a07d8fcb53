import { randomBytes } from 'node:crypto';
import { lstat, rename, rm, writeFile } from 'node:fs/promises';
import { ViewctlError } from '../errors.js';

/**
 * Writing several files all or none (`viewctl rename`): each new text goes first to a
 * temporary file beside its target; only when every one is written are they renamed
 * over their targets, and a rename that fails puts back the files already replaced.
 * Only regular files are replaced: a link or anything else is refused before any write,
 * so a link committed to a repository never redirects the write.
 */

/** FileRewrite is one file's path (absolute), its shown name, and its text before and after. */
export interface FileRewrite {
  path: string;
  shown: string;
  before: string;
  after: string;
}

/** writeAllOrNone replaces every file of `rewrites` or none; throws ViewctlError (`rename.write-failed`) naming the file and what is on disk. */
export async function writeAllOrNone(rewrites: readonly FileRewrite[]): Promise<void> {
  for (const file of rewrites) {
    const info = await lstat(file.path).catch(() => undefined);
    if (info?.isFile() !== true)
      throw failed(
        file,
        info === undefined ? 'it is gone' : 'it is not a regular file (a link?)',
        'no file was written',
      );
  }
  const suffix = `.viewctl-${randomBytes(4).toString('hex')}.tmp`;
  const written: FileRewrite[] = [];
  try {
    for (const file of rewrites) {
      await writeFile(file.path + suffix, file.after, { flag: 'wx' }).catch((error: unknown) => {
        throw failed(file, reasonOf(error), 'no file was written');
      });
      written.push(file);
    }
  } catch (error) {
    await Promise.all(written.map((file) => rm(file.path + suffix, { force: true })));
    throw error;
  }
  const replaced: FileRewrite[] = [];
  for (const file of rewrites) {
    try {
      await rename(file.path + suffix, file.path);
      replaced.push(file);
    } catch (error) {
      await Promise.all(rewrites.map((other) => rm(other.path + suffix, { force: true })));
      // Put back what was replaced: the files are as they were, or the message says which are not.
      const restored = await Promise.all(
        replaced.map((other) =>
          writeFile(other.path, other.before).then(
            () => undefined,
            () => other.shown,
          ),
        ),
      );
      const unrestored = restored.filter((shown): shown is string => shown !== undefined);
      throw failed(
        file,
        reasonOf(error),
        unrestored.length === 0 ? 'no file was changed' : `could not put back: ${unrestored.join(', ')}`,
      );
    }
  }
}

function failed(file: FileRewrite, reason: string, state: string): ViewctlError {
  return new ViewctlError('rename.write-failed', `cannot write ${file.shown}: ${reason}; ${state}`, {
    hint: 'make the files writable (regular files, not links) and run rename again',
  });
}

function reasonOf(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : error instanceof Error ? error.message : String(error);
}
