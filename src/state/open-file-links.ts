import { lstat, readlink } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';

/**
 * One rule for the files viewctl writes (the sweep memory here, `--out` and the exported
 * manifests in src/export/atomic-file.ts): a path that reaches, through links, an entry
 * standing for a process's open file (`/dev/stdout` → `/proc/self/fd/1`) writes into
 * whatever the process has open there, never a file of its own.
 */

/** OPEN_FILE_LINKS are the folders whose entries stand for a process's open files. */
const OPEN_FILE_LINKS = /^\/(?:proc\/(?:self|thread-self|\d+)\/fd|dev\/fd)\/\d+$/;

/** throughOpenFile tells whether a link chain from `target` passes through a process's open-file entry. */
export async function throughOpenFile(target: string): Promise<boolean> {
  let path = target;
  for (let hop = 0; hop < 40; hop += 1) {
    if (OPEN_FILE_LINKS.test(path)) return true;
    const info = await lstat(path).catch(() => undefined);
    if (info === undefined || !info.isSymbolicLink()) return false;
    path = resolve(dirname(path), await readlink(path));
  }
  return false;
}
