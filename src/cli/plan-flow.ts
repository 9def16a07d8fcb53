import type { ApiView } from '../domain/api-types.js';
import type { Domain } from '../domain/domains.js';
import { ViewctlError } from '../errors.js';
import { formatProblems } from '../manifest/format-problems.js';
import { nodeManifestSource } from '../manifest/load.js';
import { loadDesired as loadManifestsDesired } from '../manifest/load-desired.js';
import { computePlan } from '../plan/diff.js';
import type { Plan } from '../plan/types.js';
import type { ServiceClient } from '../service/types.js';
import { readNeeds } from '../state/needs.js';
import { readLive } from '../state/read-live.js';
import type { Desired, Live } from '../state/types.js';
import type { CliIo } from './io.js';
import { progressReporter } from './progress.js';

/**
 * loadDesired loads and validates the manifests under `paths` from the filesystem.
 * Warnings go to stderr; any error stops here, before the service is contacted.
 */
export async function loadDesired(paths: string[], io: CliIo, color: boolean): Promise<Desired> {
  const { desired, warnings } = await loadManifestsDesired(paths.length === 0 ? ['.'] : paths, nodeManifestSource(io.cwd));
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
    checkWorkspace: (workspace) => {
      const expected = desired.workspace.workspaceId;
      if (expected !== undefined && expected !== workspace.id) {
        const where = desired.workspace.source;
        throw new ViewctlError(
          'workspace.mismatch',
          `the manifests are for workspace ${expected}, but the key belongs to ${workspace.name} (${workspace.id})` +
            (where === undefined ? '' : ` (${where.file}:${where.line}:${where.column})`),
          { hint: 'use the key of the workspace the manifests describe, or correct workspaceId in the Workspace document' },
        );
      }
    },
    wantUsers: (views) => willCreate(desired, views),
    onProgress: progressReporter(io.stderr, 'reading live state'),
  });
  const { plan } = computePlan(desired, live);
  return { plan, live, elapsedMs: performance.now() - started };
}

/**
 * willCreate tells whether the plan will create a view, i.e. whether `creatorEmail`
 * must be checked against the users (one extra read, only then). A declared view
 * without `viewId` whose name no live view of its domain has is a create.
 */
function willCreate(desired: Desired, views: Partial<Record<Domain, ApiView[]>>): boolean {
  if (desired.workspace.creatorEmail === undefined) return false;
  return desired.views.some(
    (view) => view.viewId === undefined && !(views[view.domain] ?? []).some((live) => live.name === view.name),
  );
}
