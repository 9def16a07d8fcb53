import { scaledWorkspace } from '../../src/emulator/demo/scaled-workspace.js';
import { startEmulator } from '../../src/emulator/server.js';
import { FAST } from '../hardening/fault-runs.js';
import { runInProcess, scratchDir } from '../support/cli.js';

/**
 * The soak's budget runs: `plan --budget 1000` of one group document over 60 members
 * (the users, two listings and two lists per member) against an emulator whose daily
 * quota is smaller than the budget, with the default reserve or `--reserve 0`, through
 * the CLI's `run()`. The budget is a ceiling: the plan spends at most what is left less
 * the reserve and says so, or is refused after its first request when not even its
 * fixed reads fit; it never meets the quota (`service.quota-exhausted`, a 429) and never
 * dips into the reserve.
 */

const MANIFESTS = {
  'workspace.yaml': 'kind: Workspace\nworkspaceId: ws_acme\n',
  'pins/everyone.yaml':
    'kind: PinnedViews\nname: Everyone\nroles: [Member, Admin]\nunpinPrivate: true\ndeals: [All deals]\nrecordings: [All recordings]\n',
};

const BUDGET = 1000;
const MEMBERS = 60;
/** The least the plan reads: the workspace, two listings, a page of users and one pinned list. */
const LEAST = 5;

/** BudgetRunResult is one budget run: its quota and reserve, and what came of it. */
export interface BudgetRunResult {
  seed: number;
  quota: number;
  reserve: number;
  code: number;
  /** The plan was printed (exit 0 or 2). */
  printed: boolean;
  /** Refused after its first request: not even the fixed reads fit. */
  refusedUpFront: boolean;
  /** `service.quota-exhausted` errors met: must be 0. */
  quotaExhausted: number;
  /** 429s the emulator answered: must be 0. */
  rateLimited: number;
  requests: number;
  /** What went wrong, in words. */
  problems: string[];
}

/** runBudgetScenario runs the seed's budget run: quota and reserve vary with the seed, the budget is always above the quota. */
export async function runBudgetScenario(seed: number): Promise<BudgetRunResult> {
  const reserve = seed % 3 === 0 ? 0 : 300;
  // What is left less the reserve runs from 0 to 39: some runs cannot pay for the fixed reads.
  const quota = Math.max(1, reserve + ((seed * 7) % 40));
  const day = new Date(Date.UTC(2026, 2, 1 + seed)).toISOString().slice(0, 10);
  const manifests = await scratchDir(MANIFESTS);
  const emulator = await startEmulator({ data: scaledWorkspace(MEMBERS), port: 0, ...FAST, quota, seed });
  try {
    const env = { VIEWCTL_BASE_URL: emulator.url, VIEWCTL_API_KEY: emulator.apiKey };
    const result = await runInProcess(
      [
        'plan',
        manifests.dir,
        '--budget',
        String(BUDGET),
        '--reserve',
        String(reserve),
        '--budget-day',
        day,
        '--rate',
        '1000',
      ],
      { env },
    );
    const { requests, rateLimited } = emulator.stats();
    const available = quota - reserve;
    const printed = (result.code === 0 || result.code === 2) && /^Plan: /m.test(result.stdout);
    const refusedUpFront =
      result.code === 1 && result.stderr.startsWith('error[plan.exceeds-daily-quota]') && requests === 1;
    const problems: string[] = [];
    if (requests > available && !refusedUpFront)
      problems.push(`${requests} requests with ${available} available: dipped into the reserve`);
    if (available >= LEAST && !printed)
      problems.push(
        `no plan printed with ${available} available (exit ${result.code}: ${result.stderr.split('\n')[0] ?? ''})`,
      );
    if (
      available >= LEAST &&
      !result.stdout.includes(`--budget 1,000 lowered to ${available}, the ${quota} left today`)
    )
      problems.push('the plan does not say the budget was lowered');
    if (available < LEAST && !refusedUpFront)
      problems.push(
        `not refused after the first request with ${available} available (exit ${result.code}, ${requests} requests)`,
      );
    const quotaExhausted = result.stderr.split('quota-exhausted').length - 1;
    return {
      seed,
      quota,
      reserve,
      code: result.code,
      printed,
      refusedUpFront,
      quotaExhausted,
      rateLimited,
      requests,
      problems,
    };
  } finally {
    await emulator.close();
    await manifests.cleanup();
  }
}
