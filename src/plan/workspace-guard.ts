import type { Desired } from '../domain/desired.js';
import type { PlanWarning } from './types.js';

/**
 * guardWarnings warns when the manifests planned hold no `Workspace` document, as when
 * a single file path is planned: nothing then checks `workspaceId`, so the plan is for
 * whichever workspace the key belongs to, and prune is off. `--target` plans part of
 * a folder with the guard on.
 */
export function guardWarnings(desired: Desired): PlanWarning[] {
  if (desired.workspace.source !== undefined) return [];
  return [
    {
      code: 'workspace.guard-off',
      message:
        'no Workspace document among the manifests planned: the workspace guard is off (no workspaceId checked, nothing pruned); plan the folder that holds it, with --target for a part',
    },
  ];
}
