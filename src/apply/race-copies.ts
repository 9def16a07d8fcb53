import type { ApiView } from '../domain/api-types.js';
import type { Domain } from '../domain/domains.js';
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
 * ambiguous. So after writing, apply looks at the listings it reads to verify: the
 * public views named like one it created that were not there when it planned are
 * copies made by concurrent runs. Every run keeps the same one, the smallest id
 * (shorter first, then by code point, so sequential ids keep the first created), and
 * deletes the others, another run's included. A run's listing always shows the
 * creates of runs that listed before it, so the last run to look leaves exactly one.
 * The runs that lose a copy say so, and running again converges.
 */

/** RaceCopies is one created name that concurrent runs created more than once. */
export interface RaceCopies {
  domain: Domain;
  name: string;
  /** Index of this run's create change in the plan. */
  changeIndex: number;
  /** The id this run created (or adopted). */
  ours: string;
  kept: string;
  removed: string[];
}

/**
 * findRaceCopies finds, in listings read after this run's writes, every name this run
 * created that more than one new public view carries. Pure.
 */
export function findRaceCopies(execution: Execution, live: Live, listings: ReadonlyMap<Domain, ApiView[]>): RaceCopies[] {
  const found: RaceCopies[] = [];
  for (const outcome of execution.outcomes) {
    if (outcome.status !== 'landed' || outcome.operation.action !== 'create' || outcome.viewId === undefined) continue;
    const { domain, name } = outcome.operation;
    const before = new Set((live.views[domain] ?? []).map((view) => view.viewId));
    const copies = (listings.get(domain) ?? [])
      .filter((view) => view.name === name && !view.isDefault && view.visibility === 'Public' && !before.has(view.viewId))
      .map((view) => view.viewId)
      .sort(compareIds);
    const [kept, ...removed] = copies;
    if (kept === undefined || removed.length === 0) continue;
    found.push({ domain, name, changeIndex: outcome.operation.changeIndex, ours: outcome.viewId, kept, removed });
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
 * settleRaceCopies deletes the copies `findRaceCopies` finds (a 404 means another
 * run deleted it first), points this run's creates at the kept views, and reports
 * each settled name as a problem so the run ends partial and advises running again
 * (pinned lists sent with a removed id lost that tab).
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
  for (const race of races) {
    const failures: string[] = [];
    for (const viewId of race.removed) {
      try {
        await client.request({ method: 'DELETE', route: `/v1/${race.domain}/views/{viewId}`, params: { viewId }, idempotent: true });
      } catch (error) {
        if (!(error instanceof ServiceError && error.status === 404)) failures.push(`${viewId}: ${describeError(error).message}`);
      }
    }
    const removed = new Set(race.removed);
    settledListings.set(race.domain, (settledListings.get(race.domain) ?? []).filter((view) => !removed.has(view.viewId)));
    problems.push({
      changeIndex: race.changeIndex,
      kind: kindOf(execution, race.changeIndex),
      name: race.name,
      id: race.kept,
      message:
        `a concurrent run created "${race.name}" too; kept ${race.kept} and deleted ${race.removed.join(', ')}` +
        (failures.length === 0 ? '' : ` (could not delete ${failures.join('; ')})`),
    });
  }
  const keptFor = new Map(races.map((race) => [race.changeIndex, race.kept]));
  const outcomes = execution.outcomes.map((outcome): OperationOutcome => {
    const kept = keptFor.get(outcome.operation.changeIndex);
    return outcome.status === 'landed' && outcome.operation.action === 'create' && kept !== undefined ? { ...outcome, viewId: kept } : outcome;
  });
  return { execution: { ...execution, outcomes }, listings: settledListings, problems };
}

/** compareIds orders ids shorter first, then by code point: sequential ids sort by age. */
export function compareIds(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}

function kindOf(execution: Execution, changeIndex: number): string {
  return execution.outcomes.find((outcome) => outcome.operation.changeIndex === changeIndex)?.operation.kind ?? 'View';
}
