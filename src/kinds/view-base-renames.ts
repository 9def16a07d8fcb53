import type { ApiView } from '../domain/api-types.js';
import type { Desired, DesiredView } from '../domain/desired.js';
import { VIEW_KINDS, type Domain } from '../domain/domains.js';
import { formatLine } from '../domain/source-position.js';
import { jsonEqual } from './canonical.js';
import type { HeldTarget } from './changes.js';

/**
 * A view document renamed in a pull request, told by the manifests at `--base REF`
 * (README, "Renaming a view"). Without `viewId`, a view document binds by its name, so a
 * new `name:` alone would plan a new view and leave the old one; but the document at REF
 * and now is the same document, so the plan can bind the live view of its old name
 * instead and rename it.
 *
 * The rule (same file, same kind; then the same content, else the same place):
 * - only documents with no `viewId` on either side (a `viewId` binds by itself), whose
 *   old name no current document of the domain has and whose new name no document at
 *   REF had: a name kept anywhere is the same view by name (a document moved between
 *   files, or two documents that swapped places, are no rename);
 * - in the same file: a file moved or renamed in git is a new path, and a document
 *   taken to another file is a new document (a rename there is a delete and a create);
 * - paired by content first: the same attributes but the name (icon, columns, filters,
 *   sort, appOwns) is the same document whatever moved around it in the file;
 * - else by place: the n-th view document of that kind in the file, when the file has as
 *   many of them at REF as now (nothing inserted or removed shifted the places);
 * - a document that could be the rename of two documents at REF (or a document at REF
 *   that two could be), and that the place does not settle, is no rename: it is held
 *   (`BaseRenames.ambiguous`), never matched at a guess.
 * A document index alone would pair the wrong documents as soon as one is inserted above
 * them; content alone would miss a rename that also edits a filter.
 */

/** BaseRename is the document at REF a current view document renames. */
export interface BaseRename {
  /** The document at REF, whose `name` is the old name. */
  from: DesiredView;
}

/** AmbiguousRename is a current view document that could rename more than one document at REF (or share one with another). */
export interface AmbiguousRename {
  /** The documents at REF it could rename, in file order. */
  candidates: DesiredView[];
}

/** BaseRenames are the renames and the undecided documents of one plan, keyed by the current document. */
export interface BaseRenames {
  renamed: Map<DesiredView, BaseRename>;
  ambiguous: Map<DesiredView, AmbiguousRename>;
}

/** baseRenames pairs the view documents of `now` renamed since `base` (the manifests at `--base REF`), by the rule above. */
export function baseRenames(base: Desired, now: Desired): BaseRenames {
  const result: BaseRenames = { renamed: new Map(), ambiguous: new Map() };
  const groups = new Map<string, { base: DesiredView[]; now: DesiredView[] }>();
  const group = (view: DesiredView) => {
    const key = `${view.domain}\u0000${view.source.file}`;
    const entry = groups.get(key) ?? { base: [], now: [] };
    groups.set(key, entry);
    return entry;
  };
  for (const view of base.views) group(view).base.push(view);
  for (const view of now.views) group(view).now.push(view);
  const namesOf = (views: readonly DesiredView[], domain: Domain) =>
    new Set(views.filter((view) => view.domain === domain).map((view) => view.name));
  for (const { base: before, now: after } of groups.values()) {
    const domain = (after[0] ?? before[0])?.domain;
    if (domain === undefined) continue;
    const stillNamed = namesOf(now.views, domain);
    const namedBefore = namesOf(base.views, domain);
    const removed = before.filter((view) => view.viewId === undefined && !stillNamed.has(view.name));
    const added = after.filter((view) => view.viewId === undefined && !namedBefore.has(view.name));
    if (removed.length === 0 || added.length === 0) continue;
    const samePlaces = before.length === after.length;
    const slotOf = (view: DesiredView): DesiredView | undefined =>
      samePlaces ? before[after.indexOf(view)] : undefined;
    const picked = new Map<DesiredView, DesiredView>();
    for (const view of added) {
      const alike = removed.filter((old) => sameContent(old, view));
      const slot = slotOf(view);
      const inSlot = slot !== undefined && removed.includes(slot) ? slot : undefined;
      const candidates = alike.length > 0 ? alike : inSlot === undefined ? [] : [inSlot];
      if (candidates.length === 1 && candidates[0] !== undefined) picked.set(view, candidates[0]);
      else if (inSlot !== undefined && candidates.includes(inSlot)) picked.set(view, inSlot);
      else if (candidates.length > 1) result.ambiguous.set(view, { candidates });
    }
    // One document at REF claimed by several now: the one in its place wins, else none does.
    for (const [view, old] of picked) {
      const rivals = [...picked].filter(([, other]) => other === old).map(([claimant]) => claimant);
      const winner = rivals.length === 1 ? view : rivals.find((rival) => slotOf(rival) === old);
      if (winner === view) result.renamed.set(view, { from: old });
      else if (winner === undefined) result.ambiguous.set(view, { candidates: [old] });
    }
  }
  return result;
}

/** sameContent: two view documents that ask the same of a view but its name. */
function sameContent(a: DesiredView, b: DesiredView): boolean {
  return a.domain === b.domain && jsonEqual(a.managed, b.managed) && jsonEqual(a.appOwns ?? [], b.appOwns ?? []);
}

/** RenameBinding is what a renamed document binds: the live view of its old name, or nothing yet (held, with why). */
export type RenameBinding =
  | { bind: ApiView }
  | { hold: Omit<HeldTarget, 'target' | 'source'>; keep: string[] }
  | undefined;

/**
 * renameBinding decides which live view a view document renamed since `--base` binds
 * (`undefined`: by its new name, as any document; the old view is gone, or the rename
 * already applied). It binds the one public saved view of its old name when no view
 * has the new one; a live view holding the new name, several holding the old one, or a
 * document that could rename several at REF are contradictions: held, with the views
 * it could mean kept from prune (`keep`), never matched at a guess. `free` lists the
 * public saved views of a name that no manifest claims by id.
 */
export function renameBinding(
  view: DesiredView,
  found: { renamed?: BaseRename; ambiguous?: AmbiguousRename },
  free: (name: string) => ApiView[],
): RenameBinding {
  const kind = VIEW_KINDS[view.domain];
  const document = `${kind} "${view.name}" (${formatLine(view.nameSource ?? view.source)})`;
  if (found.ambiguous !== undefined) {
    const olds = found.ambiguous.candidates.flatMap((old) => free(old.name));
    if (olds.length === 0) return undefined;
    const names = found.ambiguous.candidates.map((old) => `"${old.name}" (${formatLine(old.source)})`);
    return {
      hold: {
        code: 'view.rename-ambiguous',
        reason: `${document} may be the rename of ${names.join(' or ')} at --base, and the documents do not tell which: the rename is held, no view is changed`,
        wayOut: `bind the document to the view it renames with \`viewId: ${olds[0]?.viewId}\`${
          olds.length > 1
            ? ` (or ${olds
                .slice(1)
                .map((old) => old.viewId)
                .join(', ')})`
            : ''
        }`,
      },
      keep: olds.map((old) => old.viewId),
    };
  }
  if (found.renamed === undefined) return undefined;
  const oldName = found.renamed.from.name;
  const olds = free(oldName);
  const first = olds[0];
  if (first === undefined) return undefined;
  const renaming = `${document} renames "${oldName}" since --base`;
  const taken = free(view.name);
  if (taken.length > 0) {
    const ids = taken.map((other) => other.viewId);
    return {
      hold: {
        code: 'view.rename-name-taken',
        reason: `${renaming} (${first.viewId}), but the public ${kind} ${ids.join(', ')} already has the name "${view.name}": the rename is held, neither view is changed`,
        wayOut: `rename or delete ${ids.join(', ')} in the app, or give the document a name no view has; to manage ${ids[0]} instead, bind the document with \`viewId: ${ids[0]}\``,
      },
      keep: [...olds, ...taken].map((other) => other.viewId),
    };
  }
  if (olds.length > 1) {
    const ids = olds.map((old) => old.viewId);
    return {
      hold: {
        code: 'view.rename-ambiguous',
        reason: `${renaming}, and ${olds.length} public ${kind}s have that name (${ids.join(', ')}): the rename is held, no view is changed`,
        wayOut: `bind the document to the one it renames with \`viewId: ${first.viewId}\` (or ${ids.slice(1).join(', ')})`,
      },
      keep: ids,
    };
  }
  return { bind: first };
}
