import { formatPosition } from '../domain/source-position.js';
import { InternalError } from '../errors.js';
import type { Action, Change, CreateChange, DeleteChange, PinChange } from '../plan/types.js';
import { ownerText } from './plan-notes.js';

/**
 * How the text and markdown plans group changes by cause (README, "What a reviewer
 * sees"): the pin changes one group document makes are one entry, and more than
 * GROUP_THRESHOLD changes of one action that share a cause (the folder of their
 * manifests; for prune deletions, the kind and the owner) are one entry too. The JSON
 * plan keeps every change; this is only how a reviewer reads them.
 */

/** GROUP_THRESHOLD is how many changes sharing a cause are still listed one by one. */
export const GROUP_THRESHOLD = 10;

/** ReviewEntry is one line of a plan's summary and one block of its details. */
export type ReviewEntry = SingleEntry | PinGroupEntry | BatchEntry;

/** SingleEntry is a change shown on its own. */
export interface SingleEntry {
  type: 'single';
  change: Change;
}

/** PinGroupEntry is every pin change one group document makes in one domain: one block, whatever the members. */
export interface PinGroupEntry {
  type: 'pin-group';
  changes: PinChange[];
}

/**
 * BatchEntry is more than GROUP_THRESHOLD changes of one action and kind sharing a
 * cause: `cause` is the folder of their manifests (`views/recordings/`), or the owner
 * of the views prune deletes.
 */
export type BatchEntry = { type: 'batch'; cause: string } & (
  | { action: 'create'; changes: CreateChange[] }
  | { action: 'delete'; changes: DeleteChange[] }
  | { action: 'update' | 'pin' | 'drift'; changes: Change[] }
);

/**
 * reviewEntries groups `changes` (one origin's, in plan order) by cause. Entries keep
 * the order of their first change; a change belongs to exactly one entry.
 */
export function reviewEntries(changes: readonly Change[]): ReviewEntry[] {
  const byCause = new Map<string, Change[]>();
  for (const change of changes) {
    const key = causeKey(change);
    const members = byCause.get(key);
    if (members === undefined) byCause.set(key, [change]);
    else members.push(change);
  }
  const entries: ReviewEntry[] = [];
  for (const [key, members] of byCause) {
    const [first] = members;
    if (first === undefined) continue;
    if (key.startsWith('group ')) entries.push({ type: 'pin-group', changes: members as PinChange[] });
    else if (members.length > GROUP_THRESHOLD)
      entries.push({ type: 'batch', cause: causeOf(first), action: first.action, changes: members } as BatchEntry);
    else entries.push(...members.map((change): SingleEntry => ({ type: 'single', change })));
  }
  // Grouping may pull a later change forward to its cause's first; the entries still follow the plan's order of first changes.
  const position = new Map(changes.map((change, index) => [change, index]));
  return entries.sort((a, b) => (position.get(firstChange(a)) ?? 0) - (position.get(firstChange(b)) ?? 0));
}

/** firstChange is the change an entry is listed by. */
export function firstChange(entry: ReviewEntry): Change {
  if (entry.type === 'single') return entry.change;
  const [first] = entry.changes;
  if (first === undefined) throw new InternalError('a review entry holds no change');
  return first;
}

/** entryChanges are every change an entry stands for. */
export function entryChanges(entry: ReviewEntry): readonly Change[] {
  return entry.type === 'single' ? [entry.change] : entry.changes;
}

function causeKey(change: Change): string {
  if (change.action === 'pin' && change.group !== undefined) {
    // The document's domain list is where its source points: one document and domain, one block.
    const where = change.source === undefined ? '' : formatPosition(change.source);
    return `group ${change.domain} ${where} ${change.group}`;
  }
  return `${change.action} ${change.kind} ${causeOf(change)}`;
}

/** causeOf is what the changes of one batch share: their manifests' folder, or the owner of views prune deletes. */
function causeOf(change: Change): string {
  if (change.action === 'delete') return ownerText(change);
  return change.source === undefined ? '' : folderOf(change.source.file);
}

/** folderOf is the folder of a manifest path, with its slash (`views/recordings/`), or `./` for a file at the top. */
export function folderOf(file: string): string {
  const slash = file.lastIndexOf('/');
  return slash < 0 ? './' : file.slice(0, slash + 1);
}

/** entryAction is the action of every change of an entry. */
export function entryAction(entry: ReviewEntry): Action {
  return firstChange(entry).action;
}
