import { join } from 'node:path';
import { scratchDir } from '../support/cli.js';
import {
  faultFreeState,
  faultScenario,
  inProcess,
  runScenario,
  type FaultKind,
  type ScenarioResult,
} from '../hardening/fault-runs.js';
import { WORKLOAD_FILES } from '../hardening/workload.js';
import { runBudgetScenario, type BudgetRunResult } from './soak-budget.js';
import { runSlowCreateScenario, type SlowCreateResult } from './soak-slow-create.js';

/**
 * The soak: the hardening fault runs (test/hardening/fault-runs.ts) over many seeds.
 * Each seed runs the workload once under mixed faults (latency, 503s, responses lost
 * after commit), once as two applies at once under the same faults, and once under
 * one more kind in turn (503s, lost responses, 429s, a
 * restart mid-apply, latency), through the CLI's `run()`, re-running each until a
 * plan is empty (three applies at most), and compares the final workspace with a
 * fault-free run's. Each seed also plans with a budget above a service quota that
 * cannot pay for it (test/bench/soak-budget.ts). Prints nothing itself: every line
 * goes through `log`.
 */

/** SoakOptions: how many seeds, and where progress lines go. */
export interface SoakOptions {
  seeds: number;
  log: (line: string) => void;
}

/** SoakKind is a fault kind of the CLI runs, or the library-level slow creates. */
export type SoakKind = FaultKind | 'slow-create';

/** KindTotals is what one fault kind came to over the soak. */
export interface KindTotals {
  scenarios: number;
  faultsInjected: number;
  failed: number;
}

/** BudgetTotals are the budget runs over the soak: a quota smaller than the budget every time. */
export interface BudgetTotals {
  runs: number;
  plansPrinted: number;
  /** Runs refused after their first request: what was left less the reserve could not pay the fixed reads. */
  refusedUpFront: number;
  /** `service.quota-exhausted` errors met: must be 0. */
  quotaExhausted: number;
  /** 429s answered: must be 0. */
  rateLimited: number;
  /** Runs that dipped into the reserve, printed no plan with room for one, or did not say the budget was lowered: must be 0. */
  failed: number;
}

/** SoakReport is the soak's outcome; `duplicatesFound` and `outcomes.failed` must be 0. */
export interface SoakReport {
  seeds: number;
  scenarios: number;
  /** Applies run in all, re-runs included. */
  runs: number;
  /** Faults the emulators injected (503s and dropped connections: `stats().faultsInjected`). */
  faultsInjected: number;
  /** 429s the emulators answered. */
  rateLimited: number;
  /** Restarts that happened while an apply was running. */
  restartsMidApply: number;
  outcomes: { convergedIn1: number; convergedIn2: number; convergedIn3: number; failed: number };
  /** Names held by more than one public view at the end of a scenario, over all scenarios. */
  duplicatesFound: number;
  /** Scenarios whose final workspace differs from the fault-free run's. */
  mismatches: number;
  /** Applies whose exit code contradicts their own account (see `wrongExit`). */
  wrongExitCodes: number;
  byKind: Partial<Record<SoakKind, KindTotals>>;
  budget: BudgetTotals;
  /** Every scenario that did not converge, doubled a name or lost something, and every budget run that went wrong. */
  problems: { kind: SoakKind | 'budget'; seed: number; applies: number[]; what: string }[];
  elapsedMs: number;
}

const ROTATION: readonly FaultKind[] = ['fail-503', 'drop-after-commit', 'rate-429', 'restart', 'latency'];

/** runSoak runs the soak over `seeds` seeds (1 to `seeds`) and reports. */
export async function runSoak(options: SoakOptions): Promise<SoakReport> {
  const started = performance.now();
  const workload = await scratchDir(WORKLOAD_FILES);
  const report: SoakReport = {
    seeds: options.seeds,
    scenarios: 0,
    runs: 0,
    faultsInjected: 0,
    rateLimited: 0,
    restartsMidApply: 0,
    outcomes: { convergedIn1: 0, convergedIn2: 0, convergedIn3: 0, failed: 0 },
    duplicatesFound: 0,
    mismatches: 0,
    wrongExitCodes: 0,
    byKind: {},
    budget: { runs: 0, plansPrinted: 0, refusedUpFront: 0, quotaExhausted: 0, rateLimited: 0, failed: 0 },
    problems: [],
    elapsedMs: 0,
  };
  try {
    const expected = await faultFreeState(workload.dir, inProcess);
    for (let seed = 1; seed <= options.seeds; seed += 1) {
      const kinds: FaultKind[] = ['mixed', 'concurrent', ROTATION[(seed - 1) % ROTATION.length] ?? 'fail-503'];
      for (const kind of kinds) {
        const scenario = faultScenario(
          kind,
          seed,
          kind === 'restart' ? join(workload.dir, `state-${seed}.json`) : undefined,
        );
        const result = await runScenario(scenario, workload.dir, expected, inProcess);
        tally(report, result);
        options.log(describe(result));
      }
      const slow = await runSlowCreateScenario(workload.dir, seed);
      tallySlow(report, slow);
      options.log(
        `soak: seed ${seed} slow-create: exits ${slow.applies.join(',')}, ${slow.convergedAfter === null ? 'FAILED' : `converged in ${slow.convergedAfter}`}, ${slow.held} creates held past the timeout, ${slow.resent.length} sent twice`,
      );
      const budget = await runBudgetScenario(seed);
      tallyBudget(report, budget);
      options.log(
        `soak: seed ${seed} budget: quota ${budget.quota}, --reserve ${budget.reserve}, exit ${budget.code}, ${budget.requests} requests, ${budget.printed ? 'plan printed' : budget.refusedUpFront ? 'refused after the first request' : 'FAILED'}, ${budget.quotaExhausted} quota-exhausted`,
      );
    }
  } finally {
    await workload.cleanup();
  }
  report.elapsedMs = Math.round(performance.now() - started);
  options.log(
    `soak: ${report.scenarios} scenarios, ${report.runs} applies, ${report.faultsInjected} faults, ${report.rateLimited} 429s, ` +
      `${report.outcomes.failed} failed, ${report.duplicatesFound} duplicates, ${report.mismatches} mismatches, ${report.wrongExitCodes} wrong exit codes; ` +
      `${report.budget.runs} budget runs, ${report.budget.quotaExhausted} quota-exhausted`,
  );
  return report;
}

/** ScenarioTally is what every scenario adds to the report, whichever way it ran. */
interface ScenarioTally {
  kind: SoakKind;
  seed: number;
  applies: number[];
  convergedAfter: number | null;
  duplicates: string[];
  wrongExits: string[];
  faults: number;
  /** What else went wrong, in words. */
  problems: string[];
}

function tally(report: SoakReport, result: ScenarioResult): void {
  report.faultsInjected += result.faultsInjected;
  report.rateLimited += result.rateLimited;
  if (result.restartedMidApply) report.restartsMidApply += 1;
  if (!result.matchesFaultFree) report.mismatches += 1;
  count(report, {
    ...result,
    faults: result.faultsInjected,
    problems: result.matchesFaultFree ? [] : ['final workspace differs from the fault-free run'],
  });
}

function tallyBudget(report: SoakReport, result: BudgetRunResult): void {
  const totals = report.budget;
  totals.runs += 1;
  if (result.printed) totals.plansPrinted += 1;
  if (result.refusedUpFront) totals.refusedUpFront += 1;
  totals.quotaExhausted += result.quotaExhausted;
  totals.rateLimited += result.rateLimited;
  const what = [
    ...result.problems,
    ...(result.quotaExhausted === 0 ? [] : [`${result.quotaExhausted} quota-exhausted`]),
    ...(result.rateLimited === 0 ? [] : [`${result.rateLimited} 429s`]),
  ];
  if (what.length === 0) return;
  totals.failed += 1;
  report.problems.push({
    kind: 'budget',
    seed: result.seed,
    applies: [result.code],
    what: `quota ${result.quota}, --reserve ${result.reserve}: ${what.join('; ')}`,
  });
}

function tallySlow(report: SoakReport, result: SlowCreateResult): void {
  count(report, {
    ...result,
    kind: 'slow-create',
    faults: result.held,
    problems: result.resent.length > 0 ? [`sent a create twice: ${result.resent.join(', ')}`] : [],
  });
}

function count(report: SoakReport, result: ScenarioTally): void {
  report.scenarios += 1;
  report.runs += result.applies.length;
  report.duplicatesFound += result.duplicates.length;
  report.wrongExitCodes += result.wrongExits.length;
  const failed = result.convergedAfter === null;
  if (result.convergedAfter === 1) report.outcomes.convergedIn1 += 1;
  else if (result.convergedAfter === 2) report.outcomes.convergedIn2 += 1;
  else if (result.convergedAfter === 3) report.outcomes.convergedIn3 += 1;
  else report.outcomes.failed += 1;
  const totals = report.byKind[result.kind] ?? { scenarios: 0, faultsInjected: 0, failed: 0 };
  totals.scenarios += 1;
  totals.faultsInjected += result.faults;
  if (failed) totals.failed += 1;
  report.byKind[result.kind] = totals;
  const what = [
    failed ? 'did not converge in three applies' : '',
    result.duplicates.length > 0 ? `doubled ${result.duplicates.join(', ')}` : '',
    ...result.problems,
    ...result.wrongExits,
  ].filter((part) => part !== '');
  if (what.length > 0)
    report.problems.push({ kind: result.kind, seed: result.seed, applies: result.applies, what: what.join('; ') });
}

function describe(result: ScenarioResult): string {
  const outcome = result.convergedAfter === null ? 'FAILED' : `converged in ${result.convergedAfter}`;
  return `soak: seed ${result.seed} ${result.kind}: exits ${result.applies.join(',')}, ${outcome}, ${result.faultsInjected} faults, ${result.rateLimited} 429s`;
}
