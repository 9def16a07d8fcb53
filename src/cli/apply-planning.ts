import type { Desired } from '../domain/desired.js';
import { loadManifestSet } from '../flows/manifest-set.js';
import type { PlanWorkspaceOptions } from '../flows/plan-workspace.js';
import { planWorkspaceOptions, type LastApplied, type SweepMemoryRun } from '../flows/plan-options.js';
import { resolveScope as resolvePlanScope, type ResolvedScope } from '../flows/plan-scope.js';
import type { TargetSelector } from '../flows/plan-manifests.js';
import { formatProblems } from '../text/problem-lines.js';
import type { CliIo } from './io.js';
import { progressReporter } from './progress.js';
import type { ScopeOptions } from './scope-options.js';

export type { ResolvedScope };

/**
 * What `apply` (without `--plan`) hands its flow (src/flows/apply-run.ts) from the plan
 * flow's steps: the manifests loaded with their warnings on stderr, the scope flags
 * resolved, and planWorkspace's options for its flags with progress lines on stderr.
 */

/**
 * loadManifestFiles loads and validates the manifests under `paths`, answering the
 * files it read (absolute paths); warnings go to stderr (one entry per code unless
 * `showWarnings`), and any error stops here, before the service is contacted.
 */
export async function loadManifestFiles(
  paths: string[],
  io: CliIo,
  color: boolean,
  showWarnings = false,
): Promise<{ desired: Desired; files: string[] }> {
  const { desired, warnings, files } = await loadManifestSet(paths, io.cwd);
  if (warnings.length > 0) io.stderr.write(`${formatProblems(warnings, { color, showWarnings })}\n`);
  return { desired, files };
}

/** PlanHow is what the command line asks of a plan: `--target`, the scope flags resolved, `--ledger` loaded, the last applied manifests. */
interface PlanHow {
  targets?: readonly TargetSelector[];
  scoped?: ResolvedScope;
  memoryRun?: SweepMemoryRun;
  applied?: LastApplied;
}

/** planningOptions are planWorkspace's options for what the command line asks (`how`), with progress lines on stderr. */
export function planningOptions(io: CliIo, how: PlanHow = {}): PlanWorkspaceOptions {
  return planWorkspaceOptions({
    targets: how.targets,
    scoped: how.scoped,
    memory: how.memoryRun,
    applied: how.applied,
    onProgress: progressReporter(io.stderr, 'reading live state'),
  });
}

/** resolveScope resolves the scope flags before any request (src/flows/plan-scope.ts), against the run's working directory and clock. */
export function resolveScope(options: ScopeOptions, paths: readonly string[], io: CliIo): Promise<ResolvedScope> {
  return resolvePlanScope(options, paths, { cwd: io.cwd, clock: io.clock });
}
