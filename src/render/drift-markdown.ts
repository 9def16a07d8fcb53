import type { DriftGroup } from '../plan/drift-causes.js';
import type { CommentPart } from './comment-budget.js';
import { driftWords, namesShown } from './drift-words.js';
import { ICONS } from './markdown-details.js';
import { codeSpan, mdName, mdText } from './markdown-text.js';
import { firstNames } from './name-list.js';

/**
 * driftRowPart is one cause of drift as a row of the markdown plan's table (README,
 * "Drift: who, what, when"): the cause in bold, who (members or views, each once), and
 * when with the way to repair or keep it. A change made, or maybe made, in the app is
 * kept like a deletion (`must`): its names are cut only when the comment cannot hold them. Joiners pending are an ordinary row.
 */
export function driftRowPart(group: DriftGroup, remembered: boolean): CommentPart {
  const words = driftWords(group, remembered, mdName, (name) => `**${name}**`);
  const { names } = words;
  // Every deletion is named, and every change of a cause up to GROUP_THRESHOLD; a larger cause names its first few, as the text does.
  const shown = namesShown(group);
  const head = `| ${ICONS.drift} | Drift | **${words.title}**: `;
  const sources =
    words.sources.length === 0
      ? ''
      : `${words.sources.map((source) => (source.startsWith('… ') ? source : codeSpan(source))).join(', ')} · `;
  const tail = ` | ${sources}${words.when} · ${mdText(words.way)} |`;
  return {
    role: group.origin === 'membership' ? 'row' : 'must',
    items: shown,
    covers: group.changes,
    render: (keep) => `${head}${firstNames(names, keep).join(' · ')}${tail}`,
  };
}
