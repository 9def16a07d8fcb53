import { ownValue } from '../../own.js';
import type { StoredCompany } from '../types.js';
import type { FilterEnv } from './env.js';
import { matchesIn, matchesNotIn, type JsonRecord } from './shared-shapes.js';

type CompanyPredicate = (value: unknown, company: StoredCompany, env: FilterEnv) => boolean;

/**
 * COMPANY_FILTERS evaluates every company view filter (the service's "Company view
 * filters"). `dealStatusIn` matches a company with at least one linked deal in one of
 * the statuses; `dealStatusNotIn` one with no linked deal in any of them.
 */
export const COMPANY_FILTERS: Record<string, CompanyPredicate> = {
  contactIdIn: (value, company) => matchesIn(value, company.contactIds),
  contactIdNotIn: (value, company) => matchesNotIn(value, company.contactIds),
  dealIdIn: (value, company) => matchesIn(value, company.dealIds),
  dealIdNotIn: (value, company) => matchesNotIn(value, company.dealIds),
  dealStatusIn: (value, company, env) => matchesIn(value, dealStatuses(company, env)),
  dealStatusNotIn: (value, company, env) => matchesNotIn(value, dealStatuses(company, env)),
  hasInteraction: (value, company) => typeof value !== 'boolean' || company.hasInteraction === value,
};

/** matchesCompanyFilters tells whether a company passes every set attribute of company view filters. */
export function matchesCompanyFilters(filters: JsonRecord, company: StoredCompany, env: FilterEnv): boolean {
  for (const [attribute, value] of Object.entries(filters)) {
    const predicate = ownValue(COMPANY_FILTERS, attribute);
    if (predicate !== undefined && value !== undefined && value !== null && !predicate(value, company, env)) return false;
  }
  return true;
}

function dealStatuses(company: StoredCompany, env: FilterEnv): string[] {
  return company.dealIds.flatMap((dealId) => {
    const deal = env.dealsById.get(dealId);
    return deal === undefined ? [] : [deal.status];
  });
}
