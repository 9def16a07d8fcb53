import { posix } from 'node:path';
import { formatLine, type SourcePosition } from '../domain/source-position.js';

import { plural } from '../text/plural.js';

/**
 * What `export --merge` says of the live targets it left because a document declares
 * them: each on a line of its own while they are few; past SKIPPED_LISTED, one line per
 * sort of target (the workspace, each view kind, members' pins, the automations) with
 * the count and the folders that declare them, since a hundred lines of "already
 * declared" hide the files the merge wrote.
 */

/** SKIPPED_LISTED is how many skipped targets are listed one by one. */
export const SKIPPED_LISTED = 10;

/** Skipped is a target left out and the document that declares it. */
interface Skipped {
  target: string;
  declaredAt: SourcePosition;
}

/** skippedRows are the rows (where, what) that tell the skipped targets. */
export function skippedRows(skipped: readonly Skipped[]): [string, string][] {
  if (skipped.length <= SKIPPED_LISTED) return skipped.map((entry) => [formatLine(entry.declaredAt), entry.target]);
  const sorts = new Map<string, Skipped[]>();
  for (const entry of skipped) {
    const sort = sortOf(entry.target);
    sorts.set(sort, [...(sorts.get(sort) ?? []), entry]);
  }
  return [...sorts].map(([sort, entries]) => {
    const [first] = entries;
    if (entries.length === 1 && first !== undefined) return [formatLine(first.declaredAt), first.target];
    const many = sort === PINS_SORT ? "members' pinned lists" : `${sort}s`;
    return [declaringFolders(entries), plural(entries.length, sort, many)];
  });
}

const PINS_SORT = "member's pinned lists";

/** sortOf names what a target is, from its label: `pins of …`, `RecordingView "…"`, `Workspace …`. */
function sortOf(target: string): string {
  if (target.startsWith('pins of ')) return PINS_SORT;
  const [kind = target] = target.split(' ');
  return kind;
}

/** declaringFolders names the folders of the files that declare `entries`: up to three, then how many more. */
function declaringFolders(entries: readonly Skipped[]): string {
  const folders = [
    ...new Set(entries.map((entry) => `${posix.dirname(entry.declaredAt.file.split('\\').join('/'))}/`)),
  ].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const shown = folders.slice(0, 3).join(', ');
  return folders.length <= 3 ? shown : `${shown} and ${plural(folders.length - 3, 'more folder')}`;
}
