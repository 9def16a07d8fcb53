import { formatProblems } from '../manifest/format-problems.js';
import { nodeManifestSource } from '../manifest/load.js';
import { loadDesired } from '../manifest/load-desired.js';
import { checkWorkspace, computePlan } from '../plan/diff.js';
import { createsViews } from '../plan/views.js';
import type { Plan } from '../plan/types.js';
import type { ServiceClient } from '../service/types.js';
import { readNeeds } from '../state/needs.js';
import { readLive } from '../state/read-live.js';
import type { Desired, Live } from '../state/types.js';
import type { CliIo } from './io.js';
import { progressReporter } from './progress.js';

/**
 * loadManifestFiles loads and validates the manifests under `paths` from the
 * filesystem. Warnings go to stderr; any error stops here, before the service is
 * contacted.
 */
export async function loadManifestFiles(paths: string[], io: CliIo, color: boolean): Promise<Desired> {
  const { desired, warnings } = await loadDesired(paths.length === 0 ? ['.'] : paths, nodeManifestSource(io.cwd));
  if (warnings.length > 0) io.stderr.write(`${formatProblems(warnings, { color })}\n`);
  return desired;
}

/** PlanRun is a computed plan with the live state it came from and how long reading took. */
export interface PlanRun {
  plan: Plan;
  live: Live;
  elapsedMs: number;
}

/**
 * planAgainst reads exactly the live state `desired` needs and diffs it. A wrong
 * `workspaceId` stops after the first request, before anything else is read.
 */
export async function planAgainst(desired: Desired, client: ServiceClient, io: CliIo): Promise<PlanRun> {
  const started = performance.now();
  const live = await readLive(client, readNeeds(desired), {
    checkWorkspace: (workspace) => checkWorkspace(desired, workspace),
    wantUsers: (views) => createsViews(desired, views),
    onProgress: progressReporter(io.stderr, 'reading live state'),
  });
  const { plan } = computePlan(desired, live);
  return { plan, live, elapsedMs: performance.now() - started };
}
