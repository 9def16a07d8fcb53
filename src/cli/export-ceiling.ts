import type { ApiUser, ApiWorkspace } from '../domain/api-types.js';
import { budgetMembers, checkExportCeiling, exportFloor, type MemberBatch } from '../export/pin-users.js';
import type { ServiceStats } from '../service/types.js';
import { readCeiling, type ReadCeiling } from '../state/read-ceiling.js';

/**
 * ExportCeiling is the one account of what an export (plain or `--merge`) may spend
 * (README, "Scoped and budgeted plans"): min(`--budget`, what is left today less
 * `--reserve`). It is refused before any request only when the shortfall is certain,
 * else set from the workspace's answer, the first request; a budgeted export then reads
 * the members that fit, in email order.
 */
export interface ExportCeiling {
  /** The ceiling as it stands: offline at first, from what is left today once the workspace was read. */
  readonly current: ReadCeiling;
  /** checkWorkspace sets the ceiling from the workspace's answer and refuses an export it cannot pay for. */
  checkWorkspace(workspace: ApiWorkspace, stats: ServiceStats): void;
  /** pick is the members a budgeted export reads this run (`cost`: a member's pinned lists left to read, 0 when done). */
  pick(members: readonly ApiUser[], cost: (user: ApiUser) => number, stats: ServiceStats): MemberBatch;
}

/**
 * exportCeiling starts the account for an export that reads pinned views when `pins`;
 * called before any request, it refuses an export that certainly cannot be paid for.
 */
export function exportCeiling(limits: { budget?: number; reserve: number }, pins: boolean): ExportCeiling {
  const given = { ...(limits.budget === undefined ? {} : { budget: limits.budget }), reserve: limits.reserve };
  const offline = exportFloor(pins);
  let ceiling = readCeiling({ ...given, spent: 0, remaining: null, least: offline.least });
  if (offline.exact || (limits.budget ?? 1) < 1) checkExportCeiling(ceiling, offline, 'nothing was read');
  return {
    get current() {
      return ceiling;
    },
    checkWorkspace(workspace, { requests, dailyRemaining }) {
      const floor = exportFloor(pins, typeof workspace.membersCount === 'number' ? workspace.membersCount : undefined);
      ceiling = readCeiling({ ...given, spent: requests, remaining: dailyRemaining, least: floor.least });
      checkExportCeiling(ceiling, floor, 'only the workspace was read');
    },
    pick(members, cost, { requests, dailyRemaining }) {
      return budgetMembers(members, cost, { spent: requests, remaining: dailyRemaining, ceiling });
    },
  };
}
