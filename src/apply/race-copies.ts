import type { ApiView } from '../domain/api-types.js';
import type { Domain } from '../domain/domains.js';
import { compareIds, isPublicSaved } from '../domain/views.js';
import { ServiceError } from '../errors.js';
import type { ServiceClient } from '../service/types.js';
import type { Live } from '../state/types.js';
import type { Execution, OperationOutcome } from './execute.js';
import { describeError } from './execute.js';
import type { VerificationProblem } from './verify.js';

/**
 * Copies left by concurrent applies. Two runs of the same manifests both plan
 * "create X" before either creates it, and the service (whose names are not unique,
 * and which has no lock) then holds X twice: a state every later plan refuses as
 * ambiguous. So after writing, apply looks at the listings it reads to verify: a
 * public view named like one this run created, that was not there when it planned
 * and is not this run's, is a concurrent run's copy. Then this run deletes its own
 * copy, and only its own (apply never deletes a view the plan did not show). A run's
 * listing always shows the creates of runs that listed before it, so the last run to
 * look always sees the other copies and deletes its own: at most one copy remains.
 * When both runs look after both created, both delete theirs and none remains. Either
 * way the run reports it (its pinned lists may name the deleted copy), ends partial,
 * and running again converges.
 */

/** RaceCopies is one created name that concurrent runs created more than once. */
export interface RaceCopies {
  domain: Domain;
  name: string;
  /** Index of this run's create change in the plan. */
  changeIndex: number;
  /** The id this run created (or adopted): deleted. */
  ours: string;
  /** The concurrent runs' copies, smallest id first (shorter first, then by code point): left alone. */
  others: string[];
}

/**
 * findRaceCopies finds, in listings read after this run's writes, every name this run
 * created that another new public view also carries. Pure.
 */
export function findRaceCopies(execution: Execution, live: Live, listings: ReadonlyMap<Domain, ApiView[]>): RaceCopies[] {
  const found: RaceCopies[] = [];
  for (const outcome of execution.outcomes) {
    if (outcome.status !== 'landed' || outcome.operation.action !== 'create' || outcome.viewId === undefined) continue;
    const { domain, name } = outcome.operation;
    const before = new Set((live.views[domain] ?? []).map((view) => view.viewId));
    const ours = outcome.viewId;
    const others = (listings.get(domain) ?? [])
      .filter((view) => view.name === name && isPublicSaved(view) && !before.has(view.viewId) && view.viewId !== ours)
      .map((view) => view.viewId)
      .sort(compareIds);
    if (others.length === 0) continue;
    found.push({ domain, name, changeIndex: outcome.operation.changeIndex, ours, others });
  }
  return found;
}

/** SettledRace is the run's execution and listings as they stand once the copies are gone, and what to report. */
export interface SettledRace {
  execution: Execution;
  listings: Map<Domain, ApiView[]>;
  problems: VerificationProblem[];
}

/**
 * settleRaceCopies deletes this run's copy of each name `findRaceCopies` finds (a 404
 * means it is gone already), points this run's create at the first other copy, and
 * reports each name as a problem, so the run ends partial and advises running again.
 */
export async function settleRaceCopies(
  execution: Execution,
  live: Live,
  listings: ReadonlyMap<Domain, ApiView[]>,
  client: ServiceClient,
): Promise<SettledRace> {
  const races = findRaceCopies(execution, live, listings);
  const settledListings = new Map(listings);
  const problems: VerificationProblem[] = [];
  const pointTo = new Map<number, string>();
  for (const race of races) {
    let failure = '';
    try {
      await client.request({ method: 'DELETE', route: `/v1/${race.domain}/views/{viewId}`, params: { viewId: race.ours }, idempotent: true });
    } catch (error) {
      if (!(error instanceof ServiceError && error.status === 404)) failure = ` (could not delete it: ${describeError(error).message})`;
    }
    settledListings.set(race.domain, (settledListings.get(race.domain) ?? []).filter((view) => view.viewId !== race.ours));
    const [first = race.ours] = race.others;
    pointTo.set(race.changeIndex, first);
    problems.push({
      changeIndex: race.changeIndex,
      kind: kindOf(execution, race.changeIndex),
      name: race.name,
      id: race.ours,
      message:
        `a concurrent run created "${race.name}" too (${race.others.join(', ')}); this run deleted its own copy ${race.ours}${failure}, ` +
        'so pinned tabs it set to that copy are gone',
    });
  }
  const outcomes = execution.outcomes.map((outcome): OperationOutcome => {
    const other = pointTo.get(outcome.operation.changeIndex);
    return outcome.status === 'landed' && outcome.operation.action === 'create' && other !== undefined ? { ...outcome, viewId: other } : outcome;
  });
  return { execution: { ...execution, outcomes }, listings: settledListings, problems };
}


function kindOf(execution: Execution, changeIndex: number): string {
  return execution.outcomes.find((outcome) => outcome.operation.changeIndex === changeIndex)?.operation.kind ?? 'View';
}
