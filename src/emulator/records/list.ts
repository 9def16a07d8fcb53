import type { ApiView } from '../../domain/api-types.js';
import type { Domain } from '../../domain/domains.js';
import type { EmulatorData } from '../model.js';
import { isApiVisible } from '../views/access.js';
import { recordingResponse } from './details.js';
import { matchesCompanyFilters } from './filters/company-filters.js';
import { matchesContactFilters } from './filters/contact-filters.js';
import { matchesDealFilters } from './filters/deal-filters.js';
import { filterEnv } from './filters/env.js';
import { matchesRecordingFilters } from './filters/recording-filters.js';
import type { JsonRecord } from './filters/shared-shapes.js';
import { paginate, parseLimit } from './pagination.js';
import { companyResponse, contactResponse, dealResponse } from './record-shapes.js';
import { parseRecordingQuery } from './recording-query.js';
import type { EndpointResult, RecordsContext } from './result.js';
import { notFound } from '../route-result.js';
import {
  COMPANY_SORT,
  CONTACT_SORT,
  DEAL_SORT,
  RECORDING_SORT,
  sortDimensions,
  sortRecords,
  type SortDimension,
} from './sort.js';

/** Default orders when neither a view nor a `sort` parameter gives one. */
const BY_NAME: SortDimension[] = [{ field: 'Name', order: 'Asc' }];
const DEFAULT_SORT: Record<Domain, SortDimension[]> = {
  recordings: [{ field: 'CreatedAt', order: 'Desc' }],
  deals: BY_NAME,
  companies: BY_NAME,
  contacts: BY_NAME,
};

/**
 * listRecords answers `GET /v1/recordings`, `/v1/deals`, `/v1/companies` and
 * `/v1/contacts` with `{<domain>: [...], pagination: {nextCursor?, totalCount}}`
 * (the service's view rule 4 and its records endpoints):
 *
 * - `viewId` applies that view's filters and sort; an unknown view, or a private one
 *   that is not a built-in default, is 404.
 * - For recordings, the narrowing parameters intersect with the view's filters (a
 *   contradicting value gives an empty page), and `sort` overrides the view's sort.
 *   Private recordings are listed only with Full access. Entries use the recording
 *   details shape (see details.ts).
 * - Without a view sort or `sort` parameter, recordings come newest first, the
 *   other domains by name; ties are broken by id.
 */
export function listRecords(
  data: EmulatorData,
  domain: Domain,
  query: URLSearchParams,
  ctx: RecordsContext,
): EndpointResult {
  const limit = parseLimit(query);
  if (typeof limit !== 'number') return limit;
  const recordingQuery = domain === 'recordings' ? parseRecordingQuery(query) : undefined;
  if (recordingQuery !== undefined && 'status' in recordingQuery) return recordingQuery;
  const viewId = query.get('viewId');
  let view: ApiView | undefined;
  if (viewId !== null) {
    view = data.views[domain].find((candidate) => candidate.viewId === viewId);
    // Private views are reported as not found outside the pinned endpoints (rule 1), by
    // the same test as the view endpoints, so `GET .../views/{id}` and `?viewId=` agree.
    if (view === undefined || !isApiVisible(view)) return notFound(`view ${viewId} not found in ${domain}`);
  }
  const env = filterEnv(data, ctx.now);
  const filters: JsonRecord = view?.filters ?? {};
  const viewSort = sortDimensions(view?.sort ?? []);
  const order = recordingQuery?.sort ?? (viewSort.length > 0 ? viewSort : DEFAULT_SORT[domain]);
  switch (domain) {
    case 'recordings': {
      const candidates = data.recordings.filter(
        (recording) =>
          (ctx.fullAccess || !recording.isPrivate) &&
          matchesRecordingFilters(filters, recording, env) &&
          (recordingQuery === undefined || recordingQuery.matches(recording, env)),
      );
      const sorted = sortRecords(candidates, order, RECORDING_SORT, env);
      return paginate(sorted, query, 'recordings', (recording) => recordingResponse(data, recording, ctx));
    }
    case 'deals': {
      const matching = data.deals.filter((deal) => matchesDealFilters(filters, deal, env));
      return paginate(sortRecords(matching, order, DEAL_SORT, env), query, 'deals', dealResponse);
    }
    case 'companies': {
      const matching = data.companies.filter((company) => matchesCompanyFilters(filters, company, env));
      return paginate(sortRecords(matching, order, COMPANY_SORT, env), query, 'companies', companyResponse);
    }
    case 'contacts': {
      const matching = data.contacts.filter((contact) => matchesContactFilters(filters, contact));
      return paginate(sortRecords(matching, order, CONTACT_SORT, env), query, 'contacts', contactResponse);
    }
  }
}
