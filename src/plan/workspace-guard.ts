import type { Desired } from '../domain/desired.js';

/**
 * guardWarnings warns when the manifests planned hold no `Workspace` document, as when
 * a single file path is planned: nothing then checks `workspaceId`, so the plan is for
 * whichever workspace the key belongs to, and prune is off. `--target` plans part of
 * a folder with the guard on.
 */
export function guardWarnings(desired: Desired): string[] {
  if (desired.workspace.source !== undefined) return [];
  return [
    'no Workspace document among the manifests planned: the workspace guard is off (no workspaceId checked, nothing pruned); plan the folder that holds it, with --target for a part',
  ];
}
