import type { ApiUser, ApiView } from '../../domain/api-types.js';
import type { EmulatorData } from '../model.js';

/**
 * Access rules of views (the service's view rules 1 and 3).
 */

/**
 * isApiVisible tells whether a view is reachable through the non-pinned endpoints:
 * API requests impersonate no user, so only public views and built-in defaults are
 * (rule 1); a private view is reported as not found.
 */
export function isApiVisible(view: ApiView): boolean {
  return view.isDefault || view.visibility === 'Public';
}

/**
 * canAccess tells whether `user` can see `view` in their pinned tabs (rule 3): public
 * views and defaults for everyone, every private view for owners and admins, and
 * members only their own private views.
 */
export function canAccess(user: ApiUser, view: ApiView): boolean {
  if (isApiVisible(view)) return true;
  if (user.role === 'Owner' || user.role === 'Admin') return true;
  return view.ownerId === user.id;
}

/**
 * findActiveMember returns the active workspace member with this email (rule 5 and
 * the `userEmail` parameter); emails compare case-insensitively, as mail addresses do.
 */
export function findActiveMember(data: EmulatorData, email: string): ApiUser | undefined {
  const wanted = email.trim().toLowerCase();
  return data.users.find((user) => user.state === 'Active' && user.email.toLowerCase() === wanted);
}
