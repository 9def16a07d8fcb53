import type { StoredCompany } from '../types.js';
import type { FilterEnv } from './env.js';
import { inNotIn, matchesFilters, type FilterTable, type JsonRecord } from './shared-shapes.js';

/**
 * COMPANY_FILTERS evaluates every company view filter (the service's "Company view
 * filters"). `dealStatusIn` matches a company with at least one linked deal in one of
 * the statuses; `dealStatusNotIn` one with no linked deal in any of them.
 */
export const COMPANY_FILTERS: FilterTable<StoredCompany> = {
  ...inNotIn<StoredCompany>('contactId', (company) => company.contactIds),
  ...inNotIn<StoredCompany>('dealId', (company) => company.dealIds),
  ...inNotIn<StoredCompany>('dealStatus', dealStatuses),
  hasInteraction: (value, company) => typeof value !== 'boolean' || company.hasInteraction === value,
};

/** matchesCompanyFilters tells whether a company passes every set attribute of company view filters. */
export function matchesCompanyFilters(filters: JsonRecord, company: StoredCompany, env: FilterEnv): boolean {
  return matchesFilters(COMPANY_FILTERS, filters, company, env);
}

function dealStatuses(company: StoredCompany, env: FilterEnv): string[] {
  return company.dealIds.flatMap((dealId) => {
    const deal = env.dealsById.get(dealId);
    return deal === undefined ? [] : [deal.status];
  });
}
