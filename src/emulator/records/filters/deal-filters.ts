import type { StoredDeal } from '../types.js';
import { groupIdsOf, type FilterEnv } from './env.js';
import { matchesOwnerIn, matchesOwnerNotIn } from './owner-filters.js';
import {
  dealAgeDays,
  inNotIn,
  matchesDealAge,
  matchesFilters,
  matchesIn,
  matchesNumeric,
  matchesRelative,
  timestamp,
  type FilterTable,
  type JsonRecord,
} from './shared-shapes.js';

const dealInNotIn = inNotIn<StoredDeal>;

/**
 * DEAL_FILTERS evaluates every attribute of the deal view filters (the service's
 * "Deal view"). `ownerEmailIn` / `ownerEmailNotIn` hold owner emails (compared
 * case-insensitively) and may hold the `Me` entry (rule 7); `userGroupIn` matches when
 * the deal owner (found by email) is in one of the groups; `dealAgeRange` counts from
 * `openedAt` (to `closedAt` for a closed deal).
 */
export const DEAL_FILTERS: FilterTable<StoredDeal> = {
  ...dealInNotIn('aiStatus', (deal) => [deal.aiStatus]),
  ...dealInNotIn('amountCurrency', (deal) => (deal.amount === null ? [] : [deal.amount.currency])),
  amountValue: (value, deal) => matchesNumeric(value, deal.amount?.value ?? null),
  closedAfterRelative: (value, deal, env) => matchesRelative(value, undefined, timestamp(deal.closedAt), env.now),
  closedBeforeRelative: (value, deal, env) => matchesRelative(undefined, value, timestamp(deal.closedAt), env.now),
  ...dealInNotIn('companyId', (deal) => (deal.companyId === null ? [] : [deal.companyId])),
  contactIdIn: (value, deal) => matchesIn(value, deal.contactIds),
  dealAgeRange: (value, deal, env) => matchesDealAge(value, dealAgeDays(deal.openedAt, deal.closedAt, env.now)),
  hasInteraction: (value, deal) => typeof value !== 'boolean' || deal.hasInteraction === value,
  openedAfterRelative: (value, deal, env) => matchesRelative(value, undefined, timestamp(deal.openedAt), env.now),
  openedBeforeRelative: (value, deal, env) => matchesRelative(undefined, value, timestamp(deal.openedAt), env.now),
  ownerEmailIn: (value, deal, env) => matchesOwnerIn(value, deal, env, 'ownerEmail'),
  ownerEmailNotIn: (value, deal) => matchesOwnerNotIn(value, deal, 'ownerEmail'),
  ...dealInNotIn('pipelineId', (deal) => [deal.pipelineId]),
  ...dealInNotIn('stage', (deal) => [deal.stage]),
  ...dealInNotIn('status', (deal) => [deal.status]),
  ...dealInNotIn('type', (deal) => [deal.type]),
  ...dealInNotIn('userGroup', ownerGroups),
};

/** matchesDealFilters tells whether a deal passes every set attribute of deal view filters. */
export function matchesDealFilters(filters: JsonRecord, deal: StoredDeal, env: FilterEnv): boolean {
  return matchesFilters(DEAL_FILTERS, filters, deal, env);
}

function ownerGroups(deal: StoredDeal, env: FilterEnv): string[] {
  const email = deal.ownerEmail.toLowerCase();
  const owner = [...env.usersById.values()].find((user) => user.email.toLowerCase() === email);
  return groupIdsOf(env.groupsOf, owner?.id);
}
