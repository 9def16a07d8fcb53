import { DEFAULT_MAX_PIN_CHANGES } from '../domain/max-pin-changes.js';
import { pinRewrites } from '../plan/pin-rewrites.js';
import type { Plan } from '../plan/types.js';
import { formatCount, plural } from '../text/plural.js';

/**
 * What the text and markdown plans say about sharing the workspace with its people
 * (README, "Living with an organisation"): the attributes left to the app, once for the
 * whole plan, and that apply will refuse a plan rewriting too many pinned lists. Plain
 * text the renderer escapes for its format.
 */

/** appOwnsNote names the attributes the manifests leave to the app, with how many views leave each; undefined when none. */
export function appOwnsNote(plan: Pick<Plan, 'appOwns'>): string | undefined {
  if (plan.appOwns === undefined || plan.appOwns.length === 0) return undefined;
  const each = plan.appOwns.map(({ attribute, views }) => `${attribute} of ${plural(views, 'view')}`);
  return `Left to the app (appOwns): ${each.join(', ')}; never compared, repaired or pulled.`;
}

/**
 * maxPinChangesNote says, at plan time, that apply will refuse the plan for the pinned
 * lists it rewrites (`apply.max-pin-changes`, exit 3) and how to allow them; undefined
 * when it will not.
 */
export function maxPinChangesNote(
  plan: Pick<Plan, 'changes' | 'steps'>,
  maxPinChanges = DEFAULT_MAX_PIN_CHANGES,
): string | undefined {
  const lists = pinRewrites(plan).length;
  if (lists <= maxPinChanges) return undefined;
  return (
    `Apply will refuse this plan: it rewrites ${formatCount(lists)} members' pinned lists, more than --max-pin-changes ${formatCount(maxPinChanges)} allows. ` +
    `If every list below is intended (not a glob that reaches too many members), apply it with --max-pin-changes ${lists}.`
  );
}
