import { DOMAINS, VIEW_KINDS } from '../domain/domains.js';
import { isPublicSaved } from '../domain/views.js';
import type { Live } from '../state/types.js';
import type { RefusalReason } from '../domain/refusal-reason.js';
import type { SourcePosition } from '../domain/source-position.js';
import type { Change, UpdateChange } from './changes.js';
import type { DeclaredViewRef } from './declared-view-ref.js';
import type { ApiView } from '../domain/api-types.js';
import type { Domain } from '../domain/domains.js';
import type { SweepMemory } from '../state/sweep-memory.js';

/**
 * The name rules of the README's "Fail-safe rules" hold for the name a view has after
 * the plan, not only for names without `viewId`: a rename (an update of `name`) must
 * not give a saved view the name of a built-in default view (pins would then resolve
 * the default's name to it), nor a name another public saved view of the domain will
 * have after apply (two live views with one name). Views the plan deletes no longer
 * count; two manifests renaming into one name are refused both.
 */

/** renameReasons refuses every rename that breaks the name rules, with the ids and the way out. */
export function renameReasons(
  live: Pick<Live, 'views'>,
  changes: readonly Change[],
  nameSourceOf: (change: UpdateChange) => SourcePosition | undefined = () => undefined,
): RefusalReason[] {
  const reasons: RefusalReason[] = [];
  for (const domain of DOMAINS) {
    const updates = changes.filter(
      (change): change is UpdateChange => change.action === 'update' && change.domain === domain,
    );
    const renames = updates.filter((change) => change.before.name !== change.after.name);
    const listing = live.views[domain];
    if (renames.length === 0 || listing === undefined) continue;
    const deleted = new Set(
      changes.flatMap((change) => (change.action === 'delete' && change.domain === domain ? [change.id] : [])),
    );
    const nameAfter = new Map<string, string>();
    for (const view of listing)
      if (isPublicSaved(view) && !deleted.has(view.viewId)) nameAfter.set(view.viewId, view.name);
    for (const change of updates) nameAfter.set(change.id, change.after.name);
    for (const rename of renames) {
      const name = rename.after.name;
      const source = nameSourceOf(rename) ?? rename.source;
      const kind = VIEW_KINDS[domain];
      const renaming = `${kind} "${rename.before.name}" (${rename.id}) is renamed to "${name}"`;
      const defaults = listing.filter((view) => view.isDefault && view.name === name).map((view) => view.viewId);
      if (defaults.length > 0) {
        reasons.push({
          code: 'view.default-name',
          message: `${renaming}, the name of the built-in default view ${defaults.join(', ')}; pinned lists would resolve that name to it`,
          wayOut: 'give the view a name no default view has',
          ...(source === undefined ? {} : { source }),
          ids: [rename.id, ...defaults],
        });
        continue;
      }
      const others = [...nameAfter]
        .filter(([id, other]) => id !== rename.id && other === name)
        .map(([id]) => id)
        .sort();
      if (others.length === 0) continue;
      reasons.push({
        code: 'view.ambiguous-name',
        message: `${renaming}, a name ${others.join(', ')} will also have after apply: two public ${kind}s would share it`,
        wayOut: `give the view a name no other ${kind} has, or rename or delete ${others.join(', ')} in the same plan`,
        ...(source === undefined ? {} : { source }),
        ids: [rename.id, ...others],
      });
    }
  }
  return reasons;
}

/**
 * formerNames maps each old name of a view the manifests rename to the view as the pins
 * see it after apply (README, "Renaming a view"): a declared view bound (by id, or as
 * the document renamed since `--base`) whose live view has another name, or that the
 * sweep memory saw under another name (once applied, the names it had before). A pinned
 * name no view has any more then resolves to the renamed view, with a warning, and "did
 * you mean" prefers its new name. An old name two renamed views shared, or that a view
 * has after apply, means none of them.
 */
export function formerNames(
  domain: Domain,
  declared: readonly DeclaredViewRef[],
  listing: readonly ApiView[],
  memory?: SweepMemory,
): Map<string, DeclaredViewRef> {
  const byId = new Map(declared.flatMap((view) => (view.viewId === null ? [] : [[view.viewId, view] as const])));
  // Names some view has after apply: the manifests', and the live names of views no manifest binds.
  const current = new Set([
    ...declared.map((view) => view.name),
    ...listing.filter((view) => !byId.has(view.viewId)).map((view) => view.name),
  ]);
  const found = new Map<string, DeclaredViewRef | null>();
  const note = (oldName: string, view: DeclaredViewRef): void => {
    if (oldName === view.name || current.has(oldName)) return;
    const before = found.get(oldName);
    found.set(oldName, before === undefined || before === view ? view : null);
  };
  for (const live of listing) {
    const view = byId.get(live.viewId);
    if (view !== undefined) note(live.name, view);
  }
  for (const seen of Object.values(memory?.views ?? {})) {
    const view = seen.domain === domain ? byId.get(seen.id) : undefined;
    if (view === undefined) continue;
    note(seen.name, view);
    // Once applied, the old name is only the memory's (`ViewMemory.formerNames`).
    for (const former of seen.formerNames ?? []) note(former, view);
  }
  return new Map([...found].flatMap(([name, view]) => (view === null ? [] : [[name, view] as const])));
}

/** renamedPinText says that a pinned name is the old name of a view the manifests rename (or renamed), and how to name it. */
export function renamedPinText(domain: Domain, userEmail: string, oldName: string, view: DeclaredViewRef): string {
  const kind = VIEW_KINDS[domain];
  return (
    `"${oldName}" in the ${domain} tabs of ${userEmail} is the old name of ${kind} "${view.name}"${view.viewId === null ? '' : ` (${view.viewId})`}: ` +
    `it resolves to it; name it "${view.name}" here and at each place these warnings list (with the document's old name back, \`viewctl rename ${kind} "${oldName}" "${view.name}"\` rewrites them all)`
  );
}
