import { makeProblem } from './problems.js';
import type { ManifestDocument, Problem } from './types.js';

/**
 * pruneOwnedProblems reports a Workspace document that says `prune: owned` without a
 * `creatorEmail`: "owned" means owned by that account, so without it the plan could
 * not tell viewctl's views from the views people make in the app.
 */
export function pruneOwnedProblems(workspace: ManifestDocument): Problem[] {
  if (workspace.body.prune !== 'owned' || typeof workspace.body.creatorEmail === 'string') return [];
  return [
    makeProblem({
      code: 'workspace.prune-owned-no-creator',
      message: '`prune: owned` deletes only views owned by `creatorEmail`, and this Workspace document names none',
      pointer: '/prune',
      at: workspace.positionOf('/prune'),
      document: workspace.index,
      hint: 'set `creatorEmail` to the account viewctl creates views with, or use `prune: true` to prune every undeclared view',
    }),
  ];
}
