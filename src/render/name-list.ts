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
