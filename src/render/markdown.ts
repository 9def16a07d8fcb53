import { formatLine } from '../domain/source-position.js';
import { safeText } from '../text/safe-text.js';
import { plural } from '../text/plural.js';
import { budgetText, byOrigin, originHeading, pointerPath, scopeText, updateDiff, valueText } from './format.js';
import type { RenderOptions } from './options.js';
import { warningEntries } from './warning-lines.js';
import { droppedPrivateTabs, skippedText, tabText } from './text.js';
import { attributeLines, maxDeletesNote, ownerText, targetsNote } from './plan-notes.js';
import type { Change, CreateChange, DeleteChange, DriftChange, PinChange, Plan, UpdateChange } from '../plan/types.js';

/** MARKDOWN_LIMIT is the most characters a rendering may have: a PR comment holds 65,536. */
export const MARKDOWN_LIMIT = 65_000;

const ICONS = { create: '➕', update: '✏️', delete: '🗑️', pin: '📌', drift: '⚠️' } as const;

/**
 * renderMarkdown is the plan as one pull-request comment (README, plan): the counts,
 * whether it is targeted or apply will refuse it, a table with one row per change
 * (deletions in bold, never collapsed), a collapsed block per create and delete (its
 * attributes), update, pin list and drift, and a footer with the digest and the budget.
 * It never passes MARKDOWN_LIMIT: the details of the largest changes go first, then
 * table rows (deletions last), and a last line says what was left out and where the
 * full plan is.
 */
export function renderMarkdown(plan: Plan, options: RenderOptions): string {
  const heading = `### viewctl plan: ${mdText(plan.workspace.name)} (${mdText(plan.workspace.id)})`;
  const skipped = skippedText(plan);
  const warnings = [
    ...warningEntries(plan.warnings, options.showWarnings).flatMap((lines) => lines.map((line, index) => (index === 0 ? `> ⚠️ ${mdText(line)}` : `> ${mdText(line.trim())}`))),
    ...(skipped === undefined ? [] : [`> ${mdText(skipped)}`]),
  ];
  const targeted = targetsNote(plan);
  const notes = targeted === undefined ? [] : [`*${mdText(targeted)}*`];
  const scope = scopeText(plan);
  const scopeNotes = scope === undefined ? [] : [`*${mdText(scope)}*`];
  if (plan.changes.length === 0) {
    return [heading, `No changes: the workspace matches the manifests (read ${plural(plan.requests.used, 'request')}).`, ...scopeNotes, ...notes, ...warnings, ''].join('\n');
  }
  const refusal = options.context === 'apply' ? undefined : maxDeletesNote(plan, options.maxDeletes);
  if (refusal !== undefined) notes.push(`> ⛔ **${mdText(refusal)}**`);
  const { summary } = plan;
  const counts = [
    plural(summary.create, 'create'), plural(summary.update, 'update'), plural(summary.delete, 'delete'),
    plural(summary.pin, 'pin list'), plural(summary.drift, 'drift'),
  ].join(' · ');
  // The pull request's own changes first; those it did not ask for (--base REF) get a table per origin.
  const groups = byOrigin(plan.changes);
  const changes = groups.flatMap((group) => group.changes);
  const table = ['| | kind | name | source |', '|---|---|---|---|'];
  const above = [...scopeNotes, ...notes];
  const head = [heading, `**${counts}**`, ...(above.length === 0 ? [] : ['', ...above])];
  const sections: TableSection[] = [];
  let from = 0;
  for (const group of groups) {
    const title = group.origin === undefined ? [] : ['', `**${mdText(originHeading(plan, group.origin))}**`];
    sections.push({ from, head: [...title, '', ...table] });
    from += group.changes.length;
  }
  const rows = changes.map(tableRow);
  const details = changes.map((change) => detailBlock(change, plan));
  const footer = `Digest \`${plan.digest}\` · apply needs ${plural(plan.requests.applyNeeds, 'request')} · ${budgetText(plan)}`;
  return fit({ head, sections }, rows, warnings, details, footer, changes, options);
}

/** TableSection is one table of changes: its opening lines, and the first row (of all the tables' rows) it holds. */
interface TableSection {
  from: number;
  head: string[];
}

/** TableHead is what comes before the tables, and the tables, each holding the rows up to the next one's `from`. */
interface TableHead {
  head: string[];
  sections: TableSection[];
}

/** fit assembles the comment, leaving out details and then rows until it is short enough. */
function fit(
  tableHead: TableHead, rows: string[], warnings: string[], details: (string | undefined)[], footer: string,
  changes: readonly Change[], options: RenderOptions,
): string {
  const { head, sections } = tableHead;
  const assemble = (keptRows: boolean[], keptDetails: boolean[], note?: string): string => {
    const parts = [...head];
    sections.forEach((section, index) => {
      const to = sections[index + 1]?.from ?? rows.length;
      parts.push(...section.head, ...rows.slice(section.from, to).filter((_, at) => keptRows[section.from + at]));
    });
    if (warnings.length > 0) parts.push('', ...warnings);
    for (const [index, block] of details.entries()) if (block !== undefined && keptDetails[index]) parts.push('', block);
    parts.push('', footer);
    if (note !== undefined) parts.push('', note);
    return `${parts.join('\n')}\n`;
  };
  const keptRows = rows.map(() => true);
  const keptDetails = details.map((block) => block !== undefined);
  const whole = assemble(keptRows, keptDetails);
  if (whole.length <= MARKDOWN_LIMIT) return whole;

  const noteFor = (droppedDetails: number, droppedRows: number): string => {
    const what = [
      droppedDetails > 0 ? plural(droppedDetails, 'change detail') : '',
      droppedRows > 0 ? plural(droppedRows, 'table row') : '',
    ].filter((part) => part !== '').join(' and ');
    const where = options.planFile === undefined
      ? 'run `viewctl plan --out plan.json` for the full JSON plan'
      : `the full plan is in the JSON plan \`${mdText(options.planFile)}\``;
    return `*${what} left out to fit one comment; ${where}.*`;
  };
  // Reserve room for the note at its longest, so adding it never breaks the limit.
  const budget = MARKDOWN_LIMIT - noteFor(details.length, rows.length).length - 2;
  let length = whole.length;
  // drop leaves out parts in `order`, lowering `length` by each one's text and `feeds` line feeds, until the comment fits.
  const drop = (order: readonly number[], parts: readonly (string | undefined)[], kept: boolean[], feeds: number): number => {
    let dropped = 0;
    for (const index of order) {
      if (length <= budget) break;
      kept[index] = false;
      length -= (parts[index]?.length ?? 0) + feeds;
      dropped += 1;
    }
    return dropped;
  };
  const bySize = [...details.keys()].filter((index) => details[index] !== undefined)
    .sort((a, b) => (details[b]?.length ?? 0) - (details[a]?.length ?? 0) || a - b);
  const droppedDetails = drop(bySize, details, keptDetails, 2);
  // Rows go last, and deletions only when nothing else is left to drop.
  const rowOrder = [...rows.keys()].reverse().sort((a, b) => Number(changes[a]?.action === 'delete') - Number(changes[b]?.action === 'delete'));
  const droppedRows = drop(rowOrder, rows, keptRows, 1);
  return assemble(keptRows, keptDetails, noteFor(droppedDetails, droppedRows));
}

function tableRow(change: Change): string {
  const source = change.source === undefined ? '' : codeSpan(formatLine(change.source));
  const icon = ICONS[change.action];
  switch (change.action) {
    case 'create':
      return `| ${icon} | ${change.kind} | ${mdText(change.name)} | ${source} |`;
    case 'update':
      return `| ${icon} | ${change.kind} | ${mdText(change.name)} (${mdText(change.id)}) | ${source} |`;
    case 'delete': {
      const pinned = change.pinnedBy.length === 0 ? '' : `, pinned by ${plural(change.pinnedBy.length, 'user')}`;
      const owner = mdText(ownerText(change));
      return `| ${icon} | ${change.kind} | **${mdText(change.name)}** (${mdText(change.id)}, owner ${owner}${pinned}) | prune: not declared |`;
    }
    case 'pin': {
      const group = change.group === undefined ? '' : ` · group "${mdText(change.group)}"`;
      // Unpinned private tabs show in the table: like deletions, never only in a collapsed block.
      const dropped = droppedPrivateTabs(change).length;
      const unpins = dropped === 0 ? '' : ` · **unpins ${plural(dropped, 'private tab')}**`;
      return `| ${icon} | Pins | ${mdText(change.userEmail)} · ${change.domain}${unpins} | ${source}${group} |`;
    }
    case 'drift':
      return `| ${icon} | Drift | ${mdText(change.name)} | ${source} (read-only) |`;
  }
}

function detailBlock(change: Change, plan: Plan): string | undefined {
  switch (change.action) {
    case 'create': {
      const owner = plan.creatorEmail === undefined ? '' : `, owner ${mdText(plan.creatorEmail)}`;
      return attributesBlock(change, `${ICONS.create} ${mdText(change.name)}${owner}: the attributes it sets`, '+');
    }
    case 'update':
      return updateBlock(change);
    case 'delete':
      // The deletion itself is a table row, never collapsed; only its attributes fold.
      return attributesBlock(change, `${ICONS.delete} ${mdText(change.name)} (${mdText(change.id)}): the attributes deleted with it`, '-');
    case 'pin':
      return pinBlock(change);
    case 'drift':
      return driftBlock(change);
  }
}

function attributesBlock(change: CreateChange | DeleteChange, summary: string, marker: '+' | '-'): string {
  return diffBlock(summary, attributeLines(change).map((line) => `${marker}${line}`).join('\n'));
}

function updateBlock(change: UpdateChange): string {
  const body = updateDiff(change).map((line) => (line.marker === 'gap' ? ' ⋯' : `${line.marker}${line.text}`)).join('\n');
  return diffBlock(`${ICONS.update} ${mdText(change.name)} (${mdText(change.id)})`, body);
}

/** diffBlock is a collapsed block holding `body` as a diff. */
function diffBlock(summary: string, body: string): string {
  const fenceMark = fence(body);
  return [`<details><summary>${summary}</summary>`, '', `${fenceMark}diff`, body, fenceMark, '</details>'].join('\n');
}

function pinBlock(change: PinChange): string {
  const list = (tabs: PinChange['before']): string => (tabs.length === 0 ? '(none)' : tabs.map((tab) => mdText(tabText(tab))).join(' · '));
  const group = change.group === undefined ? '' : ` (group "${mdText(change.group)}")`;
  const dropped = droppedPrivateTabs(change);
  return [
    `<details><summary>${ICONS.pin} ${change.domain} tabs of ${mdText(change.userEmail)}${group}</summary>`, '',
    `- now: ${list(change.before)}`, `- after: ${list(change.after)}`,
    ...(dropped.length === 0 ? [] : [`- unpins private: ${list(dropped)} (\`unpinPrivate: true\`)`]),
    '</details>',
  ].join('\n');
}

function driftBlock(change: DriftChange): string {
  const file = change.source === undefined ? 'the AdminAutomations document' : codeSpan(change.source.file);
  let lines: string[];
  if (change.before === null) lines = [`- expected by ${file} but missing from the workspace`];
  else if (change.after === null) lines = [`- in the workspace${change.id === undefined ? '' : ` (${mdText(change.id)})`} but not in ${file}`];
  else {
    lines = change.differences.map((difference) =>
      `- ${codeSpan(pointerPath(difference.pointer))}: ${mdText(valueText(difference.actual))} (expected ${mdText(valueText(difference.expected))})`);
  }
  return [
    `<details><summary>${ICONS.drift} ${mdText(change.name)}</summary>`, '',
    ...lines, '', 'Fix it in the workspace settings; apply cannot.', '</details>',
  ].join('\n');
}

/**
 * mdText is the one escaping rule for markdown (a PR comment): terminal-unsafe
 * characters escaped visibly as in text, markdown punctuation backslash-escaped (no
 * link, image, emphasis or heading can form; `|` so table cells hold), `&`, `<`, `>`
 * as entities (no HTML), and the `:` of `scheme://` and the `.` of `www.` escaped so
 * GitHub does not autolink a URL.
 */
export function mdText(text: string): string {
  return safeText(text)
    .replace(/[\\`*_[\]~|#]/g, (char) => `\\${char}`)
    .replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
    .replace(/:(?=\/\/)/g, '\\:')
    .replace(/(www)\./gi, '$1\\.');
}

/** codeSpan wraps text in a code span that its own backticks cannot close; `|` escaped for tables. */
export function codeSpan(text: string): string {
  const safe = safeText(text).replace(/\|/g, '\\|');
  const longest = longestBacktickRun(safe);
  const ticks = '`'.repeat(longest + 1);
  return longest === 0 ? `${ticks}${safe}${ticks}` : `${ticks} ${safe} ${ticks}`;
}

/** fence is a code fence longer than any backtick run in `body`. */
export function fence(body: string): string {
  return '`'.repeat(Math.max(3, longestBacktickRun(body) + 1));
}

function longestBacktickRun(text: string): number {
  return Math.max(0, ...[...text.matchAll(/`+/g)].map((match) => match[0].length));
}
