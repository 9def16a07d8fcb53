import { ViewctlError } from '../errors.js';
import type { Plan } from '../plan/types.js';
import type { ExecuteOptions, Execution } from './execute.js';
import { describeError, executeOperations } from './execute.js';
import type { Operation } from '../plan/operations.js';
import type { ApplyReport } from './report.js';
import { buildReport } from './report.js';
import { explainLostPins, raceDomains, settleRaceCopies } from './race-copies.js';
import type { Verification } from './verify.js';
import { checkApplied, verifyReads } from './verify.js';
import type { ApiView } from '../domain/api-types.js';
import type { Domain } from '../domain/domains.js';
import { readAll } from '../state/live-read.js';
import { listingRead } from '../state/reads.js';
import type { Live } from '../state/types.js';
import type { RepairChoice } from './repair.js';
import { repairSection } from './repair-report.js';

/** CarryOutOptions are the I/O `carryOut` needs, passed in: what executeOperations takes, and more. */
interface CarryOutOptions extends ExecuteOptions {
  /** Whether the plan came from `--plan FILE` (changes the advice after a partial run). */
  fromPlanFile: boolean;
  /** Milliseconds clock for the report's duration; default `performance.now`. */
  now?: () => number;
  /** Self-heal (`apply --budget`): what the operations repair and what was left, for the report's account. */
  repair?: RepairChoice;
}

/**
 * carryOut runs the operations of a plan that passed every gate and reports. Unless
 * interrupted (or stopped by a bug, which goes to the top-level catch), it first settles
 * the copies of any view a concurrent run also created (race-copies.ts), so a run that
 * stopped on a fault leaves no duplicate behind either. When everything landed it then verifies what it wrote; a
 * run stopped early is not verified (the next plan shows the state). It never throws
 * for a failed write: the report lists it, and the saved plan's changes an earlier run
 * applied (`alreadyApplied`, never sent again) as already applied.
 */
export async function carryOut(
  plan: Plan,
  operations: readonly Operation[],
  options: CarryOutOptions,
): Promise<ApplyReport> {
  const now = options.now ?? (() => performance.now());
  const started = now();
  const requestsBefore = options.client.stats().requests;
  let execution: Execution = await executeOperations(plan, operations, options);
  let verification: Verification | null = null;
  if (execution.stopped !== 'aborted') {
    const complete = execution.stopped === null;
    try {
      // A stopped run reads only the domains it created in, or may have: enough to find copies.
      const reads = complete ? verifyReads(plan, execution) : raceDomains(execution).map(listingRead);
      const readBack: Partial<Live> = await readAll(options.client, reads);
      const listings = new Map(Object.entries(readBack.views ?? {})) as Map<Domain, ApiView[]>;
      // Before the copies are settled, so a pinned list is checked against the ids it sent.
      if (!complete) execution = explainLostPins(execution, listings);
      const race = await settleRaceCopies(execution, options.live, listings, options.client);
      execution = race.execution;
      if (complete) {
        const checked = checkApplied(
          plan,
          race.execution,
          { ...readBack, views: Object.fromEntries(race.listings) },
          options.alreadyApplied,
        );
        verification = { ...checked, problems: [...checked.problems, ...race.problems] };
      } else if (race.problems.length > 0) {
        verification = { domainsRead: [...listings.keys()], problems: race.problems };
      }
    } catch (error) {
      // Only the service can fail here; anything else is a bug for the top-level catch.
      if (!(error instanceof ViewctlError)) throw error;
      const { message } = describeError(error);
      const what = complete
        ? 'could not read back what was applied'
        : 'could not check for copies a concurrent run created';
      verification = {
        domainsRead: [],
        problems: [{ changeIndex: -1, kind: 'Apply', name: 'verification', message: `${what}: ${message}` }],
      };
    }
  }
  const report = buildReport(plan, execution, verification, {
    requests: options.client.stats().requests - requestsBefore,
    elapsedMs: now() - started,
    fromPlanFile: options.fromPlanFile,
    alreadyApplied: options.alreadyApplied ?? [],
  });
  if (options.repair === undefined) return report;
  const landed = new Set(
    execution.outcomes.filter((outcome) => outcome.status === 'landed').map((outcome) => outcome.operation.changeIndex),
  );
  return { ...report, repair: repairSection(plan, options.repair, landed) };
}
