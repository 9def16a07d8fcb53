import { destroyedWhat, isDestructive } from '../plan/action-traits.js';
import { DEFAULT_MAX_DELETES } from '../domain/max-deletes.js';
import type { CreateChange, DeleteChange, Plan, ViewSnapshot } from '../plan/types.js';
import { formatCount } from '../text/plural.js';
import { safeText } from '../text/safe-text.js';
import { viewYaml } from './format.js';

/**
 * What the text and markdown plans add so a reviewer can judge a plan (README,
 * "Working alongside the app"): whether it is targeted, whether apply will refuse it
 * for its deletions, and every attribute a create sets or a delete removes. Each note
 * is plain text the renderer escapes for its format.
 */

/** targetsNote says a plan is targeted and what that leaves out; undefined for a whole plan. */
export function targetsNote(plan: Plan): string | undefined {
  if (plan.targets === undefined) return undefined;
  return `Targeted plan (--target ${plan.targets.join(', ')}): only these were read and planned; other manifests were not compared and nothing is pruned.`;
}

/**
 * maxDeletesNote says, at plan time, that apply will refuse the plan for its
 * deletions (`apply.max-deletes`, exit 3) and how to allow them; undefined when it will not.
 */
export function maxDeletesNote(plan: Plan, maxDeletes = DEFAULT_MAX_DELETES): string | undefined {
  const destroying = plan.changes.filter(isDestructive);
  const deletes = destroying.length;
  if (deletes <= maxDeletes) return undefined;
  return (
    `Apply will refuse this plan: it deletes ${formatCount(deletes)} ${destroyedWhat(destroying)}, more than --max-deletes ${formatCount(maxDeletes)} allows. ` +
    `If every deletion below is intended, apply it with --max-deletes ${deletes}.`
  );
}

/** ownerText names a deleted view's owner by email; an owner no member has any more keeps its id. */
export function ownerText(change: DeleteChange): string {
  return change.ownerEmail ?? `${change.ownerId} (not a member)`;
}

/**
 * attributeLines are the attributes a create sets (`after`) or a delete removes
 * (`before`), as block YAML lines, made safe for display. The name is left out: the
 * line above them shows it.
 */
export function attributeLines(change: CreateChange | DeleteChange): string[] {
  const view: ViewSnapshot = change.action === 'create' ? change.after : change.before;
  const { name: _name, ...attributes } = view;
  return viewYaml(attributes).trimEnd().split('\n').map(safeText);
}
