import type { VerificationProblem } from '../domain/apply-report.js';
import type { Domain } from '../domain/domains.js';
import { kindOf } from '../kinds/kinds.js';
import type { Plan } from '../plan/types.js';
import { uniqueReads, type LiveRead } from '../state/live-read.js';
import type { Live } from '../state/types.js';
import { createdIdsOf, type Execution, type LandedOutcome } from './execute.js';

/**
 * Post-apply verification: what landed is read back and compared, through the same
 * normalisation the plan used, with what the plan said it
 * would become. What is read back is each kind's to say (`Kind.verifyReads`): one list
 * call per touched view domain; pinned lists are checked from the PUT responses, which
 * are the new lists.
 */

export type { VerificationProblem };

/** Verification is the outcome of `checkApplied`. */
export interface Verification {
  problems: VerificationProblem[];
  /** View domains re-read. */
  domainsRead: Domain[];
}

/**
 * verifyReads are the reads that verify what landed, as each landed change's kind says
 * (`Kind.verifyReads`: the listing of each view domain written; nothing for a pinned
 * list, whose PUT answers the new list), each once, in the order the changes landed.
 */
export function verifyReads(plan: Pick<Plan, 'changes'>, execution: Execution): LiveRead[] {
  return uniqueReads(
    landedOutcomes(execution).flatMap((outcome) => {
      const change = plan.changes[outcome.operation.changeIndex];
      return change === undefined ? [] : kindOf(change).verifyReads(change);
    }),
  );
}

/**
 * checkApplied compares what was read back after writing (`verifyReads`) with the
 * plan, asking each landed change's kind (`Kind.verify`): each created or updated
 * view equals its change's `after`, a created view exists exactly once, a deleted one
 * is gone, and each pinned list holds the ids sent, in order. The changes of a saved
 * plan already applied (`alreadyApplied`) are not verified again. Pure.
 */
export function checkApplied(
  plan: Pick<Plan, 'changes'>,
  execution: Execution,
  readBack: Partial<Live>,
  alreadyApplied: readonly LandedOutcome[] = [],
): Verification {
  const landed = landedOutcomes(execution);
  // What an earlier run created counts too: a pinned list this run wrote may name it.
  const createdIds = createdIdsOf([...alreadyApplied, ...landed]);
  const problems: VerificationProblem[] = [];
  for (const outcome of landed) {
    const { operation } = outcome;
    const at = {
      changeIndex: operation.changeIndex,
      kind: operation.kind,
      name: operation.name,
      ...(outcome.viewId === undefined ? {} : { id: outcome.viewId }),
    };
    const change = plan.changes[operation.changeIndex];
    const message =
      change === undefined
        ? 'the operation has no change in the plan'
        : kindOf(change).verify(change, outcome, { readBack, createdIds });
    if (message !== undefined) problems.push({ ...at, message });
  }
  return { problems, domainsRead: Object.keys(readBack.views ?? {}) as Domain[] };
}

function landedOutcomes(execution: Execution): LandedOutcome[] {
  return execution.outcomes.filter((outcome): outcome is LandedOutcome => outcome.status === 'landed');
}
