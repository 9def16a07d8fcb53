import { presentation, sweepMemoryAnswers } from '../kinds/capabilities.js';
import type { StepSubject } from '../kinds/kind.js';
import { kindOf } from '../kinds/kinds.js';
import type { Change, Plan } from '../plan/types.js';
import type { AppliedFacts } from '../state/memory-applied.js';
import type { ApplyReport } from './report.js';

type ReportEntry = ApplyReport['landed'][number];

/**
 * appliedFacts is what an apply's report says landed (its `landed` and `alreadyApplied`
 * writes; never those that may have landed), in the sweep memory's terms: what each
 * write's change teaches the memory, as its kind says (`SweepMemoryAnswers.remember`: a pinned list
 * with its new ids, a view seen under its name, a view forgotten). The views the run
 * created are gathered first, so a list naming one by its name is remembered with its
 * new id.
 */
export function appliedFacts(
  plan: Pick<Plan, 'changes'>,
  report: Pick<ApplyReport, 'landed' | 'alreadyApplied'>,
): AppliedFacts {
  const changeOf = changeFinder(plan.changes);
  const landed = [...report.landed, ...report.alreadyApplied].flatMap((entry) => {
    const change = changeOf(entry);
    return change === undefined ? [] : [{ entry, change }];
  });
  const createdIds = new Map<string, string>();
  for (const { entry, change } of landed) {
    const created = kindOf(change).creates?.(change);
    if (created !== undefined && entry.id !== undefined) createdIds.set(created, entry.id);
  }
  const facts: AppliedFacts = { lists: {}, seen: [], deleted: [] };
  for (const { entry, change } of landed) {
    const part = sweepMemoryAnswers(kindOf(change)).remember(change, entry, createdIds);
    Object.assign(facts.lists, part.lists);
    facts.seen.push(...(part.seen ?? []));
    facts.deleted.push(...(part.deleted ?? []));
  }
  return facts;
}

/**
 * changeFinder finds the change a report entry carried out. The report keeps no index
 * of the change: it names each write as its operation did, by the subject the change's
 * kind gives (`Presentation.subject`), so the change is the one of the entry's action whose
 * subject the entry names, its id included when the subject has one (a create's entry
 * holds the new view's id, which its subject never knew).
 */
function changeFinder(changes: readonly Change[]): (entry: ReportEntry) => Change | undefined {
  const bySubject = new Map<string, { change: Change; id: string | undefined }[]>();
  for (const change of changes) {
    const subject = presentation(kindOf(change)).subject(change);
    const key = subjectKey(change.action, subject);
    const same = bySubject.get(key);
    if (same === undefined) bySubject.set(key, [{ change, id: subject.id }]);
    else same.push({ change, id: subject.id });
  }
  return (entry) =>
    bySubject
      .get(subjectKey(entry.action, entry))
      ?.find((candidate) => candidate.id === undefined || candidate.id === entry.id)?.change;
}

function subjectKey(action: string, subject: StepSubject): string {
  return [action, subject.domain ?? '', subject.userEmail ?? '', subject.name].join('\u0000');
}
