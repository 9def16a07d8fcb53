import { pinnersText } from './name-list.js';
import { formatCount, plural } from '../text/plural.js';
import type {
  Change,
  CreateChange,
  DeleteChange,
  DriftChange,
  PinChange,
  PinnedTab,
  Plan,
  UpdateChange,
} from '../plan/types.js';
import { batchAttributes } from './batch-attributes.js';
import type { CommentPart } from './comment-budget.js';
import { deletedOutsideText, pinnedNote, pointerPath, updateDiff, valueText } from './format.js';
import { htmlCode, htmlName, htmlText } from './html-text.js';
import { codeSpan, fence, mdName, mdText } from './markdown-text.js';
import {
  exceptionText,
  memberTabs,
  someMembers,
  summarisePinGroup,
  type MemberTabs,
  type TabListVariant,
} from './pin-group.js';
import { attributeLines } from './plan-notes.js';
import type { ReviewEntry } from './review-entries.js';
import { droppedPrivateTabs, tabText } from './text.js';
import { genericBlock } from './action-marks.js';

/**
 * The collapsed blocks of the markdown plan, one per review entry (a batch of updates,
 * pin lists or drift gives one per change): each a CommentPart the comment budget may
 * leave out, or cut after its first members or views.
 */

/** ICONS mark each action in the markdown plan. */
export const ICONS = { create: '➕', update: '✏️', delete: '🗑️', pin: '📌', drift: '⚠️' } as const;

/** VARIANTS_SHOWN is how many distinct lists of a group a block shows before counting the rest. */
const VARIANTS_SHOWN = 3;

/** detailParts are the collapsed blocks of one review entry. */
export function detailParts(entry: ReviewEntry, plan: Plan): CommentPart[] {
  if (entry.type === 'pin-group') return [pinGroupPart(entry.changes)];
  if (entry.type === 'batch' && (entry.action === 'create' || entry.action === 'delete'))
    return [batchPart(entry.changes, entry.cause, plan)];
  const changes = entry.type === 'single' ? [entry.change] : entry.changes;
  return changes.map((change) => {
    const block = `\n${detailBlock(change, plan)}`;
    return { role: 'detail', items: 0, render: () => block, covers: [change] };
  });
}

function detailBlock(change: Change, plan: Plan): string {
  switch (change.action) {
    case 'create': {
      const owner = plan.creatorEmail === undefined ? '' : `, owner ${htmlText(plan.creatorEmail)}`;
      const deleted = deletedOutsideText(change);
      return attributesBlock(
        change,
        `${ICONS.create} ${htmlName(change.name)}${owner}${deleted === undefined ? '' : `, ${htmlText(deleted)}`}: the attributes it sets`,
        '+',
      );
    }
    case 'update':
      return updateBlock(change);
    case 'delete':
      // The deletion itself is a table row, never collapsed; only its attributes fold.
      return attributesBlock(
        change,
        `${ICONS.delete} ${htmlName(change.name)} (${htmlText(change.id)}): the attributes deleted with it`,
        '-',
      );
    case 'pin':
      return pinBlock(change);
    case 'drift':
      return driftBlock(change);
    default:
      return genericBlock(change);
  }
}

function attributesBlock(change: CreateChange | DeleteChange, summary: string, marker: '+' | '-'): string {
  return diffBlock(
    summary,
    attributeLines(change)
      .map((line) => `${marker}${line}`)
      .join('\n'),
  );
}

function updateBlock(change: UpdateChange): string {
  const body = updateDiff(change)
    .map((line) => (line.marker === 'gap' ? ' ⋯' : `${line.marker}${line.text}`))
    .join('\n');
  return diffBlock(`${ICONS.update} ${htmlName(change.name)} (${htmlText(change.id)})`, body);
}

/** diffBlock is a collapsed block holding `body` as a diff; `summary` is HTML (htmlText), not markdown. */
function diffBlock(summary: string, body: string): string {
  return [`<details><summary>${summary}</summary>`, '', ...diffFence(body), '</details>'].join('\n');
}

function diffFence(body: string): string[] {
  const fenceMark = fence(body);
  return [`${fenceMark}diff`, body, fenceMark];
}

/** tabList writes a pinned list for markdown: `A · B (new) · C`. */
function tabList(tabs: readonly PinnedTab[]): string {
  return tabs.length === 0 ? '(none)' : tabs.map((tab) => mdName(tabText(tab))).join(' · ');
}

function pinBlock(change: PinChange): string {
  const group = change.group === undefined ? '' : ` (group "${htmlText(change.group)}")`;
  const dropped = droppedPrivateTabs(change);
  return [
    `<details><summary>${ICONS.pin} ${change.domain} tabs of ${htmlText(change.userEmail)}${group}</summary>`,
    '',
    `- now: ${tabList(change.before)}`,
    `- after: ${tabList(change.after)}`,
    ...(dropped.length === 0 ? [] : [`- unpins private: ${tabList(dropped)} (\`unpinPrivate: true\`)`]),
    '</details>',
  ].join('\n');
}

function driftBlock(change: DriftChange): string {
  const file = change.source === undefined ? 'the AdminAutomations document' : codeSpan(change.source.file);
  let lines: string[];
  if (change.before === null) lines = [`- expected by ${file} but missing from the workspace`];
  else if (change.after === null)
    lines = [`- in the workspace${change.id === undefined ? '' : ` (${mdText(change.id)})`} but not in ${file}`];
  else {
    lines = change.differences.map(
      (difference) =>
        `- ${codeSpan(pointerPath(difference.pointer))}: ${mdText(valueText(difference.actual))} (expected ${mdText(valueText(difference.expected))})`,
    );
  }
  return [
    `<details><summary>${ICONS.drift} ${htmlName(change.name)}</summary>`,
    '',
    ...lines,
    '',
    'Fix it in the workspace settings; apply cannot.',
    '</details>',
  ].join('\n');
}

/** leftOutItems is the line that ends a list cut to fit: how many it leaves out. */
function leftOutItems(count: number, what: string): string {
  return `- … ${formatCount(count)} more ${count === 1 ? what : `${what}s`}, left out to fit one comment (the full plan lists them)`;
}

/**
 * pinGroupPart is a group document's change in one domain: before and after once,
 * the exceptions apart (private tabs kept or dropped, members whose lists differ),
 * then the members; the budget may cut the members after the first few.
 */
function pinGroupPart(changes: readonly PinChange[]): CommentPart {
  const [first] = changes;
  const summary = summarisePinGroup(changes);
  const head = [
    `<details><summary>${ICONS.pin} ${first?.domain ?? ''} tabs of group "${htmlText(summary.group)}" (${plural(summary.members.length, 'member')})</summary>`,
    '',
    ...variantLines('now', summary.now, summary.members.length),
    ...variantLines('after', summary.after, summary.members.length),
    ...exceptionLine('kept first for', summary.keptFirst, 'their private tabs'),
    ...exceptionLine('kept in place for', summary.keptInPlace, 'their private tabs listed by `viewId`'),
    // Dropped private tabs are the member's loss: every one is named.
    ...(summary.unpinned.length === 0
      ? []
      : [
          `- **unpins private tabs of ${plural(summary.unpinned.length, 'member')}** (\`unpinPrivate: true\`): ${summary.unpinned.map((entry) => memberTabs(entry, mdText)).join('; ')}`,
        ]),
  ];
  const members = summary.members.map(mdText);
  return {
    role: 'detail',
    items: members.length,
    covers: changes,
    render: (keep) => {
      const shown = members.slice(0, keep).join(', ');
      const rest = keep < members.length ? [leftOutItems(members.length - keep, 'member')] : [];
      return `\n${[...head, `- members: ${shown}`, ...rest, '</details>'].join('\n')}`;
    },
  };
}

function variantLines(label: string, variants: readonly TabListVariant[], total: number): string[] {
  const [main, ...others] = variants;
  if (main === undefined) return [];
  if (others.length === 0) return [`- ${label}: ${tabList(main.tabs)}`];
  const lines = [main, ...others.slice(0, VARIANTS_SHOWN - 1)].map(
    (variant) => `- ${label} (${someMembers(variant.members, total, mdText)}): ${tabList(variant.tabs)}`,
  );
  const rest = others.slice(VARIANTS_SHOWN - 1);
  if (rest.length > 0) {
    const members = rest.reduce((sum, variant) => sum + variant.members.length, 0);
    lines.push(`- ${label}: ${plural(rest.length, 'other list')} of ${plural(members, 'member')}, in the full plan`);
  }
  return lines;
}

function exceptionLine(label: string, entries: readonly MemberTabs[], what: string): string[] {
  return entries.length === 0 ? [] : [`- ${exceptionText(label, entries, what, mdText)}`];
}

/**
 * batchPart is many views created, or deleted by prune, for one cause: the attributes
 * they all share once, then each view's own; the budget may cut the views after the
 * first few.
 */
function batchPart(changes: readonly (CreateChange | DeleteChange)[], cause: string, plan: Plan): CommentPart {
  const [first] = changes;
  const creates = first?.action === 'create';
  const { common, own } = batchAttributes(changes);
  const marker = creates ? '+' : '-';
  const kind = first?.kind ?? '';
  const title = creates
    ? `${ICONS.create} ${formatCount(changes.length)} ${kind}s in ${htmlCode(cause)}${plan.creatorEmail === undefined ? '' : `, owner ${htmlText(plan.creatorEmail)}`}: the attributes they set`
    : `${ICONS.delete} ${formatCount(changes.length)} ${kind}s owned by ${htmlText(cause)}: the attributes deleted with them`;
  const head = [`<details><summary>${title}</summary>`, ''];
  if (common.length > 0)
    head.push(
      `Every one ${creates ? 'sets' : 'has'}:`,
      '',
      ...diffFence(common.map((line) => `${marker}${line}`).join('\n')),
      '',
    );
  // A deleted view with nothing of its own is named in its row already (never left out); a created one may not be.
  const views = own.filter(
    (view) =>
      view.attributes.length > 0 ||
      view.change.action === 'create' ||
      (view.change.action === 'delete' && view.change.pinnedBy.length > 0),
  );
  const lines = views.map(({ change, attributes }) => {
    const name =
      change.action === 'delete'
        ? `**${mdName(change.name)}** (${mdText(change.id)}${pinners(change)})`
        : mdName(change.name);
    return attributes.length === 0 ? `- ${name}` : `- ${name}: ${codeSpan(attributes.join('; '))}`;
  });
  if (lines.length > 0)
    head.push(
      common.length === 0
        ? 'Each:'
        : views.some((view) => view.attributes.length > 0)
          ? 'And each its own:'
          : 'They are:',
      '',
    );
  return {
    role: 'detail',
    items: lines.length,
    covers: changes,
    render: (keep) => {
      const rest = keep < lines.length ? [leftOutItems(lines.length - keep, 'view')] : [];
      return `\n${[...head, ...lines.slice(0, keep), ...rest, '</details>'].join('\n')}`;
    },
  };
}

/** pinners says who pins a deleted view: `, pinned by a@x, b@x`. */
function pinners(change: DeleteChange): string {
  if (change.pinnedBy.length === 0) return '';
  const note = pinnedNote(change);
  return `, pinned by ${pinnersText(change.pinnedBy, mdText)}${note === undefined ? '' : `; ${mdText(note)}`}`;
}
