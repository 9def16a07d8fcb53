import { makeProblem } from './problems.js';
import type { ManifestSource } from './source.js';
import type { Problem } from './types.js';

/** Why the filesystem refused, in words, for the errno codes a user can cause. */
const FILESYSTEM_REASONS: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  ENOTDIR: 'a part of the path is a file, not a folder',
  ELOOP: 'too many symbolic links (a link cycle?)',
  EISDIR: 'it is a folder',
  ENAMETOOLONG: 'the path is too long',
  EIO: 'an input/output error',
  EMFILE: 'too many open files',
};

/**
 * unreadable reports a path the filesystem refused (permissions, a file used as a
 * folder, a link cycle) as a problem at that path; anything that is not a
 * filesystem error is a bug and propagates.
 */
export function unreadable(source: ManifestSource, path: string, error: unknown): Problem {
  const errno = error as NodeJS.ErrnoException;
  if (typeof errno?.code !== 'string') throw error;
  const where = source.display(typeof errno.path === 'string' ? errno.path : path);
  return makeProblem({
    code: 'file.unreadable',
    message: `cannot read "${where}": ${FILESYSTEM_REASONS[errno.code] ?? errno.code}`,
    at: { file: where, line: 1, column: 1 },
    hint: 'check the path and its permissions',
  });
}
