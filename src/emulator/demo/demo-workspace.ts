import type { ApiAdminAutomation } from '../../domain/api-types.js';
import type { EmulatorData } from '../model.js';
import type { StoredRecording } from '../records/types.js';
import { demoCrm, type DemoCrm } from './crm.js';
import { DEMO_PINNED, demoCompanyViews, demoContactViews, demoDealViews } from './crm-views.js';
import { DEMO_CHANNELS, DEMO_LABELS, DEMO_TEAMS, DEMO_TOPICS, DEMO_USER_GROUPS, DEMO_USERS } from './people.js';
import { demoRandom } from './prng.js';
import { demoRecordingViews } from './recording-views.js';
import { demoRecordings } from './recordings.js';

/** DEMO_SEED seeds the demo generator; changing it changes every generated record. */
const DEMO_SEED = 20261101;

/**
 * DEMO_AUTOMATIONS are the workspace's admin automations, highest priority first, in
 * the shape of the service's "Admin automation".
 */
const DEMO_AUTOMATIONS: ApiAdminAutomation[] = [
  {
    adminAutomationId: 'aa_record_external',
    name: 'Record external meetings',
    color: 'blue',
    disallowUserOverride: true,
    filters: [{ type: 'MeetingType', meetingType: 'Internal', combineWith: 'And', not: true }],
    actions: {
      autoRecord: { onlyHosted: false, toBeRecorded: true },
      autoShare: {
        autoShare: 'AllParticipants',
        publicLayout: 'None',
        publicLinkEnabled: false,
        publish: 'InviteOnly',
      },
    },
  },
  {
    adminAutomationId: 'aa_file_internal',
    name: 'File internal meetings',
    color: 'green',
    disallowUserOverride: false,
    filters: [{ type: 'MeetingType', meetingType: 'Internal', combineWith: 'And', not: false }],
    actions: {
      moveToFolder: { folderId: 'folder_internal' },
      updateOverview: { sectionIds: ['sec_summary', 'sec_action_items'] },
    },
  },
];

/**
 * demoWorkspace returns the demo workspace "Acme Sales" (`ws_acme`, emails
 * `@acme.test`) that `viewctl emulator` and `--emulator` serve by default. It is fully
 * deterministic: a seeded generator and the fixed base date 2026-11-01T00:00:00Z,
 * never the clock, so two calls are deep-equal.
 *
 * - Users: Olivia Park (Owner), Adam Reyes (Admin, the `creatorEmail` of
 *   examples/), five active Members, Tom Becker (Deactivated) and Zoe Martin
 *   (Invited); three teams and three user groups.
 * - Views per domain: two or three built-in defaults, three to six public saved
 *   views, one private view pinned by its member owner; Adam, Olivia and the private
 *   views' owners have custom tabs.
 * - Records: 64 recordings over the twelve sources and four states (three private),
 *   14 companies, 35+ contacts, 24 deals in three pipelines and currencies.
 * - Two admin automations and one webhook (`wh_crm_sync`).
 */
export function demoWorkspace(): EmulatorData {
  const random = demoRandom(DEMO_SEED);
  const crm = demoCrm(random);
  const recordings = demoRecordings(random, crm);
  recordInteractions(crm, recordings);
  return {
    workspace: { id: 'ws_acme', name: 'Acme Sales', createdAt: '2025-03-14T09:30:00.000Z' },
    users: structuredClone(DEMO_USERS),
    teams: structuredClone(DEMO_TEAMS),
    userGroups: structuredClone(DEMO_USER_GROUPS),
    labels: structuredClone(DEMO_LABELS),
    channels: structuredClone(DEMO_CHANNELS),
    topics: structuredClone(DEMO_TOPICS),
    views: {
      recordings: demoRecordingViews(),
      deals: demoDealViews(),
      companies: demoCompanyViews(),
      contacts: demoContactViews(),
    },
    pinned: structuredClone(DEMO_PINNED),
    automations: structuredClone(DEMO_AUTOMATIONS),
    recordings,
    deals: crm.deals,
    companies: crm.companies,
    contacts: crm.contacts,
    webhooks: [{ id: 'wh_crm_sync', secret: 'whsec_acme_demo_crm_sync' }],
    nextIds: {},
  };
}

/**
 * recordInteractions derives the CRM interaction facts from the recordings: a deal or
 * company has an interaction when a recording links it, and its last activity is the
 * newest such recording; a contact's last activity is the newest meeting they joined.
 */
function recordInteractions(crm: DemoCrm, recordings: StoredRecording[]): void {
  const latest = new Map<string, string>();
  const touch = (id: string, at: string): void => {
    const current = latest.get(id);
    if (current === undefined || current < at) latest.set(id, at);
  };
  for (const recording of recordings) {
    if (recording.dealId !== null) touch(recording.dealId, recording.createdAt);
    for (const companyId of recording.companyIds) touch(companyId, recording.createdAt);
    for (const participant of recording.meeting?.participants ?? []) {
      const contact = crm.contacts.find((candidate) => candidate.email === participant.email);
      if (contact !== undefined) touch(contact.id, recording.createdAt);
    }
  }
  for (const record of [...crm.deals, ...crm.companies]) {
    record.lastActivityAt = latest.get(record.id) ?? null;
    record.hasInteraction = record.lastActivityAt !== null;
  }
  for (const contact of crm.contacts) contact.lastActivityAt = latest.get(contact.id) ?? null;
}
