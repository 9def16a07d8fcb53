import type { ApiView } from '../domain/api-types.js';
import type { Domain } from '../domain/domains.js';
import { createdKey } from '../kinds/kind.js';
import { kindOf } from '../kinds/kinds.js';
import type { Plan } from '../plan/types.js';
import { ROUTES } from '../service/routes.js';
import type { ServiceClient } from '../service/types.js';
import type { Execution, OperationOutcome } from './execute.js';

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
  const listings = domains.map(async (domain) => [domain, await client.request<ApiView[]>(ROUTES.listViews(domain))] as const);
  return new Map(await Promise.all(listings));
}

/**
 * checkApplied compares the listings read after writing (`readListings` of `touchedDomains`) with
 * the plan, asking each landed change's kind (`Kind.verify`): each created or updated
 * view equals its change's `after`, a created view exists exactly once, a deleted one
 * is gone, and each pinned list holds the ids sent, in order. Pure.
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
    const { operation } = outcome;
    const at = { changeIndex: operation.changeIndex, kind: operation.kind, name: operation.name, ...(outcome.viewId === undefined ? {} : { id: outcome.viewId }) };
    const change = plan.changes[operation.changeIndex];
    const context = { listing: listings.get(operation.domain) ?? [], createdIds };
    const message = change === undefined ? 'the operation has no change in the plan' : kindOf(change).verify(change, outcome, context);
    if (message !== undefined) problems.push({ ...at, message });
  }
  return { problems, domainsRead: [...listings.keys()] };
}

type LandedOutcome = Extract<OperationOutcome, { status: 'landed' }>;

function landedOutcomes(execution: Execution): LandedOutcome[] {
  return execution.outcomes.filter((outcome): outcome is LandedOutcome => outcome.status === 'landed');
}
