import type { ApiView } from './api-types.js';

/**
 * isPublicSaved tells whether a view is a public saved view: not a built-in default,
 * not private. Only these are managed, pruned, exported, or created by apply.
 */
export function isPublicSaved(view: ApiView): boolean {
  return !view.isDefault && view.visibility === 'Public';
}

/** compareIds orders ids shorter first, then by code point: sequential ids sort by age, so reports name the oldest copy first. */
export function compareIds(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}
