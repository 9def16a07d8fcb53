import { InternalError } from '../errors.js';
import { ADMIN_AUTOMATIONS } from './admin-automations.js';
import type { Change } from './changes.js';
import type { Kind } from './kind.js';
import { PINNED_VIEWS } from './pinned-views.js';
import { SAVED_VIEWS } from './saved-views.js';

/** KINDS are the resource kinds the engine loops over: a new kind joins here. */
export const KINDS: readonly Kind[] = [SAVED_VIEWS, PINNED_VIEWS, ADMIN_AUTOMATIONS];

/** kindOf is the kind that owns a change; every change has one. */
export function kindOf(change: Change): Kind {
  const kind = KINDS.find((candidate) => candidate.owns(change));
  if (kind === undefined) throw new InternalError(`no kind owns a ${String((change as { action: unknown }).action)} change`);
  return kind;
}
