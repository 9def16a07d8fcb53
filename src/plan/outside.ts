import type { ApiUser } from '../domain/api-types.js';
import type { Desired, DesiredView } from '../domain/desired.js';
import { automationsValue, declaresView, keyedPins, pinsValue, pruneValue, viewIdentity, viewValue } from './desired-values.js';
import type { Change } from './types.js';

/**
 * changedOutside builds the test for "changed outside viewctl since REF" (README,
 * "Scoped and budgeted plans"): a change whose target the manifests ask the same of at
 * REF and now differs live only because someone changed it in the app, so applying
 * reverts their edit. `base` is the Desired state of the manifests at REF; `users`,
 * read whenever either state has a group pin document, expands the groups.
 */
export function changedOutside(base: Desired, now: Desired, users?: readonly ApiUser[]): (change: Change) => boolean {
  const baseViews = new Map(base.views.map((view) => [viewIdentity(view), viewValue(view)]));
  const basePins = new Map(keyedPins(base, users).map((entry) => [entry.key, pinsValue(entry.pins)]));
  const nowPins = new Map(keyedPins(now, users).map((entry) => [entry.key, pinsValue(entry.pins)]));
  const sameView = (view: DesiredView | undefined): boolean => view !== undefined && baseViews.get(viewIdentity(view)) === viewValue(view);
  const samePrune = pruneValue(base) === pruneValue(now);
  const sameAutomations = automationsValue(base) === automationsValue(now);
  return (change) => {
    switch (change.action) {
      case 'create':
        return sameView(now.views.find((view) => view.domain === change.domain && view.name === change.after.name));
      case 'update':
        return sameView(now.views.find((view) => view.domain === change.domain && (view.viewId === undefined ? view.name === change.after.name : view.viewId === change.id)));
      case 'delete':
        // Undeclared at REF too, and prune asked the same: someone created it in the app.
        return samePrune && !declaresView(base, change.domain, change.name, change.id);
      case 'pin': {
        const key = change.target.slice('pins:'.length);
        const value = nowPins.get(key);
        return value !== undefined && basePins.get(key) === value;
      }
      case 'drift':
        return sameAutomations;
    }
  };
}
