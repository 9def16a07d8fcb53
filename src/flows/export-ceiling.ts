import type { ApiUser, ApiWorkspace } from '../domain/api-types.js';
import {
  budgetMembers,
  checkExportCeiling,
  exportFloor,
  selectPinUsers,
  type MemberBatch,
  type PinUserChoice,
} from '../export/pin-users.js';
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

/** ExportBatch is where a budgeted export stands once its members were picked: everyone chosen, those done before, those left. */
export interface ExportBatch {
  all: ApiUser[];
  skipped: number;
  remaining: number;
}

/** MemberSelection picks the members whose pinned views a run reads and keeps, under a budget, where the export stands. */
export interface MemberSelection {
  select(users: readonly ApiUser[]): ApiUser[];
  /** Set once `select` ran under `--budget`. */
  readonly batch: ExportBatch | undefined;
}

/**
 * memberSelection chooses the members `choice` names; under `--budget`, only those with
 * something left to read (`costOf(chosen)`: each one's pinned lists to read, 0 when
 * done), in email order, as many as the ceiling pays for now (`stats`: the client's
 * figures when the members are known).
 */
export function memberSelection(
  choice: PinUserChoice,
  budget: number | undefined,
  ceiling: ExportCeiling,
  costOf: (chosen: readonly ApiUser[]) => (user: ApiUser) => number,
  stats: () => ServiceStats,
): MemberSelection {
  let batch: ExportBatch | undefined;
  return {
    select(users) {
      const chosen = selectPinUsers(users, choice);
      if (budget === undefined) return chosen;
      const picked = ceiling.pick(chosen, costOf(chosen), stats());
      batch = { all: chosen, skipped: picked.skipped, remaining: picked.remaining };
      return picked.read;
    },
    get batch() {
      return batch;
    },
  };
}
