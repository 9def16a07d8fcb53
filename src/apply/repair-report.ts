import type { RepairGroup, RepairSection } from '../domain/apply-report.js';
import { presentation, repairs } from '../kinds/capabilities.js';
import { isApplied, kindOf } from '../kinds/kinds.js';
import type { Plan } from '../plan/types.js';
import type { RepairChoice } from './repair.js';

/**
 * What self-heal reports (README, "Self-heal: `apply --budget`"): the changes it
 * repaired, grouped as their kinds count them (`Repairs.repair`: "12 pin lists", "1 view
 * re-created"), what it left for a reviewed apply, and what it left for the next night
 * for want of budget, as data (the apply report's `repair`; src/render/apply-report.ts
 * renders it).
 */

export type { RepairGroup, RepairSection };

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
    waitingForReview: groups(plan, choice.waitingForReview),
    ...(choice.waitingForCreate.length === 0 ? {} : { waitingForCreate: groups(plan, choice.waitingForCreate) }),
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
    const subject = presentation(kind).subject(change);
    const noun =
      nouns === undefined
        ? repairs(kind).repair(change).noun
        : subject.userEmail === undefined
          ? nouns.view
          : nouns.list;
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
