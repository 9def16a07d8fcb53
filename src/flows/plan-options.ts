import type { ApiWorkspace } from '../domain/api-types.js';
import type { AppliedManifests } from '../plan/drift-origins.js';
import type { TargetSelector } from '../plan/targets-selection.js';
import type { PlanWarning } from '../plan/types.js';
import type { SweepMemory } from '../state/sweep-memory.js';
import type { PlanWorkspaceOptions } from './plan-workspace.js';
import type { ResolvedScope } from './plan-scope.js';

// `--target` is parsed by the plan's own rule, once, where the command line is read.
export { parseTargetSelector } from '../plan/targets-selection.js';
export type { TargetSelector };

/**
 * SweepMemoryRun is what a plan uses of one run's sweep memory (`--ledger FILE`): the
 * memory as loaded, the check that it is the key's workspace's, and what the run read.
 * Loading and saving the file is the caller's (its file handling).
 */
export interface SweepMemoryRun {
  readonly memory: SweepMemory;
  checkWorkspace(workspace: Pick<ApiWorkspace, 'id' | 'name'>): void;
}

/** LastApplied is what was found of the memory's last applied commit (a plan without `--base`), and why it could not be loaded. */
export interface LastApplied {
  applied?: AppliedManifests;
  warnings: PlanWarning[];
}

/** PlanHow is what a plan is asked for: the targets, the scope resolved, the sweep memory, the last applied manifests, and where progress goes. */
export interface PlanHow {
  targets?: readonly TargetSelector[];
  scoped?: ResolvedScope;
  memory?: SweepMemoryRun;
  applied?: LastApplied;
  onProgress?: (done: number, total: number) => void;
  /** Said before reads the plan adds on request (`--pinned-by`'s cost). */
  onNotice?: ((text: string) => void) | undefined;
}

/** planWorkspaceOptions are planWorkspace's options for what a plan is asked for (`how`). */
export function planWorkspaceOptions(how: PlanHow = {}): PlanWorkspaceOptions {
  const { memory } = how;
  return {
    ...(how.onProgress === undefined ? {} : { onProgress: how.onProgress }),
    targets: how.targets,
    ...(how.onNotice === undefined ? {} : { onNotice: how.onNotice }),
    // The scope request, the clock of its UTC day and its warnings, under planWorkspace's names.
    ...how.scoped,
    // The sweep memory is advice for the plan, used once the workspace's answer shows it is this workspace's.
    ...(memory === undefined
      ? {}
      : { memory: memory.memory, onWorkspace: (workspace) => memory.checkWorkspace(workspace) }),
    // The last applied manifests origins are labelled against (a plan without --base), and why they could not be loaded.
    ...(how.applied?.applied === undefined ? {} : { applied: how.applied.applied }),
    ...(how.applied === undefined || how.applied.warnings.length === 0
      ? {}
      : { warnings: [...(how.scoped?.warnings ?? []), ...how.applied.warnings] }),
  };
}
