import { resolve } from 'node:path';
import { NODE_PULL_FILE_SYSTEM, writePullTransaction, type PullFileSystem } from './pull-journal.js';
import type { JsonValue } from '../domain/api-types.js';
import type { SourcePosition } from '../domain/source-position.js';
import { lineStartsOf } from '../manifest/simple-yaml.js';
import { linesAdded, spliceDocument, SpliceError } from '../manifest/yaml-splice.js';
import type { DocumentEdit, NotPulled } from './pull-edits.js';

/**
 * The text half of `viewctl pull`: the edits of `pullPlan` spliced into the files'
 * texts, one target at a time, so a value that cannot be spliced in place (an alias,
 * a merge key) leaves its target unpulled and every other target's edit stands.
 */

/** PulledValue is one value pull wrote: where, for which target, and its old and new form. */
export interface PulledValue {
  at: SourcePosition;
  target: string;
  what: string;
  before: unknown;
  /** Undefined for an entry pull removed (the app dropped it). */
  after: JsonValue | undefined;
}

/** SplicedFiles are the new texts of the files pull changes (only those), what it wrote, and what it could not. */
interface SplicedFiles {
  texts: Map<string, string>;
  written: PulledValue[];
  notPulled: NotPulled[];
}

/**
 * spliceEdits applies `edits` to `texts` (file → text, every file an edit names), each
 * file's from its first document down: a splice changes the line numbers only below
 * itself. Targets of one document (a member's lists of two domains) may still splice
 * above one another, so the lines reported before an edit move with its splices: every
 * line reported is a line of the file as written.
 */
export function spliceEdits(edits: readonly DocumentEdit[], texts: ReadonlyMap<string, string>): SplicedFiles {
  const result: SplicedFiles = { texts: new Map(), written: [], notPulled: [] };
  for (const edit of topDown(edits)) {
    const current = result.texts.get(edit.file) ?? texts.get(edit.file);
    if (current === undefined) {
      result.notPulled.push({ target: edit.target, reason: `${edit.file} could not be read` });
      continue;
    }
    try {
      const spliced = spliceDocument(current, edit.index, edit.edits, edit.equal);
      if (spliced.splices.length === 0) continue;
      result.texts.set(edit.file, spliced.text);
      // Another target's edit of the same document may splice above the lines already reported.
      const lineStarts = lineStartsOf(current);
      for (const value of result.written) {
        if (value.at.file !== edit.file) continue;
        const start = lineStarts[value.at.line - 1] ?? current.length;
        value.at = {
          ...value.at,
          line:
            value.at.line +
            linesAdded(
              current,
              spliced.splices.filter((splice) => splice.end <= start),
            ),
        };
      }
      result.written.push(
        ...spliced.replaced.map((value) => ({
          at: { file: edit.file, line: value.line, column: 1 },
          target: edit.target,
          what: value.path.join('.'),
          before: value.before,
          after: value.after,
        })),
      );
    } catch (error) {
      if (!(error instanceof SpliceError)) throw error;
      result.notPulled.push({
        target: edit.target,
        reason: `cannot write into ${edit.file} in place: ${error.message}`,
        source: edit.at,
      });
    }
  }
  return result;
}

/** topDown is `edits` file by file, in the order the files first appear, each file's in document order. */
function topDown(edits: readonly DocumentEdit[]): DocumentEdit[] {
  const byFile = new Map<string, DocumentEdit[]>();
  for (const edit of edits) byFile.set(edit.file, [...(byFile.get(edit.file) ?? []), edit]);
  return [...byFile.values()].flatMap((inFile) => [...inFile].sort((a, b) => a.index - b.index));
}

/**
 * writeSplicedFiles writes the spliced files (`texts`: path relative to `cwd` → text)
 * so that a crash at any moment (SIGKILL, a second Ctrl-C, a power cut after the
 * journal reached the disk) leaves either the old files, or the new ones, or a state
 * the next `pull` completes (`finishInterruptedPull`), never views with new names
 * beside pins documents with old ones (`writePullTransaction`). Each file keeps its
 * mode, and none is written through a linked folder out of the `roots` it was loaded
 * from (the paths given to pull). A file that cannot be written stops the pull before
 * any is replaced: `pull.write-failed` says that no file was written.
 */
export async function writeSplicedFiles(
  texts: ReadonlyMap<string, string>,
  cwd: string,
  options: { roots?: readonly string[]; fs?: PullFileSystem } = {},
): Promise<void> {
  const files = [...texts.keys()];
  if (files.length === 0) return;
  await writePullTransaction(
    files.map((file) => ({ file, path: resolve(cwd, file), text: texts.get(file) ?? '' })),
    (options.roots ?? ['.']).map((root) => resolve(cwd, root)),
    options.fs ?? NODE_PULL_FILE_SYSTEM,
  );
}
