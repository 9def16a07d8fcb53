import type { ApiView } from '../../src/domain/api-types.js';
import type { DesiredPinGroup } from '../../src/domain/desired.js';
import type { Desired, Live } from '../../src/state/types.js';
import { pinsKey } from '../../src/state/types.js';
import { at, declared, DEAL_DEFAULTS, emptyDesired, emptyLive, privateView, user, view } from '../plan/fixtures.js';

/** Plans at the scale the review has to survive: a group reaching many members, hundreds of creates. */

/** memberEmail is the email of the `index`th member of a generated group. */
export function memberEmail(index: number): string {
  return `member${String(index).padStart(4, '0')}@acme.com`;
}

/**
 * groupScenario: the group "Sales team" (pins/sales.yaml, its deals list on line 4)
 * moves `members` members from "All deals · Pipeline this month" to "Pipeline this
 * month · At risk · All deals"; the first `privates` of them pin a private deal view
 * of their own first, which the group keeps first.
 */
export function groupScenario(members = 52, privates = 3): { desired: Desired; live: Live } {
  const live = emptyLive();
  const pipeline = view('dv_pipe', 'Pipeline this month');
  const risk = view('dv_risk', 'At risk');
  live.views.deals = [pipeline, risk, ...DEAL_DEFAULTS];
  live.users = [user('u_ops', 'ops@acme.com')];
  for (let index = 0; index < members; index += 1) {
    const email = memberEmail(index);
    live.users.push(user(`u_${index}`, email));
    const own: ApiView[] =
      index < privates ? [privateView(`dv_private_${index}`, `Deals of member ${index}`, `u_${index}`)] : [];
    live.pins[pinsKey('deals', email)] = [...own, ...DEAL_DEFAULTS, pipeline];
  }
  const desired = emptyDesired();
  desired.pinGroups = [salesGroup()];
  return { desired, live };
}

function salesGroup(): DesiredPinGroup {
  return {
    group: { name: 'Sales team', source: at('pins/sales.yaml') },
    users: [{ pattern: 'member*@acme.com', isGlob: true, source: at('pins/sales.yaml', 3, 10) }],
    roles: [],
    domain: 'deals',
    refs: [{ name: 'Pipeline this month' }, { name: 'At risk' }, { name: 'All deals' }],
    unpinPrivate: false,
    source: at('pins/sales.yaml', 4, 8),
    refSources: [at('pins/sales.yaml', 4, 9), at('pins/sales.yaml', 4, 30), at('pins/sales.yaml', 4, 39)],
  };
}

/** createsScenario: `count` new recording views, each with a dozen labels, all in views/recordings/. */
export function createsScenario(count = 600): { desired: Desired; live: Live } {
  const live = emptyLive();
  const desired = emptyDesired();
  for (let index = 0; index < count; index += 1) {
    const name = `Team ${String(index).padStart(4, '0')} calls`;
    desired.views.push(
      declared('recordings', name, {
        columns: [
          { type: 'Default', columnId: 'title' },
          { type: 'Default', columnId: 'duration' },
        ],
        filters: {
          labelIdIn: Array.from({ length: 12 }, (_, n) => `label_${index}_${n}`),
          sourceIn: ['Zoom', 'MsTeams'],
        },
      }),
    );
  }
  return { desired, live };
}
