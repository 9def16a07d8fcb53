import { actionTraits } from '../plan/action-traits.js';
import type { ActionCount } from '../kinds/kind.js';
import type { ApplyReport, ReportEntry } from '../domain/apply-report.js';
import { EXIT } from '../errors.js';
import type { ExitCode } from '../errors.js';
import type { Plan } from '../plan/types.js';
import type { Execution, OperationOutcome } from './execute.js';
import type { Verification } from './verify.js';

/**
 * The outcome report of an apply, as data (src/domain/apply-report.ts; rendered by
 * src/render/apply-report.ts). On a partial failure it lists what landed, what failed
 * and what was not attempted, so the user knows the exact state the workspace was left in.
 */

export type { ApplyReport };

export function buildReport(
  plan: Plan,
  execution: Execution,
  verification: Verification | null,
  run: { requests: number; elapsedMs: number; fromPlanFile: boolean; alreadyApplied?: readonly OperationOutcome[] },
): ApplyReport {
  const byStatus = (status: OperationOutcome['status']): ReportEntry[] =>
    execution.outcomes.filter((outcome) => outcome.status === status).map(toEntry);
  const landed = byStatus('landed');
  const unsure = byStatus('failed').filter((entry) => entry.error?.mayHaveLanded === true);
  const count = (as: ActionCount): number => landed.filter((entry) => actionTraits(entry).countedAs === as).length;
  const clean =
    execution.stopped === null &&
    execution.outcomes.every((outcome) => outcome.status === 'landed') &&
    (verification?.problems.length ?? 0) === 0;
  const report: ApplyReport = {
    formatVersion: 1,
    status: clean ? 'applied' : 'partial',
    stopped: execution.stopped,
    workspace: plan.workspace,
    digest: plan.digest,
    counts: {
      created: count('created'),
      updated: count('updated'),
      pinned: count('pinned'),
      deleted: count('deleted'),
    },
    landed,
    mayHaveLanded: unsure,
    failed: byStatus('failed').filter((entry) => entry.error?.mayHaveLanded !== true),
    notAttempted: byStatus('not-attempted'),
    alreadyApplied: (run.alreadyApplied ?? []).map(toEntry),
    verification: verification === null ? null : { problems: verification.problems },
    requests: run.requests,
    elapsedMs: Math.round(run.elapsedMs),
  };
  if (!clean) report.next = nextStep(report, run.fromPlanFile);
  return report;
}

/**
 * nextStep says how to go on. A refusal the service will repeat (a 4xx) needs a fix
 * first, unless a concurrent run caused it (`concurrentChange`); anything transient (a
 * fault, a lost answer, an interrupt, a concurrent run)
 * converges by running again; a saved plan too, since applying it again skips what
 * landed. A fix needs a new plan.
 */
function nextStep(report: ApplyReport, fromPlanFile: boolean): string {
  const again = fromPlanFile ? 'run viewctl plan again and apply the new plan' : 'run the same command again';
  const refused = report.failed.filter(
    (entry) =>
      entry.error?.status !== undefined &&
      entry.error.status < 500 &&
      entry.error.status !== 429 &&
      entry.error.concurrentChange !== true,
  );
  if (refused.length > 0) {
    return `The service refused ${refused.length === 1 ? 'a write' : `${refused.length} writes`}: fix what the error says (in the manifests or the workspace), then ${again}.`;
  }
  if (report.failed.some((entry) => entry.error?.concurrentChange === true)) {
    return `A concurrent run removed a view a pinned list named while this run applied; nothing needs fixing: a new plan converges (${again}).`;
  }
  // A saved plan applied again skips what is already live (at its after) and sends the
  // rest; a result that differs from the plan is neither, so only a new plan converges.
  if (fromPlanFile && (report.verification?.problems.length ?? 0) === 0)
    return 'Run the same command again to apply the rest: what landed is skipped as already applied.';
  return `${again.charAt(0).toUpperCase()}${again.slice(1)} to converge.`;
}

/**
 * reportExitCode is 0 when everything landed and verified (a saved plan's held targets
 * are no failure: they were not written, as the report says), and 4 (partial) once a
 * write landed or may have, and anything went wrong. Only when no write landed and
 * every failed one is known not to have been carried out is the workspace as it was:
 * 1, an error before any write.
 */
export function reportExitCode(report: ApplyReport): ExitCode {
  if (report.status === 'applied' || report.status === 'already-applied' || report.status === 'held') return EXIT.ok;
  if (report.landed.length === 0 && report.mayHaveLanded.length === 0) return EXIT.error;
  return EXIT.partial;
}

/**
 * nothingSentReport is the report of a saved plan of which nothing was left to send:
 * every change an earlier apply carried out (`already-applied`), or every change left
 * held, with or without some already applied (`held`). `requests` are the re-reads
 * that showed it.
 */
export function nothingSentReport(
  plan: Plan,
  alreadyApplied: readonly OperationOutcome[],
  run: { requests: number; elapsedMs: number },
  status: 'already-applied' | 'held',
): ApplyReport {
  const report = buildReport(plan, { outcomes: [], stopped: null }, null, {
    ...run,
    fromPlanFile: true,
    alreadyApplied,
  });
  return { ...report, status };
}

function toEntry(outcome: OperationOutcome): ReportEntry {
  const { operation } = outcome;
  const entry: ReportEntry = {
    action: operation.action,
    kind: operation.kind,
    name: operation.name,
    ...(operation.domain === undefined ? {} : { domain: operation.domain }),
  };
  const id = outcome.status === 'landed' ? (outcome.viewId ?? operation.viewId) : operation.viewId;
  if (id !== undefined) entry.id = id;
  if (operation.userEmail !== undefined) entry.userEmail = operation.userEmail;
  if (outcome.status === 'landed' && outcome.note !== undefined) entry.note = outcome.note;
  if (outcome.status === 'failed') entry.error = outcome.error;
  return entry;
}
