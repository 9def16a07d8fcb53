import type picocolors from 'picocolors';
import type { CreateChange, DeleteChange, PinChange, PinnedTab, Plan } from '../plan/types.js';
import { formatLine } from '../domain/source-position.js';
import { pinnersText } from './name-list.js';
import { formatCount, plural } from '../text/plural.js';
import { pinnedCount, pinnedNote } from './format.js';
import { quoted, safeText } from '../text/safe-text.js';
import { wrapList } from '../text/wrap.js';
import { batchAttributes } from './batch-attributes.js';
import {
  droppedPrivateCount,
  exceptionText,
  memberTabs,
  someMembers,
  summarisePinGroup,
  type MemberTabs,
  type TabListVariant,
} from './pin-group.js';
import type { BatchEntry } from './review-entries.js';

/**
 * The text plan's grouped entries (README, "What a reviewer sees"): the summary row
 * and the block of a group document's change, and of a batch of changes sharing a
 * cause. Every member and every view is named; what they share is said once.
 */

type Colors = ReturnType<typeof picocolors.createColors>;

/** SummaryRow is one line of the plan's summary: its columns, and wrapped lines under it that name a batch's changes. */
export interface SummaryRow {
  kind: string;
  name: string;
  source: string;
  names?: string[];
}

/** VARIANTS_SHOWN is how many distinct lists of a group the text shows before counting the rest. */
const VARIANTS_SHOWN = 10;

/** pinGroupRow is a group document's change in the summary: `group "Sales team"  deals · 52 members  pins/sales.yaml:4`. */
export function pinGroupRow(changes: readonly PinChange[]): SummaryRow {
  const [first] = changes;
  const summary = summarisePinGroup(changes);
  const dropped = droppedPrivateCount(summary);
  const unpins = dropped === 0 ? '' : ` · unpins ${plural(dropped, 'private tab')}`;
  return {
    kind: `group ${quoted(summary.group)}`,
    name: `${first?.domain ?? ''} · ${plural(summary.members.length, 'member')}${unpins}`,
    source: first?.source === undefined ? '' : `${safeText(first.source.file)}:${first.source.line}`,
  };
}

/**
 * batchRow is a batch in the summary: its kind and count and its cause. A batch of
 * deletions names each one on the lines under it (deletions are never hidden); the
 * others name theirs in their details.
 */
export function batchRow(entry: BatchEntry): SummaryRow {
  const count = formatCount(entry.changes.length);
  const cause = safeText(entry.cause);
  switch (entry.action) {
    case 'create':
      return { kind: `${entry.changes[0]?.kind ?? ''} × ${count}`, name: `in ${cause}`, source: '' };
    case 'delete':
      return {
        kind: `${entry.changes[0]?.kind ?? ''} × ${count}`,
        name: `owner ${cause}`,
        source: 'prune: not declared',
        names: entry.changes.map(
          (change) =>
            `${quoted(change.name)} (${safeText(change.id)}${pinnedCount(change) === '' ? '' : `, ${pinnedCount(change)}`})`,
        ),
      };
    default: {
      const [first] = entry.changes;
      if (first?.action === 'pin') {
        return { kind: `Pins × ${count}`, name: first.domain, source: cause };
      }
      if (first?.action === 'drift')
        return { kind: `${first.kind} × ${count}`, name: '', source: `${cause} (read-only)` };
      return { kind: `${first?.kind ?? ''} × ${count}`, name: `in ${cause}`, source: '' };
    }
  }
}

/** TabItems names each tab of a list, `(none)` for an empty one. */
type TabItems = (tabs: readonly PinnedTab[]) => string[];

/**
 * pinGroupLines is a group document's change in one domain, told once: before and
 * after (each distinct list with its members, most common first), the private tabs kept
 * or dropped apart, then every member.
 */
export function pinGroupLines(
  changes: readonly PinChange[],
  c: Colors,
  tabText: (tab: PinnedTab) => string,
  width: number,
): string[] {
  const [first] = changes;
  const summary = summarisePinGroup(changes);
  const tabs: TabItems = (list) => (list.length === 0 ? ['(none)'] : list.map(tabText));
  const source = first?.source === undefined ? '' : `  ${safeText(formatLine(first.source))}`;
  const lines = [
    c.cyan(
      `↻ ${first?.domain ?? ''} tabs of group ${quoted(summary.group)} (${plural(summary.members.length, 'member')})${source}`,
    ),
  ];
  lines.push(...variantLines('now:     ', summary.now, summary.members.length, tabs, width));
  lines.push(...variantLines('after:   ', summary.after, summary.members.length, tabs, width));
  lines.push(...exceptionLines('kept first for', summary.keptFirst, 'their private tabs', width));
  lines.push(...exceptionLines('kept in place for', summary.keptInPlace, 'their private tabs listed by viewId', width));
  if (summary.unpinned.length > 0) {
    // Dropped private tabs are the member's loss: every one is named.
    lines.push(c.red(`    unpins private tabs of ${plural(summary.unpinned.length, 'member')} (unpinPrivate: true):`));
    lines.push(
      ...wrapList(
        summary.unpinned.map((entry) => memberTabs(entry, safeText)),
        { separator: '; ', indent: '      ', width },
      ).map((line) => c.red(line)),
    );
  }
  lines.push(...labelled('members: ', summary.members.map(safeText), ', ', width));
  return lines;
}

function variantLines(
  label: string,
  variants: readonly TabListVariant[],
  total: number,
  tabs: TabItems,
  width: number,
): string[] {
  const [main, ...others] = variants;
  if (main === undefined) return [];
  if (others.length === 0) return labelled(label, tabs(main.tabs), ' · ', width);
  const shown = [main, ...others.slice(0, VARIANTS_SHOWN - 1)];
  const lines = shown.flatMap((variant, index) => {
    const items = tabs(variant.tabs);
    items.push(`${items.pop() ?? ''} (${someMembers(variant.members, total, safeText)})`);
    return labelled(index === 0 ? label : ' '.repeat(label.length), items, ' · ', width);
  });
  const rest = others.slice(VARIANTS_SHOWN - 1);
  if (rest.length > 0) {
    const members = rest.reduce((sum, variant) => sum + variant.members.length, 0);
    lines.push(
      `    ${' '.repeat(label.length)}… ${plural(rest.length, 'other list')} of ${plural(members, 'member')}: every list is in the JSON plan`,
    );
  }
  return lines;
}

function exceptionLines(label: string, entries: readonly MemberTabs[], what: string, width: number): string[] {
  if (entries.length === 0) return [];
  return wrapList(exceptionText(label, entries, what, safeText).split(' '), {
    separator: ' ',
    indent: '      ',
    width,
  }).map((line, index) => (index === 0 ? `    ${line.trimStart()}` : line));
}

/** labelled wraps items under a label: the first line after it, the others aligned with the first item. */
function labelled(label: string, items: readonly string[], separator: string, width: number): string[] {
  const indent = 4 + label.length;
  return wrapList(items, { separator, width: width - indent }).map(
    (line, index) => `${index === 0 ? `    ${label}` : ' '.repeat(indent)}${line}`,
  );
}

/**
 * batchLines are the attributes of many views created, or deleted by prune, for one
 * cause: those they all share once, then each view's own, one line each.
 */
export function batchLines(
  changes: readonly (CreateChange | DeleteChange)[],
  cause: string,
  plan: Plan,
  c: Colors,
  width: number,
): string[] {
  const [first] = changes;
  const creates = first?.action === 'create';
  const paint = creates ? c.green : c.red;
  const marker = creates ? '+' : '-';
  const kind = first?.kind ?? '';
  const { common, own } = batchAttributes(changes);
  const lines = [
    creates
      ? paint(
          `+ ${formatCount(changes.length)} ${kind}s in ${safeText(cause)}${plan.creatorEmail === undefined ? '' : `, owner ${safeText(plan.creatorEmail)}`}`,
        )
      : paint(`- ${formatCount(changes.length)} ${kind}s owned by ${safeText(cause)} (prune: not declared)`),
  ];
  if (common.length > 0) {
    lines.push(`    every one ${creates ? 'sets' : 'has'}:`, ...common.map((line) => paint(`  ${marker}   ${line}`)));
  }
  // A deleted view with nothing of its own is named in the summary already; a created one is named here only.
  const views = own.filter(
    (view) =>
      view.attributes.length > 0 ||
      view.change.action === 'create' ||
      (view.change.action === 'delete' && view.change.pinnedBy.length > 0),
  );
  if (views.length > 0)
    lines.push(
      common.length === 0
        ? '    each:'
        : views.some((view) => view.attributes.length > 0)
          ? '    and each its own:'
          : '    they are:',
    );
  for (const { change, attributes } of views) {
    const name =
      change.action === 'delete'
        ? `${quoted(change.name)} (${safeText(change.id)})${pinnedBy(change)}`
        : quoted(change.name);
    const text = attributes.length === 0 ? name : `${name}: ${attributes.join('; ')}`;
    lines.push(
      ...wrapList(text.split(', '), { indent: '        ', width }).map((line, index) =>
        paint(index === 0 ? `  ${marker}   ${line.trimStart()}` : line),
      ),
    );
  }
  return lines;
}

function pinnedBy(change: DeleteChange): string {
  if (change.pinnedBy.length === 0) return '';
  const note = pinnedNote(change);
  return `, pinned by ${pinnersText(change.pinnedBy, safeText)}${note === undefined ? '' : `; ${note}`}`;
}
