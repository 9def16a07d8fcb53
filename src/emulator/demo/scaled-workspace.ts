import type { ApiUser, ApiView } from '../../domain/api-types.js';
import { DOMAINS, type Domain } from '../../domain/domains.js';
import type { EmulatorData } from '../model.js';
import { demoWorkspace } from './demo-workspace.js';
import { demoRandom, type DemoRandom } from './prng.js';

/** SCALE_SEED seeds the members added by `scaledWorkspace`, apart from the demo's own seed. */
const SCALE_SEED = 20261122;

/** MAX_SCALED_MEMBERS bounds `--members`: enough for the quota studies, small enough to start in a second. */
export const MAX_SCALED_MEMBERS = 20_000;

/**
 * The teams generated members are spread over, each with its own mail domain, so
 * group documents can reach a team with one glob (`*@sales.acme.test`).
 */
const MAIL_TEAMS = [
  { domain: 'sales.acme.test', share: 0.6 },
  { domain: 'cs.acme.test', share: 0.25 },
  { domain: 'ops.acme.test', share: 0.15 },
] as const;

/**
 * scaledWorkspace returns the demo workspace grown to `members` members in all (the
 * demo's nine included), for studies of the daily quota at company size: 2% admins,
 * about 87% active, 8% invited and 5% deactivated; every active member has custom
 * tabs in every domain, and one in ten owns a private view per domain that they pin
 * first. Deterministic: the same `members` always gives a deep-equal workspace.
 */
export function scaledWorkspace(members: number): EmulatorData {
  if (!Number.isSafeInteger(members) || members < 1 || members > MAX_SCALED_MEMBERS) {
    throw new RangeError(`members must be an integer from 1 to ${MAX_SCALED_MEMBERS}, got ${members}`);
  }
  const data = demoWorkspace();
  const random = demoRandom(SCALE_SEED);
  const added = members - data.users.length;
  for (let index = 1; index <= added; index += 1) {
    const user = generatedUser(index, random);
    data.users.push(user);
    if (user.state !== 'Active') continue;
    for (const domain of DOMAINS) {
      const tabs = customTabs(data.views[domain], random);
      if (index % 10 === 0) {
        const own = privateView(domain, user, data.views[domain]);
        data.views[domain].push(own);
        tabs.unshift(own.viewId);
      }
      data.pinned[domain][user.id] = tabs;
    }
  }
  return data;
}

function generatedUser(index: number, random: DemoRandom): ApiUser {
  const serial = String(index).padStart(5, '0');
  let draw = random.next();
  const mail = MAIL_TEAMS.find((team) => (draw -= team.share) < 0) ?? MAIL_TEAMS[0];
  const stateDraw = random.next();
  const state: ApiUser['state'] = stateDraw < 0.87 ? 'Active' : stateDraw < 0.95 ? 'Invited' : 'Deactivated';
  return {
    id: `u_member_${serial}`,
    email: `member.${serial}@${mail.domain}`,
    name: `Member ${serial}`,
    license: state === 'Active' ? random.pick(['Full', 'Lite'] as const) : 'None',
    role: index % 50 === 0 ? 'Admin' : 'Member',
    state,
    isDesktopAppInstalled: random.chance(0.7),
    isMobileAppInstalled: random.chance(0.4),
  };
}

// Two to four tabs from the public saved views and the defaults, in a random order.
function customTabs(views: readonly ApiView[], random: DemoRandom): string[] {
  const candidates = views.filter((view) => view.visibility === 'Public').map((view) => view.viewId);
  return random.shuffle(random.sample(candidates, Math.min(candidates.length, random.int(2, 4))));
}

// A private view modelled on the domain's first default view, owned by `user`.
function privateView(domain: Domain, user: ApiUser, views: readonly ApiView[]): ApiView {
  const template = views.find((view) => view.isDefault) ?? views[0];
  if (template === undefined) throw new Error(`the demo workspace has no ${domain} view to model a private view on`);
  return {
    viewId: `${template.viewId.slice(0, 2)}_private_${user.id}`,
    name: `${user.name}'s ${domain}`,
    visibility: 'Private',
    isDefault: false,
    ownerId: user.id,
    columns: structuredClone(template.columns),
    filters: {},
    sort: structuredClone(template.sort),
  };
}
