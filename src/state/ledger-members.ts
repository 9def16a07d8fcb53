import type { ApiUser } from '../domain/api-types.js';
import type { SweepMemory } from './sweep-memory.js';

/**
 * usersLastSeen is the members the sweep memory last saw, as users: what group
 * documents expand with (`memberPinLists`) and what tells a member who joined or changed
 * role from tabs changed in the app (`changeOrigins`). The memory keeps only each
 * member's email (lower-cased), role and state, which is all those read: `id` and `name`
 * are empty, `license` is `None` and the app flags false, and nothing may read them.
 * Sorted by email, so equal memories give equal lists.
 */
export function usersLastSeen(memory: SweepMemory): ApiUser[] {
  return Object.entries(memory.members)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([email, member]) => ({
      id: '',
      email,
      name: '',
      license: 'None',
      role: member.role,
      state: member.state,
      isDesktopAppInstalled: false,
      isMobileAppInstalled: false,
    }));
}
