import { formatCount } from './plural.js';
import { wrapList } from './wrap.js';

/**
 * Warnings of one code as one entry (README, "Warnings"): a workspace exported with
 * 43 views that repeat a column live warns 43 times on every run, each true and
 * useless after the first reading. So a group shows its first warning in full, then
 * how many more there are and where: every place when each needs an action there
 * (a document to edit or delete), the first few otherwise. `--show-warnings` lists
 * each. Pure, for the manifest problems on stderr and the plan's own warnings alike.
 */

/** FEW_PLACES is how many more places a group names when its places need no action each. */
export const FEW_PLACES = 3;

/**
 * ACTION_AT_EACH_PLACE are the codes whose every warning asks for an edit where it
 * stands: a group of them names every place, so none is missed.
 */
export const ACTION_AT_EACH_PLACE: ReadonlySet<string> = new Set([
  // The member's own document wins: the group's entry for them does nothing there.
  'pins.group-overridden',
  // A {viewId} tab the member no longer pins: the entry names nothing.
  'pins.left-out',
  // A list left as it is, since nothing in it can be pinned.
  'pins.nothing-to-pin',
  // A users glob that reaches nobody.
  'pins.glob-reaches-none',
  // A document or `users` entry naming a member who left: delete or edit it.
  'pins.user-not-active',
  // A manifest whose viewId was deleted in the app and resolves by name: set the new id there.
  'view.id-replaced',
  // A {viewId} tab naming a view deleted in the app: name the view there instead.
  'pins.id-replaced',
  // The old name of a view the manifests rename: name it anew there (or `viewctl rename`).
  'pins.renamed-view',
]);

/** WarningGroup is the warnings of one code, in the order given: the first and the others. */
export interface WarningGroup<T> {
  code: string;
  first: T;
  others: T[];
}

/** groupWarnings gathers warnings by code, the groups in the order of their first warning. */
export function groupWarnings<T>(warnings: readonly T[], codeOf: (warning: T) => string): WarningGroup<T>[] {
  const groups = new Map<string, WarningGroup<T>>();
  for (const warning of warnings) {
    const code = codeOf(warning);
    const group = groups.get(code);
    if (group === undefined) groups.set(code, { code, first: warning, others: [] });
    else group.others.push(warning);
  }
  return [...groups.values()];
}

/**
 * groupLines is a group as printed: `first` (its first warning, rendered) followed by
 * how many more of the code there are and their places (`file:line:col`, undefined for
 * a warning without one). With `every`, each place is listed, wrapped under the first
 * line with `indent`; otherwise the first FEW_PLACES, on the same line.
 */
export function groupLines(
  first: string,
  places: readonly (string | undefined)[],
  every: boolean,
  indent = '  ',
): string[] {
  if (places.length === 0) return [first];
  const known = places.filter((place): place is string => place !== undefined);
  const more = `${formatCount(places.length)} more like it`;
  if (every && known.length > 0) {
    const placeless =
      known.length < places.length ? [`and ${formatCount(places.length - known.length)} without a place`] : [];
    return [
      `${first}; ${more}, each to act on (--show-warnings lists each):`,
      ...wrapList([...known, ...placeless], { indent }),
    ];
  }
  const shown = known.slice(0, FEW_PLACES);
  const rest = places.length - shown.length;
  const where =
    shown.length === 0
      ? ''
      : ` at ${shown.join(', ')}${rest > 0 ? ` and ${formatCount(rest)} other${rest === 1 ? '' : 's'}` : ''}`;
  return [`${first}; ${more}${where} (--show-warnings lists each)`];
}
