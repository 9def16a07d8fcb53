import type { ApiAdminAutomation, ApiUser, ApiView, ApiWorkspace } from '../domain/api-types.js';
import type { Domain } from '../domain/domains.js';
import type { LoweredBudget } from './read-ceiling.js';

export type {
  Desired,
  ManagedViewAttributes,
  DesiredView,
  PinRef,
  DesiredPins,
  ExpectedAutomation,
  DesiredAutomations,
} from '../domain/desired.js';

/**
 * Live is what the service holds, read at the request floor: only the domains, users
 * and resources the manifests need. Each kind's reads (`LiveRead`) store their answers
 * under the kind's key: the built-in kinds' keys are typed here, a registered kind's
 * are its own to read.
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
  /** What the reads of another registered kind stored, under its key. */
  [kindKey: string]: unknown;
}

/**
 * liveOf is the live state the reads left in `slots` (`readAll`, `sendReads`), with the
 * workspace, the members when read and the requests spent: the built-in kinds' keyed
 * slots (`views`, `pins`) are empty when nothing was read into them.
 */
export function liveOf(
  workspace: ApiWorkspace,
  slots: Record<string, unknown>,
  users: ApiUser[] | undefined,
  requests: Live['requests'],
): Live {
  return { workspace, views: {}, pins: {}, ...slots, requests, ...(users === undefined ? {} : { users }) };
}

export { pinsKey } from '../domain/targets.js';
