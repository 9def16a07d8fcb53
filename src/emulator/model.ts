import type { ApiAdminAutomation, ApiUser, ApiView } from '../domain/api-types.js';
import type { Domain } from '../domain/domains.js';
import type { StoredCompany, StoredContact, StoredDeal, StoredRecording } from './records/types.js';

/**
 * EmulatorData is a whole workspace as the emulator serves it: the JSON of `--data`
 * and of the `--state` file. Nothing in the emulator is specific to the demo data;
 * any value of this type is a workspace it can serve.
 */
export interface EmulatorData {
  workspace: { id: string; name: string; createdAt: string };
  users: ApiUser[];
  /** Teams and user groups (the `teamIdIn` / `userGroupIn` filters match the owner's membership). */
  teams: NamedGroup[];
  userGroups: NamedGroup[];
  labels: { id: string; name: string }[];
  channels: { id: string; name: string }[];
  topics: { id: string; name: string }[];
  /**
   * Every view of each domain, private and built-in defaults included, in creation
   * order. Listings show public saved views, then defaults.
   */
  views: Record<Domain, ApiView[]>;
  /**
   * Pinned lists of the users who changed their tabs, by domain then user id, in tab
   * order. A user absent here gets the domain's built-in default views.
   */
  pinned: Record<Domain, Record<string, string[]>>;
  /** Highest priority first. */
  automations: ApiAdminAutomation[];
  recordings: StoredRecording[];
  deals: StoredDeal[];
  companies: StoredCompany[];
  contacts: StoredContact[];
  /** Webhooks the trigger endpoint knows; deliveries go to `url` (or `--webhook-url`). */
  webhooks: { id: string; secret: string; url?: string }[];
  /** Counters for ids the emulator assigns, so ids stay unique across restarts. */
  nextIds: Record<string, number>;
}

/** NamedGroup is a team or a user group. */
export interface NamedGroup {
  id: string;
  name: string;
  memberIds: string[];
}

/** GLOBAL_OWNER is the `ownerId` of built-in default views. */
export const GLOBAL_OWNER = '#global';
