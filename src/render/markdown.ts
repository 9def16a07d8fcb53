import { formatLine } from '../domain/source-position.js';
import { formatCount, plural } from '../text/plural.js';
import type { Change, ChangeOrigin, PinChange, Plan } from '../plan/types.js';
import { COMMENT_LIMIT, fitComment, type CommentPart, type LeftOut } from './comment-budget.js';
import { applyCost, budgetText, byAction, deletedOutsideText, pinnedCount, renamedName, scopeText } from './format.js';
import { detailParts, ICONS } from './markdown-details.js';
import { codeSpan, linkTarget, mdName, mdText } from './markdown-text.js';
import type { RenderOptions } from './options.js';
import { droppedPrivateCount, summarisePinGroup } from './pin-group.js';
import { maxDeletesNote, ownerText, targetsNote } from './plan-notes.js';
import { appOwnsNote, maxPinChangesNote } from './share-notes.js';
import { entryChanges, type BatchEntry, type ReviewEntry } from './review-entries.js';
import { droppedPrivateTabs, skippedText } from './text.js';
import { warningEntries } from './warning-lines.js';
import { heldEntry, heldHeading } from './held-lines.js';
import { automationDrifts, driftCount, remembers } from './drift-words.js';
import { driftDetailEntries } from './drift-text.js';
import { driftRowPart } from './drift-markdown.js';
import { firstNames } from './name-list.js';
import { planSections } from './plan-sections.js';
import { actionMark, genericTableRow } from './action-marks.js';
import { countedTotals, isDestructive } from '../plan/action-traits.js';

export { codeSpan, fence, mdText } from './markdown-text.js';

/** MARKDOWN_LIMIT is the most a markdown plan takes (in UTF-8 bytes): a PR comment holds 65,536, the action's wrapper included. */
export const MARKDOWN_LIMIT = COMMENT_LIMIT;

const TABLE = ['| | kind | name | source |', '|---|---|---|---|'];

/**
 * renderMarkdown is the plan as one pull-request comment (README, "What a reviewer
 * sees"): the counts, whether it is targeted or apply will refuse it, a table with one
 * row per cause (a group document's change, or more than a few changes sharing a
 * folder or, for deletions, an owner, are one row naming each change; deletions in
 * bold, never collapsed), the changes made outside viewctl in a table of their own, a
 * collapsed block per row, and a footer with the digest and the budget. It never passes
 * MARKDOWN_LIMIT: deletions and outside changes stay, details go first (the largest
 * first, or a batch's views after the first few), then summary rows, and a last line
 * says what was left out and links the full plan (`--details-url`).
 */
export function renderMarkdown(plan: Plan, options: RenderOptions): string {
  const heading = `### viewctl plan: ${mdName(plan.workspace.name)} (${mdText(plan.workspace.id)})`;
  const skipped = skippedText(plan);
  // One entry per warning code (or per warning with --show-warnings), each its lines: what the budget keeps or leaves out.
  const warnings = [
    ...warningEntries(plan.warnings, options.showWarnings).map((lines) =>
      lines.map((line, index) => (index === 0 ? `> ⚠️ ${mdText(line)}` : `> ${mdText(line.trim())}`)).join('\n'),
    ),
    ...(skipped === undefined ? [] : [`> ${mdText(skipped)}`]),
  ];
  const targeted = targetsNote(plan);
  const leftToApp = appOwnsNote(plan);
  const notes = [targeted, leftToApp].flatMap((note) => (note === undefined ? [] : [`*${mdText(note)}*`]));
  const scope = scopeText(plan);
  const scopeNotes = scope === undefined ? [] : [`*${mdText(scope)}*`];
  const held = heldRows(plan);
  if (plan.changes.length === 0) {
    const none =
      held.length === 0
        ? `No changes: the workspace matches the manifests (read ${plural(plan.requests.used, 'request')}).`
        : `No other changes: the workspace matches the manifests apart from what is held (read ${plural(plan.requests.used, 'request')}).`;
    return [
      heading,
      ...(held.length === 0 ? [] : ['', ...held, '']),
      none,
      ...scopeNotes,
      ...notes,
      ...warnings,
      '',
    ].join('\n');
  }
  const refusal = options.context === 'apply' ? undefined : maxDeletesNote(plan, options.maxDeletes);
  if (refusal !== undefined) notes.push(`> ⛔ **${mdText(refusal)}**`);
  const pinRefusal = options.context === 'apply' ? undefined : maxPinChangesNote(plan, options.maxPinChanges);
  if (pinRefusal !== undefined) notes.push(`> ⛔ **${mdText(pinRefusal)}**`);
  const totals = countedTotals(plan.summary);
  const drifted = driftCount(plan);
  const counts =
    [
      plural(totals.created, 'create'),
      plural(totals.updated, 'update'),
      plural(totals.deleted, 'delete'),
      plural(totals.pinned, 'pin list'),
      automationDrifts(plan),
    ]
      .filter((part) => part !== undefined)
      .join(' · ') + (drifted === undefined ? '' : ` · ${drifted}`);
  const above = [...scopeNotes, ...notes];
  // The pull request's own changes first; those it did not ask for (--base REF) get a table per origin.
  // Changes with an origin are drift, a row per cause; a sweep's merged but unapplied changes get a heading of their own.
  const sections = planSections(plan);
  const remembered = remembers(plan);

  const parts: CommentPart[] = [];
  const fixed = (...lines: string[]): void => {
    for (const line of lines) parts.push({ role: 'fixed', items: 0, render: () => line });
  };
  fixed(heading, `**${counts}**`, ...(above.length === 0 ? [] : ['', ...above]));
  // Held targets first, kept like deletions: what apply will not do must be seen.
  if (held.length > 0) {
    fixed('');
    parts.push(...held.map((line): CommentPart => ({ role: 'must', items: 0, render: () => line })));
  }
  for (const section of sections) {
    fixed(...(section.heading === undefined ? [] : ['', `**${mdText(section.heading)}**`]), '', ...TABLE);
    parts.push(
      ...section.entries.map((entry) => rowPart(entry, section.origin)),
      ...section.drift.map((drift) => driftRowPart(drift, remembered)),
    );
  }
  if (warnings.length > 0) {
    fixed('');
    parts.push(...warnings.map((line): CommentPart => ({ role: 'warning', items: 0, render: () => line })));
  }
  parts.push(
    ...sections
      .flatMap((section) => [...section.entries, ...driftDetailEntries(section.drift)])
      .flatMap((entry) => detailParts(entry, plan)),
  );
  const link = options.detailsUrl === undefined ? '' : ` · [the full plan](${linkTarget(options.detailsUrl)})`;
  fixed(
    '',
    `Digest \`${plan.digest}\` · apply needs ${applyNeedsText(plan, options)} · ${budgetText(plan, options.context)}${link}`,
  );
  return fitComment(parts, MARKDOWN_LIMIT, (leftOut) => leftOutNote(leftOut, options));
}

/** heldRows are the held targets as the comment shows them: a heading, then one list item each with its way out. */
function heldRows(plan: Plan): string[] {
  const heading = heldHeading(plan);
  if (heading === undefined) return [];
  return [
    `**⏸ ${mdText(heading)}**`,
    ...(plan.held ?? []).map((held) => {
      const [what, wayOut] = heldEntry(held);
      return `- ${mdText(what)} · ${mdText(wayOut)}`;
    }),
  ];
}

/**
 * leftOutNote is the comment's last line when it could not hold everything: what was
 * left out, and where the full plan is (`--details-url`, the `--out` file, or how to make one).
 */
function leftOutNote(leftOut: LeftOut, options: RenderOptions): string {
  const what: string[] = [];
  if (leftOut.details.length > 0)
    what.push(`the details of ${plural(leftOut.details.length, 'change')} (${byAction(leftOut.details)})`);
  if (leftOut.cutDetails > 0) what.push(`part of ${plural(leftOut.cutDetails, 'grouped detail')} (marked "left out")`);
  if (leftOut.rows.length > 0)
    what.push(`the summary rows of ${plural(leftOut.rows.length, 'change')} (${byAction(leftOut.rows)})`);
  if (leftOut.cutRows > 0) what.push(`names in ${plural(leftOut.cutRows, 'grouped row')}`);
  if (leftOut.warnings > 0) what.push(plural(leftOut.warnings, 'warning'));
  if (leftOut.cutMust > 0)
    what.push(
      `**the names of ${plural(leftOut.cutMust, 'deletion or outside change', 'deletions and outside changes')}**`,
    );
  const file = options.planFile === undefined ? '' : ` (\`${mdText(options.planFile)}\`)`;
  let where: string;
  if (options.detailsUrl !== undefined)
    where = `Everything is in [the full plan](${linkTarget(options.detailsUrl)})${file}`;
  else if (options.planFile !== undefined) where = `Everything is in the JSON plan${file}`;
  else where = 'Run `viewctl plan --out plan.json` for the full JSON plan';
  return `*Left out to fit one comment: ${what.join('; ')}. ${where}; \`viewctl show\` prints it.*`;
}

/**
 * MUST_SEE_ORIGINS are the origins whose every change the comment names: a change made
 * in the app, or one that may have been, which applying reverts.
 */
const MUST_SEE_ORIGINS: ReadonlySet<ChangeOrigin | undefined> = new Set<ChangeOrigin>([
  'outside',
  'unapplied-or-outside',
]);

/**
 * rowPart is an entry's table row. Deletions, pin lists that drop private tabs and
 * every change that may revert an edit made in the app must be seen: the budget keeps
 * them whole.
 */
function rowPart(entry: ReviewEntry, origin: ChangeOrigin | undefined): CommentPart {
  const outside = MUST_SEE_ORIGINS.has(origin);
  const changes = entryChanges(entry);
  const must =
    outside ||
    changes.some(
      (change) => isDestructive(change) || (change.action === 'pin' && droppedPrivateTabs(change).length > 0),
    );
  const role = must ? 'must' : 'row';
  if (entry.type === 'single') {
    const row = singleRow(entry.change);
    return { role, items: 0, covers: changes, render: () => row };
  }
  if (entry.type === 'pin-group' && !outside) {
    const row = pinGroupRow(entry.changes);
    return { role, items: 0, covers: changes, render: () => row };
  }
  // A batch names each change; so does a group's row among the changes made outside viewctl, each of which must be seen.
  const { head, names, tail } = entry.type === 'pin-group' ? pinGroupRowPieces(entry.changes) : batchRow(entry);
  return {
    role,
    items: names.length,
    covers: changes,
    render: (keep) => `${head}${firstNames(names, keep).join(' · ')}${tail}`,
  };
}

function singleRow(change: Change): string {
  const source = change.source === undefined ? '' : codeSpan(formatLine(change.source));
  const { icon } = actionMark(change);
  switch (change.action) {
    case 'create': {
      const deleted = deletedOutsideText(change);
      return `| ${icon} | ${change.kind} | ${mdName(change.name)}${deleted === undefined ? '' : ` · **${mdText(deleted)}**`} | ${source} |`;
    }
    case 'update': {
      // A rename reads as one: `rename "OLD" -> "NEW"`.
      const name =
        change.before.name === change.after.name
          ? mdName(change.name)
          : renamedName(change, (text) => `"${mdName(text)}"`);
      return `| ${icon} | ${change.kind} | ${name} (${mdText(change.id)}) | ${source} |`;
    }
    case 'delete': {
      const pinned = pinnedCount(change) === '' ? '' : `, ${pinnedCount(change)}`;
      return `| ${icon} | ${change.kind} | **${mdName(change.name)}** (${mdText(change.id)}, owner ${mdName(ownerText(change))}${pinned}) | prune: not declared |`;
    }
    case 'pin': {
      const group = change.group === undefined ? '' : ` · group "${mdName(change.group)}"`;
      return `| ${icon} | Pins | ${mdText(change.userEmail)} · ${change.domain}${unpinsText([change])} | ${source}${group} |`;
    }
    case 'drift':
      return `| ${icon} | Drift | ${mdName(change.name)} | ${source} (read-only) |`;
    default:
      // A registered kind's change: its common fields.
      return genericTableRow(change, source);
  }
}

/** unpinsText marks pin lists that drop private tabs: like deletions, seen in the table, never only in a collapsed block. */
function unpinsText(changes: readonly PinChange[]): string {
  const dropping = changes.filter((change) => droppedPrivateTabs(change).length > 0);
  if (dropping.length === 0) return '';
  const tabs = dropping.reduce((sum, change) => sum + droppedPrivateTabs(change).length, 0);
  const members = changes.length === 1 ? '' : ` of ${plural(dropping.length, 'member')}`;
  return ` · **unpins ${plural(tabs, 'private tab')}${members}**`;
}

/** pinGroupRow is a group's row without its members' names: its block lists them. */
function pinGroupRow(changes: readonly PinChange[]): string {
  const { head, tail } = pinGroupRowPieces(changes);
  return `${head.slice(0, -': '.length)}${tail}`;
}

/** pinGroupRowPieces is a group's row, `head` ending in `: ` before the members it may name. */
function pinGroupRowPieces(changes: readonly PinChange[]): { head: string; names: string[]; tail: string } {
  const [first] = changes;
  const summary = summarisePinGroup(changes);
  const source = first?.source === undefined ? '' : codeSpan(formatLine(first.source));
  const dropped = droppedPrivateCount(summary);
  const unpins =
    dropped === 0
      ? ''
      : ` · **unpins ${plural(dropped, 'private tab')} of ${plural(summary.unpinned.length, 'member')}**`;
  return {
    head: `| ${ICONS.pin} | Pins | group "${mdName(summary.group)}" · ${first?.domain ?? ''} · ${plural(summary.members.length, 'member')}${unpins}: `,
    names: summary.members.map(mdText),
    tail: ` | ${source} |`,
  };
}

/** batchRow is a batch's row in three pieces, so the budget can cut the names between them. */
function batchRow(entry: BatchEntry): { head: string; names: string[]; tail: string } {
  const { icon } = actionMark(entry);
  const count = formatCount(entry.changes.length);
  const folder = codeSpan(entry.cause);
  switch (entry.action) {
    case 'create':
      return {
        head: `| ${icon} | ${entry.changes[0]?.kind ?? ''} × ${count} | `,
        names: entry.changes.map((change) => mdName(change.name)),
        tail: ` | ${folder} |`,
      };
    case 'delete':
      return {
        head: `| ${icon} | ${entry.changes[0]?.kind ?? ''} × ${count}, owner ${mdText(entry.cause)} | `,
        names: entry.changes.map((change) => {
          const pinned = pinnedCount(change) === '' ? '' : `, ${pinnedCount(change)}`;
          return `**${mdName(change.name)}** (${mdText(change.id)}${pinned})`;
        }),
        tail: ' | prune: not declared |',
      };
    default: {
      const [first] = entry.changes;
      if (first?.action === 'pin') {
        const pins = entry.changes.filter((change): change is PinChange => change.action === 'pin');
        return {
          head: `| ${icon} | Pins × ${count} | ${first.domain}${unpinsText(pins)} · `,
          names: pins.map((change) => mdText(change.userEmail)),
          tail: ` | ${folder} |`,
        };
      }
      const kind = first?.action === 'drift' ? 'Drift' : (first?.kind ?? '');
      const tail = first?.action === 'drift' ? ` | ${folder} (read-only) |` : ` | ${folder} |`;
      return {
        head: `| ${icon} | ${kind} × ${count} | `,
        names: entry.changes.map((change) =>
          change.action === 'update' ? `${mdName(change.name)} (${mdText(change.id)})` : mdName(change.name),
        ),
        tail,
      };
    }
  }
}

/** applyNeedsText is the comment's cost of applying: `193 requests (96 re-reads by apply --plan)`, or the writes alone in apply. */
function applyNeedsText(plan: Plan, options: RenderOptions): string {
  const { total, recheck } = applyCost(plan, options.context);
  return `${plural(total, 'request')}${recheck === 0 || plan.requests.applyNeeds === 0 ? '' : ` (${formatCount(recheck)} re-reads by apply --plan)`}`;
}
