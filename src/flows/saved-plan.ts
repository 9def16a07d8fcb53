import {
  checkExpectedDigest,
  checkPlanIdentity,
  checkPlanRules,
  checkPlanWorkspace,
  savedPlanReads,
} from '../apply/gates.js';
import { readPlanFile } from '../plan/saved-plan-file.js';
import { checkRecheckBudget } from '../apply/recheck-budget.js';
import { holdStale, planLeft } from '../apply/stale-holds.js';
import type { ApiWorkspace } from '../domain/api-types.js';
import type { PlanSchemaSource } from '../plan/plan-schema.js';
import type { ServiceClient } from '../service/types.js';
import { readLive } from '../state/read-live.js';
import { readyToApply, type ReadyToApply } from './apply-ready.js';

/** SavedPlanFile is a plan file as `apply --plan FILE` read it: its name (for messages) and its text. */
export interface SavedPlanFile {
  name: string;
  text: string;
}

/** SavedPlanOptions are the flags of `apply --plan` and the edges the flow reports to. */
interface SavedPlanOptions {
  /** `--expect-digest`: the digest the plan must have. */
  expectDigest?: string;
  /** `--max-deletes`. */
  maxDeletes: number;
  /** `--max-pin-changes` (default 100). */
  maxPinChanges?: number;
  /** Called after each re-read with how many of the total are done. */
  onProgress?: (done: number, total: number) => void;
  /** Milliseconds clock for `elapsedMs`; default `performance.now`. */
  now?: () => number;
  /** Reads the plan schema (default: the package's file). */
  schema?: PlanSchemaSource;
  /** Checks of the workspace's answer beside the plan's (the sweep memory's workspace): run before any other read. */
  onWorkspace?: (workspace: ApiWorkspace) => void;
}

/**
 * prepareSavedPlan is `apply --plan FILE` up to its first write (README, "Fail-safe
 * rules"). Its gates run in this order, each refusing before the next: the file is a
 * plan of this version and shape whose digest matches its content; it has the
 * `--expect-digest`; its changes agree with their targets and its stored steps are
 * those they imply. Only then is the service contacted (`connect`, so a file's own
 * faults come before a missing service or key): the key's workspace is the plan's
 * (checked on the first answer, before anything else is read), and what is left today
 * pays for the re-reads and the writes (`checkRecheckBudget`); the plan's targets are
 * re-read, as their kinds say; each is still as the plan was computed from (applied),
 * or already as the plan leaves it (an earlier apply carried it out: skipped, so a plan
 * applied again sends nothing and one applied part-way sends the rest), or changed
 * since to something else (stale: held, with the changes that depend on it, and the
 * rest carried out: `holdStale`); the fail-safe rules hold against what was re-read
 * for the changes left; then the last gates on those (`readyToApply`: nothing to apply,
 * `--max-deletes`, `--max-pin-changes`, the daily budget). The figures the plan shows become this run's.
 */
export async function prepareSavedPlan(
  file: SavedPlanFile,
  connect: () => Promise<ServiceClient>,
  options: SavedPlanOptions,
): Promise<ReadyToApply> {
  const saved = readPlanFile(file.text, file.name, options.schema);
  checkExpectedDigest(saved, options.expectDigest);
  checkPlanIdentity(saved);
  const client = await connect();
  const now = options.now ?? (() => performance.now());
  const started = now();
  const { reads, users } = savedPlanReads(saved);
  const live = await readLive(client, reads, {
    checkWorkspace: (workspace) => {
      checkPlanWorkspace(saved, workspace);
      options.onWorkspace?.(workspace);
      // Before the first re-read: the re-reads and the writes must fit in what is left today.
      checkRecheckBudget(saved, workspace, client.stats().dailyRemaining);
    },
    users,
    ...(options.onProgress === undefined ? {} : { onProgress: options.onProgress }),
  });
  // A target still as planned is applied, one already as the plan leaves it is skipped, any other is held.
  const holds = holdStale(saved, live);
  const { plan: left, alreadyLive } = planLeft(saved, holds);
  checkPlanRules(left, live, new Set(alreadyLive.keys()));
  // The figures shown are this run's: its re-reads and what the service says is left
  // now, not the saved plan's (the digest covers the content, not these figures).
  const requests = {
    ...left.requests,
    used: live.requests.used,
    dailyRemaining: live.requests.dailyRemaining ?? left.requests.dailyRemaining,
  };
  const held = [...holds.held.values()];
  return readyToApply(
    {
      plan: { ...left, requests },
      live,
      elapsedMs: now() - started,
      alreadyLive,
      ...(held.length === 0 ? {} : { held }),
    },
    client,
    options.maxDeletes,
    options.maxPinChanges,
  );
}
