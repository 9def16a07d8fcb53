import type { ApiView, JsonValue } from '../domain/api-types.js';
import type { Domain } from '../domain/domains.js';
import { canonicalJson } from '../kinds/canonical.js';
import { normalizeView } from '../kinds/normalize.js';
import type { Plan, ViewSnapshot } from '../plan/types.js';
import { ROUTES } from '../service/routes.js';
import type { ServiceClient } from '../service/types.js';
import type { Execution, OperationOutcome } from './execute.js';
import { createdKey } from '../plan/operations.js';

/**
 * Post-apply verification: what landed is read back and compared, through the same
 * normalisation the plan used, with what the plan said it
 * would become. One list call per touched view domain; pinned lists are checked from
 * the PUT responses, which are the new lists.
 */

/** VerificationProblem is one thing that is not as the plan said after apply. */
export interface VerificationProblem {
  changeIndex: number;
  kind: string;
  name: string;
  id?: string;
  message: string;
}

/** Verification is the outcome of `checkApplied`. */
export interface Verification {
  problems: VerificationProblem[];
  /** View domains re-read. */
  domainsRead: Domain[];
}

/** touchedDomains are the view domains a landed create, update or delete touched. */
export function touchedDomains(execution: Execution): Domain[] {
  return [...new Set(landedOutcomes(execution).filter((outcome) => outcome.operation.action !== 'pin').map((outcome) => outcome.operation.domain))];
}

/** readListings lists each of `domains` (one call each, endpoints at once). */
export async function readListings(domains: readonly Domain[], client: ServiceClient): Promise<Map<Domain, ApiView[]>> {
  return new Map<Domain, ApiView[]>(
    await Promise.all(
      domains.map(async (domain) => [domain, await client.request<ApiView[]>(ROUTES.listViews(domain))] as const),
    ),
  );
}

/**
 * checkApplied compares the listings read after writing (`readListings` of `touchedDomains`) with
 * the plan: each created or updated view equals its change's `after`, a created view
 * exists exactly once, a deleted one is gone, and each pinned list holds the ids sent,
 * in order. Pure.
 */
export function checkApplied(plan: Plan, execution: Execution, listings: ReadonlyMap<Domain, ApiView[]>): Verification {
  const landed = landedOutcomes(execution);
  const createdIds = new Map<string, string>();
  for (const outcome of landed) {
    if (outcome.operation.action === 'create' && outcome.viewId !== undefined) {
      createdIds.set(createdKey(outcome.operation.domain, outcome.operation.name), outcome.viewId);
    }
  }
  const problems: VerificationProblem[] = [];
  for (const outcome of landed) {
    const listing = listings.get(outcome.operation.domain) ?? [];
    const problem = check(plan, outcome, listing, createdIds);
    if (problem !== undefined) problems.push(problem);
  }
  return { problems, domainsRead: [...listings.keys()] };
}

/** LandedOutcome is an operation outcome that landed. */
export type LandedOutcome = Extract<OperationOutcome, { status: 'landed' }>;

function landedOutcomes(execution: Execution): LandedOutcome[] {
  return execution.outcomes.filter((outcome): outcome is LandedOutcome => outcome.status === 'landed');
}

function check(
  plan: Plan,
  outcome: Extract<OperationOutcome, { status: 'landed' }>,
  listing: readonly ApiView[],
  createdIds: ReadonlyMap<string, string>,
): VerificationProblem | undefined {
  const { operation } = outcome;
  const change = plan.changes[operation.changeIndex];
  const at = { changeIndex: operation.changeIndex, kind: operation.kind, name: operation.name };
  const id = outcome.viewId;
  const withId = id === undefined ? at : { ...at, id };
  if (change === undefined) return { ...withId, message: 'the operation has no change in the plan' };
  switch (change.action) {
    case 'create': {
      const named = listing.filter((view) => !view.isDefault && view.name === change.after.name);
      if (named.length !== 1) {
        return { ...withId, message: `expected one view named "${change.after.name}", found ${named.length}` };
      }
      return compareView(change.domain, withId, named[0], change.after, id);
    }
    case 'update':
      return compareView(change.domain, withId, listing.find((view) => view.viewId === change.id), change.after, change.id);
    case 'delete':
      return listing.some((view) => view.viewId === change.id) ? { ...withId, message: 'the view is still there after delete' } : undefined;
    case 'pin': {
      const expected = change.after.map((tab) => tab.viewId ?? createdIds.get(createdKey(change.domain, tab.name)) ?? `(new "${tab.name}")`);
      const actual = (outcome.pinned ?? []).map((view) => view.viewId);
      if (expected.join('\u0000') === actual.join('\u0000')) return undefined;
      return { ...at, message: `pinned tabs are [${actual.join(', ')}], expected [${expected.join(', ')}]` };
    }
    case 'drift':
      return undefined;
  }
}

function compareView(
  domain: Domain,
  at: Omit<VerificationProblem, 'message'>,
  view: ApiView | undefined,
  after: ViewSnapshot,
  expectedId: string | undefined,
): VerificationProblem | undefined {
  if (view === undefined) return { ...at, message: 'the view is not in the listing after apply' };
  if (expectedId !== undefined && view.viewId !== expectedId) {
    return { ...at, message: `the view named "${view.name}" is ${view.viewId}, not ${expectedId}` };
  }
  const actual = normalizeView(domain, view);
  const differing = differingAttributes(actual, after);
  if (differing.length === 0) return undefined;
  return { ...at, message: `after apply, ${differing.join(', ')} differ${differing.length === 1 ? 's' : ''} from the plan` };
}

function differingAttributes(actual: ViewSnapshot, expected: ViewSnapshot): string[] {
  const names: (keyof ViewSnapshot)[] = ['name', 'icon', 'columns', 'filters', 'sort'];
  return names.filter((name) => canonicalJson((actual[name] ?? null) as JsonValue) !== canonicalJson((expected[name] ?? null) as JsonValue));
}
