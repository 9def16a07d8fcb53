import type { ApiView } from './api-types.js';

/**
 * isPublicSaved tells whether a view is a public saved view: not a built-in default,
 * not private. Only these are managed, pruned, exported, or created by apply.
 */
export function isPublicSaved(view: ApiView): boolean {
  return !view.isDefault && view.visibility === 'Public';
}
