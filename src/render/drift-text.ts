import type picocolors from 'picocolors';
import type { DriftGroup } from '../plan/drift-causes.js';
import { safeText } from '../text/safe-text.js';
import { wrapList } from '../text/wrap.js';
import { driftWords, someNames } from './drift-words.js';
import { GROUP_THRESHOLD, type ReviewEntry } from './review-entries.js';

type Colors = ReturnType<typeof picocolors.createColors>;

/**
 * driftCauseLines are a plan's drift in the text plan, one block per cause (README,
 * "Drift: who, what, when"): the cause on the `! drift` line, who under it (members or
 * views listed once, compactly), then when and the way to repair or keep it.
 * `remembered` is `remembers(plan)`; lists wrap at `width`.
 */
export function driftCauseLines(
  groups: readonly DriftGroup[],
  remembered: boolean,
  c: Colors,
  width: number,
): string[] {
  return groups.flatMap((group) => {
    const words = driftWords(group, remembered, safeText);
    const details = group.changes.length > GROUP_THRESHOLD ? ' · every change is in the JSON plan' : '';
    return [
      `  ${c.magenta('! drift ')}  ${words.title}${words.sources.length === 0 ? '' : `  ${words.sources.map(safeText).join(', ')}`}`,
      ...wrapList(someNames(group, words.names), { indent: '      ', width }),
      ...wrapList(`${words.when}${details}`.split(' '), { separator: ' ', indent: '      ', width }),
      `      ${words.way}`,
    ];
  });
}

/**
 * driftDetailEntries are the detail blocks drift adds: each change of a cause of at most
 * GROUP_THRESHOLD changes, shown as the pull request's own are; a larger cause is told
 * by its lines alone (the JSON plan keeps every change).
 */
export function driftDetailEntries(groups: readonly DriftGroup[]): ReviewEntry[] {
  return groups.flatMap((group) =>
    group.changes.length > GROUP_THRESHOLD
      ? []
      : group.changes.map((change): ReviewEntry => ({ type: 'single', change })),
  );
}
