import type { ApiUser } from '../../domain/api-types.js';
import type { NamedGroup } from '../model.js';

/**
 * The people and taxonomies of the demo workspace "Acme Sales": users in every role
 * and state, teams, user groups, labels, channels, topics and the AI fields its
 * recordings carry.
 */

/** DEMO_BASE_DATE is the fixed "today" every demo date is computed from. */
export const DEMO_BASE_DATE = Date.parse('2026-11-01T00:00:00Z');

/** DEMO_USERS: an Owner, an Admin, five Members, one Deactivated and one Invited user. */
export const DEMO_USERS: ApiUser[] = [
  user('u_olivia', 'Olivia Park', 'Owner', 'Active', 'Full', true, true),
  user('u_adam', 'Adam Reyes', 'Admin', 'Active', 'Full', true, false),
  user('u_mia', 'Mia Chen', 'Member', 'Active', 'Full', true, true),
  user('u_noah', 'Noah Patel', 'Member', 'Active', 'Full', true, false),
  user('u_lena', 'Lena Fischer', 'Member', 'Active', 'Full', false, true),
  user('u_sam', 'Sam Okafor', 'Member', 'Active', 'Lite', true, false),
  user('u_ines', 'Ines Duarte', 'Member', 'Active', 'Lite', false, false),
  user('u_tom', 'Tom Becker', 'Member', 'Deactivated', 'None', true, false),
  user('u_zoe', 'Zoe Martin', 'Member', 'Invited', 'None', false, false),
];

/** DEMO_RECORDERS are the users who record meetings (the deactivated one did, before leaving). */
export const DEMO_RECORDERS = ['u_olivia', 'u_adam', 'u_mia', 'u_noah', 'u_lena', 'u_sam', 'u_ines', 'u_tom'];

/** DEMO_TEAMS: account executives, SDRs and customer success. */
export const DEMO_TEAMS: NamedGroup[] = [
  { id: 'team_ae', name: 'Account Executives', memberIds: ['u_mia', 'u_noah', 'u_lena'] },
  { id: 'team_sdr', name: 'SDRs', memberIds: ['u_sam', 'u_ines', 'u_tom'] },
  { id: 'team_cs', name: 'Customer Success', memberIds: ['u_adam', 'u_lena'] },
];

/** DEMO_USER_GROUPS: regions and leadership. */
export const DEMO_USER_GROUPS: NamedGroup[] = [
  { id: 'ug_emea', name: 'EMEA', memberIds: ['u_lena', 'u_ines', 'u_tom', 'u_adam'] },
  { id: 'ug_na', name: 'North America', memberIds: ['u_olivia', 'u_mia', 'u_noah', 'u_sam'] },
  { id: 'ug_leadership', name: 'Leadership', memberIds: ['u_olivia', 'u_adam'] },
];

/**
 * DEMO_LABELS tag recordings, DEMO_CHANNELS group them, DEMO_TOPICS are the conversation
 * topics detected in them. Ids follow the names, and the demo recordings and views name
 * ids (`lbl_churn_risk`), so renaming one here renames an id they use.
 */
export const DEMO_LABELS = named('lbl', ['Discovery', 'Demo', 'Negotiation', 'Onboarding', 'Churn risk', 'Coaching']);
export const DEMO_CHANNELS = named('ch', ['New business', 'Renewals', 'Coaching', 'Onboarding']);
export const DEMO_TOPICS = named('top', [
  'Pricing',
  'Security',
  'Integrations',
  'Competition',
  'Timeline',
  'Procurement',
]);

/** DEMO_AI_FIELDS are the AI fields (insights) of the workspace, one per filter kind. */
export const DEMO_AI_FIELDS = {
  nextSteps: { fieldId: 'fld_next_steps', title: 'Next steps', kind: 'string' },
  budgetConfirmed: { fieldId: 'fld_budget_confirmed', title: 'Budget confirmed', kind: 'boolean' },
  decisionDate: { fieldId: 'fld_decision_date', title: 'Decision date', kind: 'date' },
  seats: { fieldId: 'fld_seats', title: 'Seats discussed', kind: 'number' },
  competitor: { fieldId: 'fld_competitor', title: 'Competitor mentioned', kind: 'select' },
} as const;

/** DEMO_COMPETITORS are the options of the "Competitor mentioned" select insight. */
export const DEMO_COMPETITORS = ['Globalink', 'Chorusly', 'Talkwise', 'None'];

/** demoUser returns a demo user by id; throws on an id the demo does not define (a bug). */
export function demoUser(id: string): ApiUser {
  const found = DEMO_USERS.find((candidate) => candidate.id === id);
  if (found === undefined) throw new Error(`no demo user ${id}`);
  return found;
}

function user(
  id: string,
  name: string,
  role: ApiUser['role'],
  state: ApiUser['state'],
  license: ApiUser['license'],
  isDesktopAppInstalled: boolean,
  isMobileAppInstalled: boolean,
): ApiUser {
  const email = `${name.toLowerCase().replace(' ', '.')}@acme.test`;
  return { id, email, name, license, role, state, isDesktopAppInstalled, isMobileAppInstalled };
}

// `{id, name}` entries whose id is the prefix and the name in snake case (`Churn risk`: `lbl_churn_risk`).
function named(prefix: string, names: string[]): { id: string; name: string }[] {
  return names.map((name) => ({ id: `${prefix}_${name.toLowerCase().replaceAll(' ', '_')}`, name }));
}
