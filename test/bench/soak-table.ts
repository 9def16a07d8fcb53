import type { SoakReport } from './soak.js';
import { formatSeconds } from './table.js';

/**
 * renderSoak renders the soak's report under the bench table: totals, the outcomes
 * that must be zero (failed, duplicated names, a final workspace unlike the
 * fault-free run's, quota-exhausted errors of the budget runs) with ✓/✗, the totals
 * per fault kind, and every problem.
 */
export function renderSoak(report: SoakReport): string {
  const mark = (value: number): string => (value === 0 ? '✓' : '✗');
  const { outcomes } = report;
  const kinds = Object.entries(report.byKind).map(
    ([kind, totals]) =>
      `${kind} ${totals.scenarios} scenarios / ${totals.faultsInjected} faults / ${totals.failed} failed`,
  );
  const lines = [
    `soak · ${report.seeds} seeds · ${report.scenarios} scenarios · ${report.runs} applies · ${formatSeconds(report.elapsedMs)}`,
    `  injected: ${report.faultsInjected} faults (503s, lost responses) · ${report.rateLimited} × 429 · ${report.restartsMidApply} restarts mid-apply`,
    `  converged after 1 apply ${outcomes.convergedIn1} · after 2 ${outcomes.convergedIn2} · after 3 ${outcomes.convergedIn3}`,
    `  ${mark(outcomes.failed)} did not converge in 3 applies: ${outcomes.failed} (target 0)`,
    `  ${mark(report.duplicatesFound)} names held by two public views: ${report.duplicatesFound} (target 0)`,
    `  ${mark(report.mismatches)} final workspace unlike the fault-free run's: ${report.mismatches} (target 0)`,
    `  ${mark(report.wrongExitCodes)} exit codes that contradict the run's own account: ${report.wrongExitCodes} (target 0)`,
    `  by kind: ${kinds.join('; ')}`,
    `  budget runs (plan --budget 1,000, quota below it): ${report.budget.runs} · ${report.budget.plansPrinted} plans printed · ${report.budget.refusedUpFront} refused after the first request`,
    `  ${mark(report.budget.quotaExhausted)} quota-exhausted errors in budget runs: ${report.budget.quotaExhausted} (target 0)`,
    `  ${mark(report.budget.failed)} budget runs that dipped into the reserve, printed no plan with room for one, or did not say the budget was lowered: ${report.budget.failed} (target 0)`,
    ...report.problems.map(
      (problem) => `  ✗ seed ${problem.seed} ${problem.kind} (exits ${problem.applies.join(', ')}): ${problem.what}`,
    ),
  ];
  return `${lines.join('\n')}\n`;
}
