import { APP_OWNABLE } from '../domain/app-owns.js';
import type { Desired } from '../domain/desired.js';
import type { Plan } from './types.js';

/**
 * appOwnsSummary is what the plan says, once, of the attributes the manifests leave to
 * the app (`appOwns`): each attribute with how many declared views leave it, in the
 * schemas' order; nothing when no view leaves any. Per view it would be the same line
 * a thousand times.
 */
export function appOwnsSummary(desired: Pick<Desired, 'views'>): Pick<Plan, 'appOwns'> {
  const counts = APP_OWNABLE.flatMap((attribute) => {
    const views = desired.views.filter((view) => view.appOwns?.includes(attribute) === true).length;
    return views === 0 ? [] : [{ attribute, views }];
  });
  return counts.length === 0 ? {} : { appOwns: counts };
}
