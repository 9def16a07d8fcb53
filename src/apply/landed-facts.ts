import type { Domain } from '../domain/domains.js';
import { pinsKey } from '../domain/targets.js';
import type { Change, Plan } from '../plan/types.js';
import type { AppliedFacts } from '../state/ledger-applied.js';
import type { ApplyReport } from './report.js';


/**
 * landedFacts is what an apply's report says landed (its `landed` and `alreadyApplied`
 * writes; never those that may have landed), in the sweep memory's terms: each pinned
 * list written with the ids its change's `after` holds (a tab naming a view the run
 * created taking that view's new id; a list with a tab whose id is unknown is left
 * out), each view created or updated with its name, each view deleted.
 */
export function landedFacts(plan: Pick<Plan, 'changes'>, report: Pick<ApplyReport, 'landed' | 'alreadyApplied'>): AppliedFacts {
  const entries = [...report.landed, ...report.alreadyApplied];
  const created = new Map<string, string>();
  for (const entry of entries) {
    if (entry.action === 'create' && entry.domain !== undefined && entry.id !== undefined) created.set(nameKey(entry.domain, entry.name), entry.id);
  }
  const facts: AppliedFacts = { lists: {}, seen: [], deleted: [] };
  for (const entry of entries) {
    const { domain, id } = entry;
    if (domain === undefined) continue;
    if (entry.action === 'pin' && entry.userEmail !== undefined) {
      const change = plan.changes.find((candidate) => candidate.action === 'pin' && candidate.domain === domain && candidate.userEmail.toLowerCase() === entry.userEmail?.toLowerCase());
      const ids = change?.action === 'pin' ? change.after.map((tab) => tab.viewId ?? created.get(nameKey(domain, tab.name))) : [];
      if (change !== undefined && ids.every((tabId): tabId is string => tabId !== undefined)) facts.lists[pinsKey(domain, entry.userEmail)] = ids;
    } else if (id !== undefined && entry.action === 'create') {
      facts.seen.push({ domain, id, name: entry.name });
    } else if (id !== undefined && entry.action === 'update') {
      facts.seen.push({ domain, id, name: updatedName(plan.changes, domain, id) ?? entry.name });
    } else if (id !== undefined && entry.action === 'delete') {
      facts.deleted.push({ domain, id });
    }
  }
  return facts;
}

function nameKey(domain: Domain, name: string): string {
  return `${domain}\0${name}`;
}

function updatedName(changes: readonly Change[], domain: Domain, id: string): string | undefined {
  const change = changes.find((candidate) => candidate.action === 'update' && candidate.domain === domain && candidate.id === id);
  return change?.action === 'update' ? change.after.name : undefined;
}

