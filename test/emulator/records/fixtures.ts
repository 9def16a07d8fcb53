import type { ApiView, JsonObject } from '../../../src/domain/api-types.js';
import type { EmulatorData } from '../../../src/emulator/model.js';
import type { RecordsContext } from '../../../src/emulator/records/result.js';
import type { StoredDeal, StoredRecording } from '../../../src/emulator/records/types.js';

/** NOW is the injected clock of the records tests: 2026-11-01T00:00:00Z. */
export const NOW = Date.parse('2026-11-01T00:00:00Z');
export const DAY = 24 * 60 * 60 * 1000;

/** ctx is a records context at NOW; private recordings need `fullAccess`. */
export function ctx(overrides: Partial<RecordsContext> = {}): RecordsContext {
  return {
    now: NOW,
    fullAccess: false,
    baseUrl: 'http://127.0.0.1:4010',
    mediaSecret: 'test-media-secret',
    ...overrides,
  };
}

/** daysAgo is an ISO timestamp `days` before NOW. */
export function daysAgo(days: number): string {
  return new Date(NOW - days * DAY).toISOString();
}

/** recording builds a Ready recording with analytics, overridable field by field. */
export function recording(id: string, overrides: Partial<StoredRecording> = {}): StoredRecording {
  return {
    id,
    createdAt: daysAgo(10),
    durationSeconds: 600,
    state: 'Ready',
    title: `Recording ${id}`,
    transcriptOnly: false,
    labelIds: [],
    recorderId: 'u_ann',
    recorderAttended: true,
    channelId: null,
    companyIds: [],
    dealId: null,
    topicIds: [],
    langIso2: 'en',
    source: 'Zoom',
    recordingType: 'Meeting',
    isPrivate: false,
    meeting: {
      startingAt: daysAgo(10),
      endingAt: daysAgo(10),
      participants: [{ attended: true, email: 'ann@acme.test', id: 'u_ann', name: 'Ann Lee' }],
      type: 'internal',
      conferenceUrl: 'https://acme.zoom.us/j/1',
    },
    analytics: {
      interactivityScore: 5,
      longestCustomerStorySeconds: 60,
      longestMonologueSeconds: 90,
      patienceSeconds: 1.2,
      questionsPerHour: 10,
      talkingRatio: 0.5,
    },
    insights: [],
    actionItems: [],
    keyTakeaways: [],
    outlines: [],
    crm: null,
    ...overrides,
  };
}

/** deal builds an open deal owned by Ann, overridable field by field. */
export function deal(id: string, overrides: Partial<StoredDeal> = {}): StoredDeal {
  return {
    id,
    name: `Deal ${id}`,
    status: 'Open',
    aiStatus: 'OnTrack',
    stage: 'Demo',
    pipelineId: 'pl_a',
    type: 'NewBusiness',
    ownerEmail: 'ann@acme.test',
    ownerName: 'Ann Lee',
    amount: { value: 10000, currency: 'USD' },
    openedAt: daysAgo(20),
    closedAt: null,
    companyId: null,
    contactIds: [],
    hasInteraction: true,
    lastActivityAt: daysAgo(5),
    ...overrides,
  };
}

/** view builds a public saved view of a domain with the given filters and sort. */
export function view(
  viewId: string,
  filters: JsonObject,
  sort: JsonObject[] = [],
  overrides: Partial<ApiView> = {},
): ApiView {
  return {
    viewId,
    name: viewId,
    visibility: 'Public',
    isDefault: false,
    ownerId: 'u_ann',
    columns: [],
    filters,
    sort,
    ...overrides,
  };
}

/** workspace is a tiny workspace with two users (Ann, Ben), one team and one group each, and the given records. */
export function workspace(parts: Partial<EmulatorData> = {}): EmulatorData {
  return {
    workspace: { id: 'ws_t', name: 'Test', createdAt: daysAgo(400) },
    users: [
      {
        id: 'u_ann',
        email: 'ann@acme.test',
        name: 'Ann Lee',
        license: 'Full',
        role: 'Admin',
        state: 'Active',
        isDesktopAppInstalled: true,
        isMobileAppInstalled: false,
      },
      {
        id: 'u_ben',
        email: 'ben@acme.test',
        name: 'Ben Ode',
        license: 'Full',
        role: 'Member',
        state: 'Active',
        isDesktopAppInstalled: true,
        isMobileAppInstalled: false,
      },
    ],
    teams: [
      { id: 'team_a', name: 'A', memberIds: ['u_ann'] },
      { id: 'team_b', name: 'B', memberIds: ['u_ben'] },
    ],
    userGroups: [
      { id: 'ug_a', name: 'GA', memberIds: ['u_ann'] },
      { id: 'ug_b', name: 'GB', memberIds: ['u_ben'] },
    ],
    labels: [
      { id: 'lbl_x', name: 'X' },
      { id: 'lbl_y', name: 'Y' },
    ],
    channels: [{ id: 'ch_1', name: 'One' }],
    topics: [
      { id: 'top_1', name: 'Pricing' },
      { id: 'top_2', name: 'Security' },
    ],
    views: { recordings: [], deals: [], companies: [], contacts: [] },
    pinned: { recordings: {}, deals: {}, companies: {}, contacts: {} },
    automations: [],
    recordings: [],
    deals: [],
    companies: [],
    contacts: [],
    webhooks: [],
    nextIds: {},
    ...parts,
  };
}
