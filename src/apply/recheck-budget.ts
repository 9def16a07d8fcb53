import type { ApiWorkspace } from '../domain/api-types.js';
import { ViewctlError } from '../errors.js';
import { applyLoad, recheckLoad } from '../plan/requests.js';
import type { Plan } from '../plan/types.js';
import { formatCount, plural } from '../text/plural.js';

/**
 * checkRecheckBudget refuses `apply --plan` on the workspace's answer, its first request
 * and before any re-read, when what the file costs from here (its re-reads, then its
 * writes and the reads that verify them) is more than the service says is left today
 * (`apply.daily-budget`, exit 1): running out part-way through the re-reads spends the
 * rest of the day's quota and writes nothing. Counted for every step: a plan applied
 * part-way before needs fewer writes, which the check after the re-reads counts exactly.
 */
export function checkRecheckBudget(
  plan: Pick<Plan, 'changes' | 'steps'>,
  workspace: Pick<ApiWorkspace, 'membersCount'>,
  dailyRemaining: number | null,
): void {
  const rereads = recheckLoad(plan, workspace.membersCount) - 1;
  const writes = applyLoad(plan).total;
  const cost = rereads + writes;
  if (dailyRemaining === null || cost <= dailyRemaining) return;
  throw new ViewctlError(
    'apply.daily-budget',
    `applying this plan file needs ${plural(cost, 'request')} (${formatCount(rereads)} re-reads of its targets, then ${formatCount(writes)} to write and verify), but the service says only ${formatCount(dailyRemaining)} ${dailyRemaining === 1 ? 'is' : 'are'} left today; nothing was re-read or written`,
    {
      hint: `wait until ${plural(cost - dailyRemaining, 'more request')} free up (each frees 24 h after it was made), or plan and apply part of it now with --target SELECTOR (viewctl plan --target ... --out plan.json) and the rest later`,
    },
  );
}
