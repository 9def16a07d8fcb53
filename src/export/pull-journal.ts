import { randomBytes } from 'node:crypto';
import { chmod, lstat, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { ViewctlError } from '../errors.js';
import { linkedFolderReason, outputKind, writeFailureReason } from './atomic-file.js';

/**
 * How `pull` replaces several manifests so that a crash cannot leave them disagreeing
 * (a view document with the app's new name beside a pins document naming the old one,
 * which no later run could load). Chosen: a journal and a roll-forward. A journal
 * rather than one rename of a copied folder, because pull edits files in place in the
 * user's own tree (comments, other files, git's index stay as they are), and because
 * the next run must finish the job whatever paths it is given.
 *
 * 1. Every new text is written to a temporary file beside its target, with the
 *    target's mode. A crash here leaves every manifest as it was (and some hidden
 *    temporaries, which the next pull removes).
 * 2. The journal (`.viewctl-pull.json`, in the folder holding every target) lists
 *    each temporary and its target; it is written to a temporary and renamed, so it is
 *    there whole or not at all. Its rename is the commit: from then on the new files win.
 * 3. Each temporary is renamed over its target, in the journal's order; then the
 *    journal is removed.
 *
 * The next pull (`finishInterruptedPull`), before it reads any manifest, looks for a
 * journal in and above and below the paths it is given, renames the temporaries that
 * are still there over their targets, and removes the journal: the run a crash cut
 * short is finished, and the files are all new.
 */

/** JOURNAL is the name of the journal a pull writes while it replaces files. */
export const JOURNAL = '.viewctl-pull.json';

/** A temporary file of a pull: hidden, beside its target, with a random part. */
const TEMPORARY = /^\..+\.[0-9a-f]{12}\.pull-tmp$/;

/** PullFileSystem are the writes a pull makes, injected so a test can stop it at any one of them, as a crash would. */
export interface PullFileSystem {
  writeFile(path: string, text: string, mode: number): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  remove(path: string): Promise<void>;
}

/** NODE_PULL_FILE_SYSTEM writes to disk; a new file gets exactly `mode`, whatever the umask. */
export const NODE_PULL_FILE_SYSTEM: PullFileSystem = {
  async writeFile(path, text, mode) {
    await writeFile(path, text, { encoding: 'utf8', mode, flag: 'wx' });
    await chmod(path, mode);
  },
  rename: (from, to) => rename(from, to),
  remove: (path) => rm(path, { force: true }),
};

/** PullWrite is one file a pull replaces: as shown (`file`), its absolute path, and its new text. */
export interface PullWrite {
  file: string;
  path: string;
  text: string;
}

interface Journal {
  viewctlPull: 1;
  /** Temporary and target, relative to the journal's folder, in the order they are renamed. */
  renames: [string, string][];
}

/**
 * writePullTransaction replaces the files of `writes` as described above. Each must be
 * a regular file (or a link to one, which is replaced) whose folder, links resolved,
 * lies inside the root it was loaded from (`roots`, absolute): a linked sub-folder
 * must not redirect a write out of the manifests. A refusal or a failed write before
 * the journal stops with `pull.write-failed`: nothing was replaced.
 */
export async function writePullTransaction(
  writes: readonly PullWrite[],
  roots: readonly string[],
  fs: PullFileSystem,
): Promise<void> {
  const staged: { write: PullWrite; temporary: string }[] = [];
  const notWritten = (write: PullWrite, reason: string): ViewctlError =>
    new ViewctlError(
      'pull.write-failed',
      `cannot write ${write.file}: ${reason}; no file was written (not written: ${writes.map((each) => each.file).join(', ')})`,
      { hint: 'fix what the message names and run pull again' },
    );
  try {
    for (const write of writes) {
      const refusal = await refusalOf(write.path, roots);
      if (refusal !== undefined) throw notWritten(write, refusal);
      const mode = await stat(write.path).then(
        (info) => info.mode & 0o7777,
        () => 0o644,
      );
      const temporary = join(
        dirname(write.path),
        `.${basename(write.path)}.${randomBytes(6).toString('hex')}.pull-tmp`,
      );
      await fs.writeFile(temporary, write.text, mode).catch((error: unknown) => {
        throw notWritten(write, writeFailureReason(error));
      });
      staged.push({ write, temporary });
    }
  } catch (error) {
    // Nothing replaced yet: the temporaries go, the manifests stay as they were.
    for (const { temporary } of staged) await fs.remove(temporary).catch(() => undefined);
    throw error;
  }
  const folder = commonFolder(writes.map((write) => write.path));
  const journal = join(folder, JOURNAL);
  const journalTemporary = join(folder, `${JOURNAL}.${randomBytes(6).toString('hex')}.pull-tmp`);
  const content: Journal = {
    viewctlPull: 1,
    renames: staged.map(({ write, temporary }) => [relative(folder, temporary), relative(folder, write.path)]),
  };
  try {
    await fs.writeFile(journalTemporary, `${JSON.stringify(content, null, 2)}\n`, 0o644);
    await fs.rename(journalTemporary, journal);
  } catch (error) {
    for (const path of [journalTemporary, ...staged.map(({ temporary }) => temporary)])
      await fs.remove(path).catch(() => undefined);
    throw notWritten(writes[0] ?? { file: folder, path: folder, text: '' }, writeFailureReason(error));
  }
  // Committed: from here the new files win, now or at the next pull.
  for (const [index, { write, temporary }] of staged.entries()) {
    await fs.rename(temporary, write.path).catch((error: unknown) => {
      throw new ViewctlError(
        'pull.write-failed',
        `cannot replace ${write.file}: ${writeFailureReason(error)}; ` +
          `${
            index === 0
              ? 'no file was replaced yet'
              : `replaced already: ${writes
                  .slice(0, index)
                  .map((each) => each.file)
                  .join(', ')}`
          }; ` +
          `the new files wait beside them, listed in ${JOURNAL} in ${folder}`,
        { hint: 'make the files writable and run pull again: it first finishes replacing them' },
      );
    });
  }
  await fs.remove(journal);
}

/**
 * refusalOf says why pull must not replace `path`, or undefined: not a regular file (or
 * a link to one), or its folder, links resolved, is outside the root it was loaded from.
 */
async function refusalOf(path: string, roots: readonly string[]): Promise<string | undefined> {
  const kind = await outputKind(path);
  if (kind.action === 'refuse') return kind.reason;
  if (kind.action === 'write-through') return 'it is a device or a pipe, not a manifest file';
  const root = roots.find((candidate) => path === candidate || path.startsWith(candidate + sep));
  if (root === undefined) return undefined;
  const rootFolder = (await lstat(root).catch(() => undefined))?.isDirectory() === true ? root : dirname(root);
  return linkedFolderReason(rootFolder, path);
}

/** commonFolder is the deepest folder holding every one of `paths`. */
function commonFolder(paths: readonly string[]): string {
  const split = paths.map((path) => dirname(path).split(sep));
  const first = split[0] ?? [];
  let length = first.length;
  for (const parts of split) {
    let same = 0;
    while (same < Math.min(length, parts.length) && parts[same] === first[same]) same += 1;
    length = same;
  }
  return first.slice(0, length).join(sep) || sep;
}

/**
 * finishInterruptedPull finishes a pull a crash cut short, before anything reads the
 * manifests: every journal in `paths` (relative to `cwd`), in a folder above them or
 * below them has the temporaries it lists that are still there renamed over their
 * targets, then is removed; a pull's temporaries that no journal lists (a crash before
 * the commit) are removed. It returns the files it replaced, as paths relative to `cwd`.
 */
export async function finishInterruptedPull(
  paths: readonly string[],
  cwd: string,
  fs: PullFileSystem = NODE_PULL_FILE_SYSTEM,
): Promise<string[]> {
  const folders = new Set<string>();
  for (const path of paths.length === 0 ? ['.'] : paths) {
    const absolute = resolve(cwd, path);
    const info = await lstat(absolute).catch(() => undefined);
    const start = info?.isDirectory() === true ? absolute : dirname(absolute);
    for (let folder = dirname(start); folder !== dirname(folder); folder = dirname(folder)) folders.add(folder);
    if (info?.isDirectory() === true) await below(start, folders);
    else folders.add(start);
  }
  const finished: string[] = [];
  const listed = new Set<string>();
  for (const folder of folders) {
    const journal = join(folder, JOURNAL);
    const text = await readFile(journal, 'utf8').catch(() => undefined);
    if (text === undefined) continue;
    const content = parseJournal(text);
    if (content === undefined) continue;
    for (const [temporaryPath, targetPath] of content.renames) {
      const temporary = resolve(folder, temporaryPath);
      const target = resolve(folder, targetPath);
      listed.add(temporary);
      if ((await lstat(temporary).catch(() => undefined)) === undefined) continue;
      await fs.rename(temporary, target);
      finished.push(relative(cwd, target));
    }
    await fs.remove(journal);
  }
  // A crash before the journal: the manifests are the old ones, the temporaries are litter.
  for (const folder of folders) {
    const names = await readdir(folder).catch(() => [] as string[]);
    for (const name of names) {
      const path = join(folder, name);
      if (TEMPORARY.test(name) && !listed.has(path)) await fs.remove(path);
    }
  }
  return finished;
}

/** below adds `folder` and every folder under it but hidden ones and node_modules (never through a link). */
async function below(folder: string, into: Set<string>): Promise<void> {
  into.add(folder);
  const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
  for (const entry of entries)
    if (entry.isDirectory() && !entry.name.startsWith('.') && entry.name !== 'node_modules')
      await below(join(folder, entry.name), into);
}

/** parseJournal reads a journal, or undefined for one that is not a pull's (it is then left alone). */
function parseJournal(text: string): Journal | undefined {
  try {
    const data = JSON.parse(text) as Partial<Journal>;
    if (data.viewctlPull !== 1 || !Array.isArray(data.renames)) return undefined;
    const pairs = data.renames.filter(
      (pair): pair is [string, string] =>
        Array.isArray(pair) && pair.length === 2 && pair.every((part) => typeof part === 'string'),
    );
    // A journal names files beside it or below it only: a forged one cannot move files elsewhere.
    return pairs.every(([from, to]) => !isOutside(from) && !isOutside(to))
      ? { viewctlPull: 1, renames: pairs }
      : undefined;
  } catch {
    return undefined;
  }
}

function isOutside(path: string): boolean {
  return isAbsolute(path) || path.split(/[\\/]/).includes('..');
}
