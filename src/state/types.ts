import type { ApiAdminAutomation, ApiUser, ApiView, ApiWorkspace } from '../domain/api-types.js';
import type { Domain } from '../domain/domains.js';
import type { LoweredBudget } from './read-ceiling.js';

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
  /**
   * Requests the read took, the daily quota left after it when the service said, and,
   * when what was left today less `--reserve` lowered `--budget`, the ceiling it set.
   */
  requests: { used: number; dailyRemaining: number | null; ceiling?: LoweredBudget };
}

export { pinsKey } from '../domain/targets.js';
