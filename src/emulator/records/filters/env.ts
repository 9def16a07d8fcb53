import type { ApiUser } from '../../../domain/api-types.js';
import type { EmulatorData, NamedGroup } from '../../model.js';
import type { StoredCompany, StoredContact, StoredDeal, StoredRecording } from '../types.js';

/**
 * FilterEnv is what filter evaluation needs besides the record: lookups into the
 * workspace (built once per listing, not per record) and the clock that relative
 * filters count from.
 */
export interface FilterEnv {
  now: number;
  /**
   * The workspace's users, whatever their state: whom `Me` resolves to (the service's
   * view rule 7: "resolved against the whole workspace"), so a deactivated user's
   * recordings still count as a member's.
   */
  usersById: ReadonlyMap<string, ApiUser>;
  dealsById: ReadonlyMap<string, StoredDeal>;
  companiesById: ReadonlyMap<string, StoredCompany>;
  contactsById: ReadonlyMap<string, StoredContact>;
  /** Team and user-group ids of each user id. */
  teamsOf: ReadonlyMap<string, ReadonlySet<string>>;
  groupsOf: ReadonlyMap<string, ReadonlySet<string>>;
  /** Lower-cased emails of the workspace's users, for `Me` among owners and participants. */
  memberEmails: ReadonlySet<string>;
  labelNames: ReadonlyMap<string, string>;
  topicNames: ReadonlyMap<string, string>;
}

/** filterEnv indexes a workspace for filter evaluation at time `now` (ms). */
export function filterEnv(data: EmulatorData, now: number): FilterEnv {
  return {
    now,
    usersById: new Map(data.users.map((user) => [user.id, user])),
    dealsById: new Map(data.deals.map((deal) => [deal.id, deal])),
    companiesById: new Map(data.companies.map((company) => [company.id, company])),
    contactsById: new Map(data.contacts.map((contact) => [contact.id, contact])),
    teamsOf: membership(data.teams),
    groupsOf: membership(data.userGroups),
    memberEmails: new Set(data.users.map((user) => user.email.toLowerCase())),
    labelNames: new Map(data.labels.map((label) => [label.id, label.name])),
    topicNames: new Map(data.topics.map((topic) => [topic.id, topic.name])),
  };
}

/** groupIdsOf returns the groups a user belongs to, as a list (empty for no group). */
export function groupIdsOf(index: ReadonlyMap<string, ReadonlySet<string>>, userId: string | undefined): string[] {
  if (userId === undefined) return [];
  return [...(index.get(userId) ?? [])];
}

function membership(groups: NamedGroup[]): Map<string, Set<string>> {
  const index = new Map<string, Set<string>>();
  for (const group of groups) {
    for (const memberId of group.memberIds) {
      const set = index.get(memberId) ?? new Set<string>();
      set.add(group.id);
      index.set(memberId, set);
    }
  }
  return index;
}

/** dealOf is the deal a recording is linked to, if any. */
export function dealOf(recording: StoredRecording, env: FilterEnv): StoredDeal | undefined {
  return recording.dealId === null ? undefined : env.dealsById.get(recording.dealId);
}
