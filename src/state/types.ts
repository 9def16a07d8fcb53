import type { ApiAdminAutomation, ApiUser, ApiView, ApiWorkspace } from '../domain/api-types.js';
import type { Domain } from '../domain/domains.js';

export type { Desired, ManagedViewAttributes, DesiredView, PinRef, DesiredPins, ExpectedAutomation, DesiredAutomations } from '../domain/desired.js';

/**
 * Live is what the service holds, read at the request floor: only the domains, users
 * and resources the manifests need.
 */
export interface Live {
  workspace: ApiWorkspace;
  /** Listing of each domain read: public saved views, then built-in defaults. */
  views: Partial<Record<Domain, ApiView[]>>;
  /** Pinned lists read, keyed by `pinsKey(domain, userEmail)`, in tab order. */
  pins: Record<string, ApiView[]>;
  automations?: ApiAdminAutomation[];
  /** Read only when `creatorEmail` must be checked. */
  users?: ApiUser[];
  /** Requests the read took, and the daily budget left after it when the service said. */
  requests: { used: number; dailyRemaining: number | null };
}

export { pinsKey } from '../domain/targets.js';
