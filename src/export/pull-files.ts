import type { JsonValue } from '../domain/api-types.js';
import type { SourcePosition } from '../domain/source-position.js';
import { spliceDocument, SpliceError } from '../manifest/yaml-splice.js';
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
export interface SplicedFiles {
  texts: Map<string, string>;
  written: PulledValue[];
  notPulled: NotPulled[];
}

/** spliceEdits applies `edits` to `texts` (file → text, every file an edit names). */
export function spliceEdits(edits: readonly DocumentEdit[], texts: ReadonlyMap<string, string>): SplicedFiles {
  const result: SplicedFiles = { texts: new Map(), written: [], notPulled: [] };
  for (const edit of edits) {
    const current = result.texts.get(edit.file) ?? texts.get(edit.file);
    if (current === undefined) {
      result.notPulled.push({ target: edit.target, reason: `${edit.file} could not be read` });
      continue;
    }
    try {
      const spliced = spliceDocument(current, edit.index, edit.edits, edit.equal);
      if (spliced.splices.length === 0) continue;
      result.texts.set(edit.file, spliced.text);
      result.written.push(...spliced.replaced.map((value) => ({ at: { file: edit.file, line: value.line, column: 1 }, target: edit.target, what: value.path.join('.'), before: value.before, after: value.after })));
    } catch (error) {
      if (!(error instanceof SpliceError)) throw error;
      result.notPulled.push({ target: edit.target, reason: `cannot write into ${edit.file} in place: ${error.message}`, source: edit.at });
    }
  }
  return result;
}
