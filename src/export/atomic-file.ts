import { throughOpenFile } from '../state/open-file-links.js';
import { randomBytes } from 'node:crypto';
import type { Stats } from 'node:fs';
import { lstat, realpath, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join, sep } from 'node:path';

/**
 * Writing one file whole or not at all. A module of its own, importing only Node (and the
 * open-file rule it shares with the sweep memory, src/state/open-file-links.ts), so
 * `plan --out` and the commands that load it do not load the export's YAML writer.
 *
 * Every file viewctl writes (plan --out, export, schemas) goes through one rule on
 * what stands at the path (`outputKind`):
 * - nothing, or a regular file: a temporary file beside it, then a rename over it;
 * - a character device or a named pipe (`/dev/null`, `/dev/stdout` on a pipe), directly
 *   or through a link: written through, as `> /dev/null` does; never renamed over,
 *   which would turn the system's device into a plain file;
 * - a link to a regular file: the link is replaced, never written through, so a link
 *   committed to a repository cannot redirect a write elsewhere;
 * - anything else (a folder, a socket, a block device, a process's open file reached
 *   through `/dev/stdout` or `/proc/self/fd`): refused, with what it is.
 */

/** OutputKind is what writing to a path does: `replace` (rename over it, or create it), `write-through`, or a refusal. */
export type OutputKind = { action: 'replace' } | { action: 'write-through' } | { action: 'refuse'; reason: string };

/**
 * outputKind applies the rule above to `target`. A path that cannot be looked at (a
 * missing folder, no permission) is `replace`: the write then fails with its own error.
 */
export async function outputKind(target: string): Promise<OutputKind> {
  const own = await lstat(target).catch(() => undefined);
  if (own === undefined || own.isFile()) return { action: 'replace' };
  if (!own.isSymbolicLink()) return kindOf(own, 'it is');
  const pointed = await stat(target).catch(() => undefined);
  // A link to nothing names no file yet: replaced, as a new file is made.
  if (pointed === undefined) return { action: 'replace' };
  if (pointed.isCharacterDevice() || pointed.isFIFO()) return { action: 'write-through' };
  if (pointed.isFile()) {
    // /dev/stdout -> /proc/self/fd/1 -> a file the shell opened: the link is the system's,
    // and writing through would fight the process's own output. Neither is safe.
    if (await throughOpenFile(target)) {
      return {
        action: 'refuse',
        reason:
          'it is a link to a file this process has open (standard output redirected to a file?); name that file itself',
      };
    }
    return { action: 'replace' };
  }
  return kindOf(pointed, 'it is a link to');
}

function kindOf(info: Stats, is: string): OutputKind {
  if (info.isCharacterDevice() || info.isFIFO()) return { action: 'write-through' };
  const what = info.isDirectory()
    ? 'a folder'
    : info.isSocket()
      ? 'a socket'
      : info.isBlockDevice()
        ? 'a block device'
        : 'not a regular file';
  return { action: 'refuse', reason: `${is} ${what}; name a file (a new one, or a regular file to replace)` };
}

/**
 * linkedFolderReason says why `target` must not be written when its folder, links
 * resolved, is not inside `root`'s (a folder, links resolved too): a link to a folder
 * committed below the manifests or the output folder would redirect the write out of
 * it. Undefined when the folder is inside, or when `root` cannot be resolved (the
 * write then fails with its own error).
 */
export async function linkedFolderReason(root: string, target: string): Promise<string | undefined> {
  const realRoot = await realpath(root).catch(() => undefined);
  if (realRoot === undefined) return undefined;
  // A folder not made yet is judged by the nearest one that exists: a link above it would lead its files out too.
  let folder = dirname(target);
  let realFolder = await realpath(folder).catch(() => undefined);
  while (realFolder === undefined && dirname(folder) !== folder) {
    folder = dirname(folder);
    realFolder = await realpath(folder).catch(() => undefined);
  }
  if (realFolder === undefined) return undefined;
  if (realFolder === realRoot || realFolder.startsWith(realRoot.endsWith(sep) ? realRoot : realRoot + sep))
    return undefined;
  return `its folder is reached through a link to ${realFolder}, outside ${root}; viewctl never writes through a linked folder`;
}

/** OutputKindError is a write refused by the rule above; `reason` says what stands at the path. */
export class OutputKindError extends Error {
  readonly reason: string;

  constructor(target: string, reason: string) {
    super(`cannot write ${target}: ${reason}`);
    this.name = 'OutputKindError';
    this.reason = reason;
  }
}

/** writeFailureReason is what a caller's message says after "cannot write PATH: ": the refusal, or the system's error code. */
export function writeFailureReason(error: unknown): string {
  if (error instanceof OutputKindError) return error.reason;
  return error instanceof Error && 'code' in error ? String(error.code) : 'unknown error';
}

/** temporaryPath is a hidden, unique name beside `target`, on the same file system, so the rename is atomic. */
export function temporaryPath(target: string): string {
  return join(dirname(target), `.${basename(target)}.${randomBytes(6).toString('hex')}.tmp`);
}

/**
 * writeAtomically writes `text` to `target` by the rule above: via a temporary file
 * beside it and a rename, so no reader sees half a file (the temporary file never
 * stays); through, to a device or a pipe; or not at all (OutputKindError).
 */
export async function writeAtomically(target: string, text: string): Promise<void> {
  const kind = await outputKind(target);
  if (kind.action === 'refuse') throw new OutputKindError(target, kind.reason);
  if (kind.action === 'write-through') {
    await writeFile(target, text, 'utf8');
    return;
  }
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
