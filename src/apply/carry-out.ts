import type { Plan } from '../plan/types.js';
import type { ServiceClient } from '../service/types.js';
import type { Live } from '../state/types.js';
import type { ExecuteOptions, Execution } from './execute.js';
import { describeError, executeOperations } from './execute.js';
import type { Operation } from './operations.js';
import type { ApplyReport } from './report.js';
import { buildReport } from './report.js';
import { settleRaceCopies } from './race-copies.js';
import type { Verification } from './verify.js';
import { checkApplied, readTouchedListings } from './verify.js';

/** CarryOutOptions are the I/O `carryOut` needs, passed in (style.md, practice 5). */
export interface CarryOutOptions extends Pick<ExecuteOptions, 'signal' | 'onOutcome' | 'maxCreateAttempts' | 'inFlightPerEndpoint'> {
  client: ServiceClient;
  /** The live state the plan was computed or checked against. */
  live: Live;
  /** Whether the plan came from `--plan FILE` (changes the advice after a partial run). */
  fromPlanFile: boolean;
  /** Milliseconds clock for the report's duration; default `performance.now`. */
  now?: () => number;
}

/**
 * carryOut runs the operations of a plan that passed every gate, verifies what landed
 * when everything did (first deleting its own copy of any view a concurrent run also
 * created: race-copies.ts), and reports. It never throws for a failed write: the report
 * lists it. A run stopped early is not verified (the next plan shows the state).
 */
export async function carryOut(plan: Plan, operations: readonly Operation[], options: CarryOutOptions): Promise<ApplyReport> {
  const now = options.now ?? (() => performance.now());
  const started = now();
  const requestsBefore = options.client.stats().requests;
  const execution: Execution = await executeOperations(operations, {
    client: options.client,
    live: options.live,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    ...(options.onOutcome === undefined ? {} : { onOutcome: options.onOutcome }),
    ...(options.maxCreateAttempts === undefined ? {} : { maxCreateAttempts: options.maxCreateAttempts }),
    ...(options.inFlightPerEndpoint === undefined ? {} : { inFlightPerEndpoint: options.inFlightPerEndpoint }),
  });
  let verification: Verification | null = null;
  if (execution.stopped === null) {
    try {
      // The listings read to verify also show copies a concurrent run created: settle them first.
      const listings = await readTouchedListings(execution, options.client);
      const race = await settleRaceCopies(execution, options.live, listings, options.client);
      const checked = checkApplied(plan, race.execution, race.listings);
      verification = { ...checked, problems: [...checked.problems, ...race.problems] };
    } catch (error) {
      // Every write landed; only the read-back failed. Say so rather than claim success.
      const { message } = describeError(error);
      verification = {
        domainsRead: [],
        problems: [{ changeIndex: -1, kind: 'Apply', name: 'verification', message: `could not read back what was applied: ${message}` }],
      };
    }
  }
  return buildReport(plan, execution, verification, {
    requests: options.client.stats().requests - requestsBefore,
    elapsedMs: now() - started,
    fromPlanFile: options.fromPlanFile,
  });
}
