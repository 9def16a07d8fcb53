import { link, mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { systemErrorCode, UsageError } from '../errors.js';
import { compareCodePoints } from '../kinds/canonical.js';
import { linkedFolderReason, temporaryPath, writeAtomically, writeFailureReason } from './atomic-file.js';
import { EXPORT_FOLDERS } from './export-files.js';

/**
 * The file-system half of `viewctl export`. It only ever writes below the output
 * folder, and only the files the export produced.
 */

/** IGNORED_ENTRIES may sit in an output folder that still counts as empty (a fresh `git init`). */
const IGNORED_ENTRIES = new Set(['.git']);

/**
 * checkOutFolder refuses a folder that holds anything (but `.git`) unless `force`,
 * before any request is sent, so a typo in `--out` costs nothing. A missing folder
 * is fine: the writer creates it. `shown` is the folder as the user spelled it.
 */
export async function checkOutFolder(path: string, shown: string, force: boolean): Promise<void> {
  const info = await stat(path).catch((error: unknown) => {
    if (systemErrorCode(error) === 'ENOENT') return undefined;
    throw new UsageError('export.out-unreadable', `cannot read the output folder ${shown}: ${systemErrorCode(error)}`);
  });
  if (info === undefined) return;
  if (!info.isDirectory()) {
    throw new UsageError(
      'export.out-not-folder',
      `--out ${shown} is a file, not a folder`,
      'name a new or empty folder with --out',
    );
  }
  if (force) return;
  const entries = (await readdir(path)).filter((entry) => !IGNORED_ENTRIES.has(entry));
  if (entries.length > 0) {
    throw new UsageError(
      'export.out-not-empty',
      `the output folder ${shown} is not empty (${entries.length} entr${entries.length === 1 ? 'y' : 'ies'}, e.g. ${entries.sort(compareCodePoints)[0]})`,
      `choose a new or empty folder with --out, pass --force to replace the files export writes there (other files are left as they are), or --merge to add only what the manifests there do not declare yet`,
    );
  }
}

export interface WriteReport {
  written: number;
  /** YAML files in the export's folders that this export did not write (left as they were). */
  untouched: string[];
}

/**
 * writeExportFiles writes every file below `outDir`, each atomically (a temporary
 * file in the same folder, then a rename), so an interrupted export never leaves a
 * half-written manifest for plan to trip on.
 */
export async function writeExportFiles(outDir: string, files: Record<string, string>): Promise<WriteReport> {
  for (const [relativePath, text] of Object.entries(files)) {
    const target = join(outDir, ...relativePath.split('/'));
    await checkInside(outDir, target, relativePath);
    await mkdir(dirname(target), { recursive: true }).catch((error: unknown) => {
      throw writeFailure(relativePath, error);
    });
    await writeAtomically(target, text).catch((error: unknown) => {
      throw writeFailure(relativePath, error);
    });
  }
  return { written: Object.keys(files).length, untouched: await untouchedFiles(outDir, files) };
}

/**
 * writeNewFiles writes files that must not exist yet (`export --merge`): each is
 * written to a temporary file and then linked to its name, which fails when anything
 * stands there, so an existing file is never opened for writing, even one that
 * appeared after the folder was listed. That case stops the merge
 * (`export.write-failed`); files written before it stay, and are new.
 */
export async function writeNewFiles(outDir: string, files: Record<string, string>): Promise<number> {
  for (const [relativePath, text] of Object.entries(files)) {
    const target = join(outDir, ...relativePath.split('/'));
    await checkInside(outDir, target, relativePath);
    await mkdir(dirname(target), { recursive: true }).catch((error: unknown) => {
      throw writeFailure(relativePath, error);
    });
    const temporary = temporaryPath(target);
    await writeFile(temporary, text, { encoding: 'utf8', flag: 'wx' }).catch((error: unknown) => {
      throw writeFailure(relativePath, error);
    });
    try {
      await link(temporary, target).catch(async (error: unknown) => {
        // A file system without hard links (FAT, some shares): an exclusive create is not atomic, but still never opens an existing file.
        if (!NO_LINKS.has(systemErrorCode(error))) throw error;
        await writeFile(target, text, { encoding: 'utf8', flag: 'wx' });
      });
    } catch (error) {
      throw systemErrorCode(error) === 'EEXIST'
        ? new UsageError(
            'export.write-failed',
            `cannot write ${relativePath}: something appeared there during the merge; it was left as it is`,
            'run the merge again: it adds only what is still undeclared',
          )
        : writeFailure(relativePath, error);
    } finally {
      await rm(temporary, { force: true });
    }
  }
  return Object.keys(files).length;
}

/** NO_LINKS are the errors of a file system that cannot make hard links. */
const NO_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS']);

/**
 * takenPaths lists every entry (file or folder) of the given folders of `outDir`,
 * as paths relative to it: names a merge must not write to. A missing folder takes
 * nothing.
 */
export async function takenPaths(outDir: string, folders: readonly string[]): Promise<string[]> {
  const taken: string[] = [];
  for (const folder of folders) {
    const entries = await readdir(join(outDir, ...folder.split('/').filter((part) => part !== '.'))).catch(
      (error: unknown) => {
        if (systemErrorCode(error) === 'ENOENT' || systemErrorCode(error) === 'ENOTDIR') return [] as string[];
        throw new UsageError(
          'export.out-unreadable',
          `cannot read ${folder} in the output folder: ${systemErrorCode(error)}`,
        );
      },
    );
    taken.push(...entries.map((entry) => (folder === '.' ? entry : `${folder}/${entry}`)));
  }
  return taken.sort(compareCodePoints);
}

/** untouchedFiles lists manifests in the export's folders it did not write: left over from an earlier export, or the team's own. */
async function untouchedFiles(outDir: string, files: Record<string, string>): Promise<string[]> {
  const untouched: string[] = [];
  for (const folder of EXPORT_FOLDERS) {
    const entries = await readdir(join(outDir, folder)).catch(() => [] as string[]);
    for (const entry of entries) {
      const relativePath = `${folder}/${entry}`;
      if (/\.ya?ml$/.test(entry) && !Object.hasOwn(files, relativePath)) untouched.push(relativePath);
    }
  }
  return untouched.sort(compareCodePoints);
}

/** checkInside refuses a file whose folder a link leads out of `outDir` (`linkedFolderReason`). */
async function checkInside(outDir: string, target: string, relativePath: string): Promise<void> {
  const reason = await linkedFolderReason(outDir, target);
  if (reason !== undefined)
    throw new UsageError(
      'export.write-failed',
      `cannot write ${relativePath}: ${reason}`,
      'replace the linked folder with a real one, or write elsewhere',
    );
}

function writeFailure(relativePath: string, error: unknown): UsageError {
  return new UsageError(
    'export.write-failed',
    `cannot write ${relativePath}: ${writeFailureReason(error)}`,
    'check that the output folder is writable and that no folder stands where the file goes',
  );
}
