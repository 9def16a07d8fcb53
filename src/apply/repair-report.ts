import { isApplied, kindOf } from '../kinds/kinds.js';
import type { Plan } from '../plan/types.js';
import { formatCount } from '../text/plural.js';
import { quoted, safeText } from '../text/safe-text.js';
import type { RepairChoice } from './repair.js';

/**
 * What self-heal reports (README, "Self-heal: `apply --budget`"): the changes it
 * repaired, grouped as their kinds count them (`Kind.repair`: "12 pin lists", "1 view
 * re-created"), what it left for a reviewed apply, and what it left for the next night
 * for want of budget. Data first (the apply report's `repair`), then its text lines.
 */

/** RepairGroup is the changes of one kind of repair: how the kind counts them, how many, and whom or what (members, view names). */
export interface RepairGroup {
  /** The kind's words for `count` of them ("pin lists", "view re-created"). */
  what: string;
  count: number;
  /** The member of each pinned list, the name of each view, in plan order. */
  names: string[];
  /** Present when `names` are members (the pinned lists'), not view names. */
  members?: true;
}

/** RepairSection is the apply report's account of a self-heal run. */
export interface RepairSection {
  repaired: RepairGroup[];
  leftForReview: RepairGroup[];
  /** Changes of targets the last apply held: no reviewer saw them, so they wait for a reviewed apply. */
  heldWhenApplied: RepairGroup[];
  leftForNextNight: RepairGroup[];
  /** Pinned lists beyond `--max-pin-changes`, left for the next night or a reviewed apply; absent when none. */
  leftOverPinLimit?: { lists: RepairGroup[]; maxPinChanges: number };
  /** What the plan shows and apply never carries out (drift of the automations): fixed only in the workspace. */
  neverApplied: RepairGroup[];
  /** How many targets the plan held (README, "Fail-safe rules"): neither planned nor repaired. */
  held: number;
  /** `--budget N` as given, and what its reads were kept to. */
  budget: { given: number; reads: number };
}

/**
 * repairSection accounts for a self-heal run: of the repairs chosen, those that
 * landed (`landed`, indexes in `plan.changes`; one that failed shows in the report's
 * own lists), and what was left, each grouped as its kind counts it.
 */
export function repairSection(
  plan: Pick<Plan, 'changes' | 'held'>,
  choice: RepairChoice,
  landed: ReadonlySet<number>,
): RepairSection {
  return {
    repaired: groups(
      plan,
      choice.repaired.filter((index) => landed.has(index)),
    ),
    leftForReview: groups(plan, choice.leftForReview),
    heldWhenApplied: groups(plan, choice.heldWhenApplied, HELD_NOUNS),
    leftForNextNight: groups(plan, choice.leftForNextNight),
    ...(choice.leftOverPinLimit === undefined
      ? {}
      : {
          leftOverPinLimit: {
            lists: groups(plan, choice.leftOverPinLimit.indexes),
            maxPinChanges: choice.leftOverPinLimit.maxPinChanges,
          },
        }),
    neverApplied: groups(
      plan,
      plan.changes.flatMap((change, index) => (isApplied(change) ? [] : [index])),
    ),
    held: plan.held?.length ?? 0,
    budget: choice.budget,
  };
}

/**
 * HELD_NOUNS count the changes of targets held at the last apply by what they are, not
 * what a repair would do ("view re-created" would claim the view once existed).
 */
const HELD_NOUNS = { list: { one: 'pin list', many: 'pin lists' }, view: { one: 'view', many: 'views' } };

function groups(plan: Pick<Plan, 'changes'>, indexes: readonly number[], nouns?: typeof HELD_NOUNS): RepairGroup[] {
  const byNoun = new Map<string, { one: string; many: string; names: string[]; members: boolean }>();
  for (const index of indexes) {
    const change = plan.changes[index];
    if (change === undefined) continue;
    const kind = kindOf(change);
    const subject = kind.subject(change);
    const noun =
      nouns === undefined ? kind.repair(change).noun : subject.userEmail === undefined ? nouns.view : nouns.list;
    const group = byNoun.get(noun.many) ?? { ...noun, names: [], members: subject.userEmail !== undefined };
    group.names.push(subject.userEmail ?? subject.name);
    byNoun.set(noun.many, group);
  }
  return [...byNoun.values()].map(({ one, many, names, members }) => ({
    what: names.length === 1 ? one : many,
    count: names.length,
    names,
    ...(members ? { members: true as const } : {}),
  }));
}

/** NAMES_SHOWN is how many members or views a text line names per group before "and N more" (JSON lists all). */
const NAMES_SHOWN = 5;

/**
 * repairLines are the text of a repair section: `Repaired: 12 pin lists (a@x, …), 1
 * view re-created ("Deals")`, then what was left for a reviewed apply and for the
 * next night, each on a line of its own.
 */
export function repairLines(section: RepairSection): string[] {
  const lines = [`Repaired: ${section.repaired.length === 0 ? 'nothing' : groupsText(section.repaired)}.`];
  if (section.leftForReview.length > 0)
    lines.push(`Left for a reviewed apply (self-heal never carries them out): ${groupsText(section.leftForReview)}.`);
  if (section.heldWhenApplied.length > 0) {
    lines.push(
      `Left for a reviewed apply (held when the manifests were last applied, so no reviewer saw these changes): ${groupsText(section.heldWhenApplied)}.`,
    );
  }
  if (section.leftForNextNight.length > 0) {
    const { given, reads } = section.budget;
    lines.push(
      `Left for the next night (--budget ${formatCount(given)} had no room left for their writes and verification after reads of at most ${formatCount(reads)}): ${groupsText(section.leftForNextNight)}.`,
    );
  }
  if (section.leftOverPinLimit !== undefined) {
    const { lists, maxPinChanges } = section.leftOverPinLimit;
    lines.push(
      `Left over --max-pin-changes ${formatCount(maxPinChanges)} (the next night repairs the next ones; a reviewed apply with a higher --max-pin-changes repairs all): ${groupsText(lists)}.`,
    );
  }
  if (section.neverApplied.length > 0)
    lines.push(`Shown, never applied (fix them in the workspace settings): ${groupsText(section.neverApplied)}.`);
  if (section.held > 0)
    lines.push(
      `Held, neither planned nor repaired (the plan above says why): ${formatCount(section.held)} ${section.held === 1 ? 'target' : 'targets'}.`,
    );
  return lines;
}

function groupsText(list: readonly RepairGroup[]): string {
  return list
    .map((group) => {
      // A member with lists in two domains is named once.
      const names = [...new Set(group.names)];
      const shown = names.slice(0, NAMES_SHOWN).map((name) => (group.members === true ? safeText(name) : quoted(name)));
      const more = names.length > shown.length ? ` and ${formatCount(names.length - shown.length)} more` : '';
      const who = group.members !== true ? '' : names.length === 1 ? 'member ' : 'members ';
      return `${formatCount(group.count)} ${group.what} (${who}${shown.join(', ')}${more})`;
    })
    .join(', ');
}
