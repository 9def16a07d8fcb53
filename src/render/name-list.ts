import { formatCount } from '../text/plural.js';

/** Escape makes a text safe for one renderer: markdown text or terminal text. */
export type Escape = (text: string) => string;

/**
 * firstNames is a name list cut after `shown` names, the rest counted: `a`, `b`,
 * `… 3 more` (the caller joins them). `name` writes each name kept, only those: a
 * group of thousands escapes a few.
 */
export function firstNames<T>(items: readonly T[], shown: number, name: (item: T) => string = String): string[] {
  const kept = items.slice(0, shown).map((item) => name(item));
  return items.length > shown ? [...kept, `… ${formatCount(items.length - shown)} more`] : kept;
}

/** PINNERS_SHOWN is how many members a deletion names as pinning the view before "and N more". */
const PINNERS_SHOWN = 10;

/** pinnersText names who pins a view a plan deletes: `a@x, b@x and 3 more`, each name kept written by `name`. */
export function pinnersText(pinnedBy: readonly string[], name: Escape): string {
  const shown = pinnedBy.slice(0, PINNERS_SHOWN).map(name).join(', ');
  return pinnedBy.length > PINNERS_SHOWN ? `${shown} and ${formatCount(pinnedBy.length - PINNERS_SHOWN)} more` : shown;
}
