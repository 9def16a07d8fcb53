/**
 * Stored records of the emulator. They hold the public response fields of
 * the service's API plus the few facts view filters need that responses do not show
 * (topic ids, typed insight values, amounts), kept in `*Facts`-style fields that the
 * response builders leave out.
 */

/** StoredParticipant is a meeting participant; `id` is set for workspace users. */
export interface StoredParticipant {
  attended: boolean;
  email: string;
  id?: string;
  name: string;
}

/**
 * StoredInsight is one AI field (insight) value of a recording. `value` is typed so
 * the insight filters (boolean, date, exists, number, select, string) can evaluate it;
 * `null` means the insight is absent for this recording. Dates are ISO strings
 * compared as timestamps (ms).
 */
export interface StoredInsight {
  fieldId: string;
  title: string;
  kind: 'boolean' | 'date' | 'number' | 'select' | 'string';
  value: boolean | number | string | string[] | null;
}

/** StoredRecording is a recording with everything its details response and filters need. */
export interface StoredRecording {
  id: string;
  createdAt: string;
  durationSeconds: number;
  state: 'Empty' | 'Uploaded' | 'Ready' | 'Failed';
  title: string;
  transcriptOnly: boolean;
  /** Label ids (labels are `{id, name}` in `EmulatorData.labels`). */
  labelIds: string[];
  /** The recorder: a workspace user id. */
  recorderId: string;
  recorderAttended: boolean;
  channelId: string | null;
  companyIds: string[];
  dealId: string | null;
  topicIds: string[];
  langIso2: string;
  source: string;
  /** `Meeting` or `Clip` (the `recordingTypeIn` filter). */
  recordingType: 'Meeting' | 'Clip';
  /** Private recordings are listed only for keys with Full access and fire no webhook. */
  isPrivate: boolean;
  meeting: {
    startingAt: string;
    endingAt: string;
    participants: StoredParticipant[];
    type: string;
    conferenceUrl: string;
  } | null;
  analytics: {
    interactivityScore: number;
    longestCustomerStorySeconds: number;
    longestMonologueSeconds: number;
    patienceSeconds: number;
    questionsPerHour: number;
    talkingRatio: number;
  } | null;
  insights: StoredInsight[];
  actionItems: { items: { isChecked: boolean; description: string }[]; langIso2: string }[];
  keyTakeaways: { langIso2: string; text: string }[];
  outlines: { langIso2: string; text: string }[];
  crm: string | null;
}

/** StoredDeal is a CRM deal; its fields are those deal and recording filters use. */
export interface StoredDeal {
  id: string;
  name: string;
  status: 'Open' | 'Won' | 'Lost';
  aiStatus: 'Active' | 'AtRisk' | 'Lost' | 'NeedsAction' | 'OnTrack' | 'Stalled' | 'Won';
  stage: string;
  pipelineId: string;
  type: string;
  ownerEmail: string;
  ownerName: string;
  amount: { value: number; currency: string } | null;
  openedAt: string;
  closedAt: string | null;
  companyId: string | null;
  contactIds: string[];
  hasInteraction: boolean;
  lastActivityAt: string | null;
}

/** StoredCompany is a CRM company. */
export interface StoredCompany {
  id: string;
  name: string;
  domain: string;
  contactIds: string[];
  dealIds: string[];
  hasInteraction: boolean;
  lastActivityAt: string | null;
}

/** StoredContact is a CRM contact; `externalities` are free tags matched by the contact filter. */
export interface StoredContact {
  id: string;
  name: string;
  email: string;
  companyId: string | null;
  externalities: string[];
  lastActivityAt: string | null;
}
