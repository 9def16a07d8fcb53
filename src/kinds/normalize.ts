import type { ApiView, JsonObject } from '../domain/api-types.js';
import type { Domain } from '../domain/domains.js';
import type { DesiredView } from '../state/types.js';
import type { ViewSnapshot } from './changes.js';
import { COMPANY_VIEW } from './company-view.js';
import { CONTACT_VIEW } from './contact-view.js';
import { DEAL_VIEW } from './deal-view.js';
import { RECORDING_VIEW } from './recording-view.js';
import type { ViewKindModule } from './view-kind.js';

/**
 * One normalisation for desired state, live state, post-apply verification and drift.
 * A ViewSnapshot holds only what a manifest can manage
 * (name, icon, columns, filters, sort); `viewId`, `visibility`, `isDefault` and
 * `ownerId` are server attributes and never part of it.
 */

/** VIEW_KIND_MODULES maps each domain to its kind module. */
export const VIEW_KIND_MODULES: Readonly<Record<Domain, ViewKindModule>> = {
  recordings: RECORDING_VIEW,
  deals: DEAL_VIEW,
  companies: COMPANY_VIEW,
  contacts: CONTACT_VIEW,
};

/** viewKindModule returns the kind module of a domain. */
export function viewKindModule(domain: Domain): ViewKindModule {
  return VIEW_KIND_MODULES[domain];
}

/** SnapshotParts is anything shaped like a view: an ApiView, a ViewSnapshot, a create body. */
export interface SnapshotParts {
  name: string;
  icon?: string | null | undefined;
  columns?: JsonObject[] | undefined;
  filters?: JsonObject | undefined;
  sort?: JsonObject[] | undefined;
}

/**
 * normalizeSnapshot normalises view-shaped data of a domain. Omitted columns and sort
 * are `[]` and omitted filters `{}`, as the service fills them on create
 * (the service's POST); a null or absent icon is no icon. Idempotent.
 */
export function normalizeSnapshot(domain: Domain, parts: SnapshotParts): ViewSnapshot {
  const module = VIEW_KIND_MODULES[domain];
  // Key order is fixed (name, icon, columns, filters, sort) so YAML and JSON read the same every time.
  return {
    name: parts.name,
    ...(typeof parts.icon === 'string' ? { icon: parts.icon } : {}),
    columns: (parts.columns ?? []).map((column) => module.normalizeColumn(column)),
    filters: module.normalizeFilters(parts.filters ?? {}),
    sort: (parts.sort ?? []).map((entry) => module.normalizeSortEntry(entry)),
  };
}

/** normalizeView normalises a view as the service returns it. */
export function normalizeView(domain: Domain, apiView: ApiView): ViewSnapshot {
  return normalizeSnapshot(domain, apiView);
}

/** normalizeFilters normalises a filter object of a domain (sets sorted, response-only dropped). */
export function normalizeFilters(domain: Domain, filters: JsonObject): JsonObject {
  return VIEW_KIND_MODULES[domain].normalizeFilters(filters);
}

/**
 * desiredSnapshot is the state a view manifest asks for. Managed attributes override
 * `live` (an already normalised snapshot of the bound view); unmanaged ones keep
 * their live value. For a create (`live` absent) they take the service's defaults.
 * `icon: null` means no icon.
 */
export function desiredSnapshot(domain: Domain, desiredView: DesiredView, live?: ViewSnapshot): ViewSnapshot {
  const { managed } = desiredView;
  return normalizeSnapshot(domain, {
    name: desiredView.name,
    icon: managed.icon === undefined ? live?.icon : managed.icon,
    columns: managed.columns ?? live?.columns,
    filters: managed.filters ?? live?.filters,
    sort: managed.sort ?? live?.sort,
  });
}
