import picocolors from 'picocolors';
import { quoted, safeText } from '../text/safe-text.js';
import { pinnersText } from './name-list.js';
import { formatCount, formatRate, plural } from '../text/plural.js';
import {
  applyEstimate,
  applyCost,
  budgetText,
  deletedOutsideText,
  pinnedCount,
  pointerPath,
  renamedName,
  scopeText,
  shellWord,
  updateDiff,
  valueText,
} from './format.js';
import type { RenderOptions } from './options.js';
import { warningEntries } from './warning-lines.js';
import { heldEntry, heldHeading } from './held-lines.js';
import { attributeLines, maxDeletesNote, ownerText, targetsNote } from './plan-notes.js';
import { appOwnsNote, maxPinChangesNote } from './share-notes.js';
import { fitText, keepWhole, WRAP_WIDTH, wrapList } from '../text/wrap.js';
import { DEFAULT_RATE } from '../domain/domains.js';
import { shortDigest } from '../plan/hash.js';
import { countedTotals } from '../plan/action-traits.js';
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
import { entryAction, entryChanges, type ReviewEntry } from './review-entries.js';
import { batchLines, batchRow, pinGroupLines, pinGroupRow, type SummaryRow } from './text-groups.js';
import { automationDrifts, driftCount, remembers } from './drift-words.js';
import { driftCauseLines, driftDetailEntries } from './drift-text.js';
import { planSections } from './plan-sections.js';
import { actionMark, genericLines, genericRow } from './action-marks.js';

type Colors = ReturnType<typeof picocolors.createColors>;

/** Columns wider than this do not push every other row right; longer values overflow. */
const MAX_COLUMN = 48;

/**
 * renderText is the plan for a terminal (README, plan): a header, one line per cause
 * traced to its manifest line (a group document's change, or more than a few changes
 * sharing a folder or, for deletions, an owner, is one line; deletions are each named),
 * the details a reviewer needs (the attributes of creates, YAML diffs of updates,
 * deletions with owner, pinners and attributes, tab lists told once per group, drift),
 * then the counts, the request budget and the digest. A plan with nothing to do is one line.
 * Lines are wrapped to a terminal's `options.width` (README, "Output"), commands and YAML kept whole.
 */
export function renderText(plan: Plan, options: RenderOptions): string {
  return fitText(planText(plan, options), options.width);
}

function planText(plan: Plan, options: RenderOptions): string {
  const c = picocolors.createColors(options.color);
  // Lists wrap at the terminal's width, or at WRAP_WIDTH off a terminal.
  const width = options.width ?? WRAP_WIDTH;
  const workspace = `${safeText(plan.workspace.name)} (${safeText(plan.workspace.id)})`;
  const warnings = warningEntries(plan.warnings, options.showWarnings).flatMap((lines) =>
    lines.map((line, index) => c.yellow(index === 0 ? `warning: ${safeText(line)}` : safeText(line))),
  );
  const targeted = noteLines(targetsNote(plan), width);
  const skipped = skippedText(plan);
  const leftToApp = appOwnsNote(plan);
  const scope = scopeText(plan);
  const scopeLines = scope === undefined ? [] : [scope];
  const held = heldLines(plan, c);
  if (plan.changes.length === 0) {
    const none =
      held.length === 0
        ? `No changes. Workspace ${workspace} matches the manifests (read ${plural(plan.requests.used, 'request')}).`
        : `No other changes. Workspace ${workspace} matches the manifests apart from what is held (read ${plural(plan.requests.used, 'request')}).`;
    return [
      ...held,
      none,
      ...scopeLines,
      ...targeted,
      ...warnings,
      ...(skipped === undefined ? [] : [skipped]),
      ...(leftToApp === undefined ? [] : [leftToApp]),
      '',
    ].join('\n');
  }
  const elapsed = options.elapsedMs === undefined ? '' : ` in ${(options.elapsedMs / 1000).toFixed(1)} s`;
  const lines = [
    `viewctl plan · workspace ${workspace} · read ${plural(plan.requests.used, 'request')}${elapsed}`,
    ...targeted,
  ];
  // Held targets first: what this plan will not do, and why, before what it will.
  if (held.length > 0) lines.push('', ...held.slice(0, -1));
  // Said before the list, where a reviewer decides whether to read on.
  if (options.context !== 'apply')
    lines.push(
      ...[maxDeletesNote(plan, options.maxDeletes), maxPinChangesNote(plan, options.maxPinChanges)]
        .flatMap((note) => noteLines(note, width))
        .map((line) => c.red(line)),
    );
  lines.push('');
  if (scope !== undefined) lines.push(scope, '');
  // The pull request's own changes first; those it did not ask for (--base REF) under their origin's heading.
  // Changes with an origin are drift, told by cause; a sweep's merged but unapplied changes get a heading of their own.
  const sections = planSections(plan);
  const remembered = remembers(plan);
  for (const section of sections) {
    lines.push(
      ...(section.heading === undefined ? [] : [section.heading]),
      ...summaryLines(section.entries, c, width),
      ...driftCauseLines(section.drift, remembered, c, width),
      '',
    );
  }
  for (const entry of sections.flatMap((section) => [...section.entries, ...driftDetailEntries(section.drift)])) {
    for (const block of entryDetails(entry, plan, c, width)) if (block.length > 0) lines.push(...block, '');
  }
  if (warnings.length > 0) lines.push(...warnings, '');
  if (skipped !== undefined) lines.push(skipped, '');
  if (leftToApp !== undefined) lines.push(leftToApp, '');
  lines.push(...footerLines(plan, options), '');
  return lines.join('\n');
}

/** heldLines are the held targets, heading first, each with its way out, ending with a blank line; none when nothing is held. */
function heldLines(plan: Plan, c: Colors): string[] {
  const heading = heldHeading(plan);
  if (heading === undefined) return [];
  const entries = (plan.held ?? []).flatMap((held) => {
    const [what, wayOut] = heldEntry(held);
    return [`  ${c.yellow('⏸ held')}  ${safeText(what)}`, `            ${safeText(wayOut)}`];
  });
  return [c.yellow(heading), ...entries, ''];
}

function summaryLines(entries: readonly ReviewEntry[], c: Colors, width: number): string[] {
  if (entries.length === 0) return [];
  const rows = entries.map(entryRow);
  const kindWidth = Math.min(MAX_COLUMN, Math.max(...rows.map((row) => row.kind.length)));
  const nameWidth = Math.min(MAX_COLUMN, Math.max(...rows.map((row) => row.name.length)));
  return entries.flatMap((entry, index) => {
    const row = rows[index] ?? { kind: '', name: '', source: '' };
    // The action's mark as its traits say (README, plan): `+ create`, `↻ pins`, ...
    const { symbol, color, label } = actionMark({ action: entryAction(entry) });
    const mark = c[color](`${symbol} ${label.padEnd(6)}`);
    // A cell is kept whole on a narrow terminal: a name broken across lines reads as two.
    const line =
      `  ${mark}  ${keepWhole(row.kind).padEnd(kindWidth)}  ${keepWhole(row.name).padEnd(nameWidth)}  ${row.source}`.trimEnd();
    // A batch names every change it stands for, wrapped under its line: deletions are never hidden.
    return [line, ...(row.names === undefined ? [] : wrapList(row.names, { indent: '      ', width }))];
  });
}

function entryRow(entry: ReviewEntry): SummaryRow {
  if (entry.type === 'single') return summaryRow(entry.change);
  if (entry.type === 'pin-group') return pinGroupRow(entry.changes);
  return batchRow(entry);
}

/** entryDetails are the blocks of an entry: one for a group or a batch of creates or deletes, one per change otherwise. */
function entryDetails(entry: ReviewEntry, plan: Plan, c: Colors, width: number): string[][] {
  if (entry.type === 'pin-group') return [pinGroupLines(entry.changes, c, tabText, width)];
  if (entry.type === 'batch' && (entry.action === 'create' || entry.action === 'delete'))
    return [batchLines(entry.changes, entry.cause, plan, c, width)];
  return entryChanges(entry).map((change) => detailLines(change, plan, c, width));
}

function summaryRow(change: Change): SummaryRow {
  const source = change.source === undefined ? '' : `${safeText(change.source.file)}:${change.source.line}`;
  switch (change.action) {
    case 'create': {
      const deleted = deletedOutsideText(change);
      return {
        kind: change.kind,
        name: quoted(change.name),
        source: deleted === undefined ? source : `${source} · ${deleted}`.trimStart(),
      };
    }
    case 'update':
      return { kind: change.kind, name: `${renamedName(change, quoted)} (${safeText(change.id)})`, source };
    case 'delete':
      return {
        kind: change.kind,
        name: `${quoted(change.name)} (${safeText(change.id)})`,
        source: 'prune: not declared',
      };
    case 'pin':
      return {
        kind: safeText(change.userEmail),
        name: change.domain,
        source: change.group === undefined ? source : `${source} · group ${quoted(change.group)}`,
      };
    case 'drift':
      return { kind: change.kind, name: quoted(change.name), source: `${source} (read-only)`.trimStart() };
    default:
      // A registered kind's change: its common fields.
      return genericRow(change);
  }
}

/** noteLines wraps a note (plain text, made safe here) at the plan's width. */
function noteLines(note: string | undefined, width: number): string[] {
  return note === undefined ? [] : wrapList(safeText(note).split(' '), { separator: ' ', width });
}

function detailLines(change: Change, plan: Plan, c: Colors, width: number): string[] {
  switch (change.action) {
    case 'create':
      return createLines(change, plan, c);
    case 'update':
      return updateLines(change, c);
    case 'delete':
      return deleteLines(change, c);
    case 'pin':
      return pinLines(change, c, width);
    case 'drift':
      return driftLines(change, c);
    default:
      return genericLines(change, (line) => c[actionMark(change).color](line));
  }
}

function updateLines(change: UpdateChange, c: Colors): string[] {
  const lines = [c.yellow(`~ ${change.kind} ${renamedName(change, quoted)} (${safeText(change.id)})`)];
  // A YAML line is kept whole: wrapped, its rest would read as another key.
  for (const line of updateDiff(change)) {
    if (line.marker === 'gap') lines.push(c.dim('    ⋯'));
    else if (line.marker === '+') lines.push(c.green(`  + ${keepWhole(line.text)}`));
    else if (line.marker === '-') lines.push(c.red(`  - ${keepWhole(line.text)}`));
    else lines.push(`    ${keepWhole(line.text)}`);
  }
  return lines;
}

/** createLines show every attribute the create sets, under the owner it will have. */
function createLines(change: CreateChange, plan: Plan, c: Colors): string[] {
  const owner = plan.creatorEmail === undefined ? '' : `, owner ${safeText(plan.creatorEmail)}`;
  const deleted = deletedOutsideText(change);
  return [
    c.green(`+ ${change.kind} ${quoted(change.name)}${owner}`),
    ...(deleted === undefined ? [] : [`    ${deleted}`]),
    ...attributeLines(change).map((line) => c.green(`  + ${line}`)),
  ];
}

function deleteLines(change: DeleteChange, c: Colors): string[] {
  const owner = safeText(ownerText(change));
  const pinned = pinnedCount(change) === '' ? '' : `, ${pinnedCount(change)}`;
  const lines = [c.red(`- ${change.kind} ${quoted(change.name)} (${safeText(change.id)}), owner ${owner}${pinned}`)];
  if (change.pinnedBy.length > 0) {
    lines.push(`    pinned by: ${pinnersText(change.pinnedBy, safeText)}`);
  }
  lines.push(...attributeLines(change).map((line) => c.red(`  - ${line}`)));
  return lines;
}

/** tabText names a tab with its marks: `(private)`, `(new)`. */
export function tabText(tab: PinnedTab): string {
  const marks = [tab.visibility === 'Private' ? ' (private)' : '', tab.viewId === null ? ' (new)' : ''].join('');
  return `${safeText(tab.name)}${marks}`;
}

function pinLines(change: PinChange, c: Colors, width: number): string[] {
  // Wrapped under their label: a member with many tabs still gets readable lines.
  const list = (label: string, tabs: readonly PinnedTab[], suffix = ''): string[] => {
    const indent = 4 + label.length;
    const lines =
      tabs.length === 0 ? ['(none)'] : wrapList(tabs.map(tabText), { separator: ' · ', width: width - indent });
    return lines.map(
      (line, index) =>
        `${index === 0 ? `    ${label}` : ' '.repeat(indent)}${line}${index === lines.length - 1 ? suffix : ''}`,
    );
  };
  const group = change.group === undefined ? '' : ` (group ${quoted(change.group)})`;
  const dropped = droppedPrivateTabs(change);
  return [
    c.cyan(`↻ ${change.domain} tabs of ${safeText(change.userEmail)}${group}`),
    ...list('now:   ', change.before),
    ...list('after: ', change.after),
    ...(dropped.length === 0
      ? []
      : list('unpins private: ', dropped, ' (unpinPrivate: true)').map((line) => c.red(line))),
  ];
}

/** droppedPrivateTabs are the private tabs a pin change drops, which only `unpinPrivate: true` allows. */
export function droppedPrivateTabs(change: PinChange): PinnedTab[] {
  const after = new Set(change.after.map((tab) => tab.viewId));
  return change.before.filter((tab) => tab.visibility === 'Private' && !after.has(tab.viewId));
}

/** skippedText says how many members group pin documents skipped as not active, when any. */
export function skippedText(plan: Plan): string | undefined {
  const skipped = plan.skippedMembers ?? 0;
  if (skipped === 0) return undefined;
  return `Group pins skip ${plural(skipped, 'member')} a glob or a role reaches who ${skipped === 1 ? 'is' : 'are'} not active (deactivated or invited).`;
}

function driftLines(change: DriftChange, c: Colors): string[] {
  const file = change.source === undefined ? 'the AdminAutomations document' : safeText(change.source.file);
  const id = change.id === undefined ? '' : ` (${safeText(change.id)})`;
  const advice = 'fix it in the workspace settings; apply cannot';
  if (change.before === null) {
    return [
      c.magenta(`! ${quoted(change.name)} is expected by ${file} but missing from the workspace`),
      `    ${advice}`,
    ];
  }
  if (change.after === null) {
    return [
      c.magenta(`! ${quoted(change.name)}${id} is in the workspace but not in ${file}`),
      `    ${advice}, or add it to ${file}`,
    ];
  }
  const lines = [c.magenta(`! ${quoted(change.name)}${id} differs from what ${file} expects`)];
  change.differences.forEach((difference, index) => {
    const text = `${pointerPath(difference.pointer)}: ${valueText(difference.actual)} (expected ${valueText(difference.expected)})`;
    lines.push(index === 0 ? `    ${text.padEnd(30)}  ${advice}` : `    ${text}`);
  });
  return lines;
}

function footerLines(plan: Plan, options: RenderOptions): string[] {
  // Counted by what each action is counted as (a registered kind's too), not by the actions' names.
  const totals = countedTotals(plan.summary);
  const drifted = driftCount(plan);
  const lines = [
    `Plan: ${formatCount(totals.created)} to create, ${formatCount(totals.updated)} to update, ${formatCount(totals.deleted)} to delete, ` +
      `${[plural(totals.pinned, 'pin list'), automationDrifts(plan)].filter((part) => part !== undefined).join(', ')}${drifted === undefined ? '' : `; ${drifted}`}.`,
  ];
  const { applyNeeds } = plan.requests;
  const rate = options.rate ?? DEFAULT_RATE;
  if (applyNeeds === 0) {
    lines.push(`Apply has nothing to write: drift is reported, never applied; ${budgetText(plan)}.`);
  } else {
    const { total, recheck } = applyCost(plan, options.context);
    const rereads =
      recheck === 0 ? '' : `${formatCount(recheck)} to re-read, ${formatCount(applyNeeds)} to write and verify; `;
    const left = budgetText(plan, options.context);
    lines.push(
      `Apply needs ${plural(total, 'request')} (${rereads}${applyEstimate(plan, rate)} at ${formatRate(rate)}/s per endpoint).`,
      `${left.charAt(0).toUpperCase()}${left.slice(1)}.`,
    );
  }
  const digest = shortDigest(plan.digest);
  if (options.context === 'apply') {
    lines.push(`Digest ${digest}.`);
  } else if (options.planFile === undefined) {
    lines.push(
      `Digest ${digest}. To apply exactly this plan, save it with --out plan.json, then: ${keepWhole(`viewctl apply --plan plan.json --expect-digest ${plan.digest}`)}`,
    );
  } else {
    lines.push(
      `Digest ${digest}. To apply exactly this plan: ${keepWhole(`viewctl apply --plan ${shellWord(options.planFile)} --expect-digest ${plan.digest}`)}`,
    );
  }
  return lines;
}
