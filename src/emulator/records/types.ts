import type {
  Checked,
  COMPANY_SPEC,
  CONTACT_SPEC,
  DEAL_SPEC,
  INSIGHT_SPEC,
  PARTICIPANT_SPEC,
  RECORDING_SPEC,
} from '../data-specs.js';

/**
 * Stored records of the emulator, as the specs a data file is checked against
 * (data-specs.ts) define them. They hold the public response fields of the service's
 * API plus the few facts view filters need that responses do not show (topic ids,
 * typed insight values, amounts), which the response builders leave out.
 */

/** StoredParticipant is a meeting participant; `id` is set for workspace users. */
export type StoredParticipant = Checked<typeof PARTICIPANT_SPEC>;

/**
 * StoredInsight is one AI field (insight) value of a recording. `value` is typed so
 * the insight filters (boolean, date, exists, number, select, string) can evaluate it;
 * `null` means the insight is absent for this recording. Dates are ISO strings
 * compared as timestamps (ms).
 */
export type StoredInsight = Checked<typeof INSIGHT_SPEC>;

/**
 * StoredRecording is a recording with everything its details response and filters
 * need. `labelIds` name entries of `EmulatorData.labels`, `recorderId` a workspace
 * user; `recordingType` is what the `recordingTypeIn` filter reads; private recordings
 * are listed only for keys with Full access and fire no webhook.
 */
export type StoredRecording = Checked<typeof RECORDING_SPEC>;

/** StoredDeal is a CRM deal; its fields are those deal and recording filters use. */
export type StoredDeal = Checked<typeof DEAL_SPEC>;

/** StoredCompany is a CRM company. */
export type StoredCompany = Checked<typeof COMPANY_SPEC>;

/** StoredContact is a CRM contact; `externalities` are free tags matched by the contact filter. */
export type StoredContact = Checked<typeof CONTACT_SPEC>;
