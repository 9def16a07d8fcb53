import type { ApiUser } from '../domain/api-types.js';
import type { Desired } from '../domain/desired.js';
import type { ServiceClient } from '../service/types.js';
import { memberPinLists } from '../kinds/pin-members.js';
import { pinReads, readNeeds } from '../state/needs.js';
import { readLive } from '../state/read-live.js';
import type { Live } from '../state/types.js';
import { checkWorkspace, computePlan } from './diff.js';
import { PlanRefusedError } from './refusal.js';
import type { Plan } from './types.js';
import { prunesViews } from './prune.js';
import { selectTargets, type TargetSelector } from './targets-selection.js';
import { createsViews } from './views.js';

/** PlanWorkspaceOptions are the edges `planWorkspace` reports to, passed in. */
export interface PlanWorkspaceOptions {
  /** Called after each read with how many of the total are done. */
  onProgress?: (done: number, total: number) => void;
  /** `--target`: read and plan only these targets (the Workspace guard still holds). */
  targets?: readonly TargetSelector[];
  /** Milliseconds clock for `elapsedMs`; default `performance.now`. */
  now?: () => number;
}

/** WorkspacePlan is a computed plan with the live state it came from and how long it took. */
export interface WorkspacePlan {
  plan: Plan;
  live: Live;
  elapsedMs: number;
}

/**
 * planWorkspace is the one read-then-diff flow: it reads exactly the live state
 * `desired` needs (the workspace first, so a wrong `workspaceId` stops after one
 * request; users only when the plan creates views, to check `creatorEmail`, when it
 * prunes, to name each deleted view's owner and find `prune: owned`'s views, or when
 * group pin documents need them to name their members) and diffs it. The CLI, the
 * tests and the benches all plan through it.
 */
export async function planWorkspace(whole: Desired, client: ServiceClient, options: PlanWorkspaceOptions = {}): Promise<WorkspacePlan> {
  const desired = options.targets === undefined || options.targets.length === 0 ? whole : selectTargets(whole, options.targets);
  const now = options.now ?? (() => performance.now());
  const started = now();
  const live = await readLive(client, readNeeds(desired), {
    checkWorkspace: (workspace) => checkWorkspace(desired, workspace),
    wantUsers: (views) => createsViews(desired, views) || prunesViews(desired, views),
    pinsOfUsers: (users) => groupPinReads(desired, users),
    ...(options.onProgress === undefined ? {} : { onProgress: options.onProgress }),
  });
  const { plan } = computePlan(desired, live);
  return { plan, live, elapsedMs: now() - started };
}

/**
 * groupPinReads expands the pin documents with the users just read, and names one
 * pinned read per member and domain that a group gives (`userEmail` documents' lists
 * are read already); members a document cannot have (not active, or reached by two
 * groups) stop the plan before any group's pinned list is read.
 */
function groupPinReads(desired: Desired, users: readonly ApiUser[]): ReturnType<typeof pinReads> {
  const expansion = memberPinLists(desired, users);
  if (expansion.reasons.length > 0) throw new PlanRefusedError(expansion.reasons);
  return pinReads(expansion.lists.filter((list) => list.group !== undefined));
}
