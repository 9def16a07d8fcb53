import type { StoredDeal, StoredParticipant, StoredRecording } from '../types.js';
import { parseServiceDate } from '../../service-date.js';
import { dealOf, groupIdsOf, type FilterEnv } from './env.js';
import { matchesInsightFilter } from './insight-filters.js';
import { isMe, matchesOwnerIn, matchesOwnerNotIn } from './owner-filters.js';
import {
  dealAgeDays,
  entryList,
  inNotIn,
  matchesBetween,
  matchesDealAge,
  matchesFilters,
  matchesIn,
  matchesNumeric,
  matchesRelative,
  matchesString,
  timestamp,
  type FilterTable,
  type JsonRecord,
} from './shared-shapes.js';

const recordingInNotIn = inNotIn<StoredRecording>;

/** A person of a recording: its meeting participants plus the recorder. */
type Person = Omit<StoredParticipant, 'attended'>;

/**
 * RECORDING_FILTERS evaluates every attribute of RecordingViewFilters
 * (the service's "Recording view filters"), one entry per attribute. Attributes
 * absent from the table (internal ones the API does not expose) do not narrow.
 *
 * Linked-deal filters read the recording's deal; a recording without a deal fails
 * their include and range tests and passes their exclude tests. The people of a
 * recording are its meeting participants plus its recorder; a `User` entry matches by
 * user id, a `Contact` entry by email when given, else by name (case-insensitive).
 * `createdAfterAt` is inclusive, `createdBeforeAt` exclusive. `Me` (rule 7) in an
 * include list matches any workspace user; in an exclude list it matches nothing.
 */
export const RECORDING_FILTERS: FilterTable<StoredRecording> = {
  authorIdIn: (value, recording, env) => matchesAuthorIn(value, recording, env),
  authorIdNotIn: (value, recording) => matchesAuthorNotIn(value, recording),
  ...recordingInNotIn('companyId', (recording) => recording.companyIds),
  createdAfterAt: (value, recording) =>
    typeof value !== 'string' || withBound(recording.createdAt, value, (at, limit) => at >= limit),
  createdBeforeAt: (value, recording) =>
    typeof value !== 'string' || withBound(recording.createdAt, value, (at, limit) => at < limit),
  createdAfterRelative: (value, recording, env) =>
    matchesRelative(value, undefined, timestamp(recording.createdAt), env.now),
  createdBeforeRelative: (value, recording, env) =>
    matchesRelative(undefined, value, timestamp(recording.createdAt), env.now),
  dealAgeRange: (value, recording, env) => {
    const deal = dealOf(recording, env);
    return matchesDealAge(value, deal === undefined ? null : dealAgeDays(deal.openedAt, deal.closedAt, env.now));
  },
  ...recordingInNotIn(
    'dealAiStatus',
    ofDeal((deal) => deal.aiStatus),
  ),
  ...recordingInNotIn(
    'dealAmountCurrency',
    ofDeal((deal) => deal.amount?.currency),
  ),
  dealAmountValue: (value, recording, env) => matchesNumeric(value, dealOf(recording, env)?.amount?.value ?? null),
  dealClosedAfterRelative: (value, recording, env) =>
    matchesRelative(value, undefined, dealTime(recording, env, 'closedAt'), env.now),
  dealClosedBeforeRelative: (value, recording, env) =>
    matchesRelative(undefined, value, dealTime(recording, env, 'closedAt'), env.now),
  dealOpenedAfterRelative: (value, recording, env) =>
    matchesRelative(value, undefined, dealTime(recording, env, 'openedAt'), env.now),
  dealOpenedBeforeRelative: (value, recording, env) =>
    matchesRelative(undefined, value, dealTime(recording, env, 'openedAt'), env.now),
  ...recordingInNotIn('dealId', (recording) => (recording.dealId === null ? [] : [recording.dealId])),
  dealOwnerNameIn: (value, recording, env) => matchesOwnerIn(value, dealOf(recording, env), env, 'ownerName'),
  dealOwnerNameNotIn: (value, recording, env) => matchesOwnerNotIn(value, dealOf(recording, env), 'ownerName'),
  ...recordingInNotIn(
    'dealPipelineId',
    ofDeal((deal) => deal.pipelineId),
  ),
  ...recordingInNotIn(
    'dealStage',
    ofDeal((deal) => deal.stage),
  ),
  ...recordingInNotIn(
    'dealStatus',
    ofDeal((deal) => deal.status),
  ),
  ...recordingInNotIn(
    'dealType',
    ofDeal((deal) => deal.type),
  ),
  insights: (value, recording) => entryList(value).every((entry) => matchesInsightFilter(entry, recording.insights)),
  interactivityScore: (value, recording) => matchesNumeric(value, recording.analytics?.interactivityScore ?? null),
  ...recordingInNotIn('labelId', (recording) => recording.labelIds),
  ...recordingInNotIn('langIso2', (recording) => [recording.langIso2]),
  longestCustomerStorySeconds: (value, recording) =>
    matchesNumeric(value, recording.analytics?.longestCustomerStorySeconds ?? null),
  longestMonologueSeconds: (value, recording) =>
    matchesNumeric(value, recording.analytics?.longestMonologueSeconds ?? null),
  patienceSeconds: (value, recording) => matchesNumeric(value, recording.analytics?.patienceSeconds ?? null),
  peopleIn: (value, recording, env) => matchesPeopleIn(value, peopleOf(recording, env), env),
  peopleNotIn: (value, recording, env) => matchesPeopleNotIn(value, peopleOf(recording, env)),
  questionsPerHour: (value, recording) => matchesNumeric(value, recording.analytics?.questionsPerHour ?? null),
  ...recordingInNotIn('recordingId', (recording) => [recording.id]),
  recordingTypeIn: (value, recording) => matchesIn(value, [recording.recordingType]),
  ...recordingInNotIn('source', (recording) => [recording.source]),
  stateIn: (value, recording) => matchesIn(value, [recording.state]),
  talkingRatio: (value, recording) => matchesNumeric(value, recording.analytics?.talkingRatio ?? null),
  ...recordingInNotIn('teamId', (recording, env) => groupIdsOf(env.teamsOf, recording.recorderId)),
  title: (value, recording) => matchesString(value, recording.title),
  ...recordingInNotIn('topicId', (recording) => recording.topicIds),
  ...recordingInNotIn('userGroup', (recording, env) => groupIdsOf(env.groupsOf, recording.recorderId)),
  videoDurationSecBetween: (value, recording) => matchesBetween(value, recording.durationSeconds),
};

/**
 * matchesRecordingFilters tells whether a recording passes every set attribute of a
 * RecordingViewFilters object.
 */
export function matchesRecordingFilters(filters: JsonRecord, recording: StoredRecording, env: FilterEnv): boolean {
  return matchesFilters(RECORDING_FILTERS, filters, recording, env);
}

// Views are checked on write and data files on load, so a stored bound is a service
// date; were one not, it would match nothing rather than be ignored, which would list
// every recording.
function withBound(createdAt: string, bound: string, test: (at: number, limit: number) => boolean): boolean {
  const at = timestamp(createdAt);
  const limit = parseServiceDate(bound);
  return limit !== null && at !== null && test(at, limit);
}

// The values of a linked-deal list filter: none for a recording without a deal.
function ofDeal(
  read: (deal: StoredDeal) => string | undefined,
): (recording: StoredRecording, env: FilterEnv) => string[] {
  return (recording, env) => {
    const deal = dealOf(recording, env);
    const value = deal === undefined ? undefined : read(deal);
    return value === undefined ? [] : [value];
  };
}

function dealTime(recording: StoredRecording, env: FilterEnv, key: 'openedAt' | 'closedAt'): number | null {
  return timestamp(dealOf(recording, env)?.[key]);
}

function matchesAuthorIn(value: unknown, recording: StoredRecording, env: FilterEnv): boolean {
  const entries = entryList(value);
  if (entries.length === 0) return true;
  return entries.some((entry) =>
    isMe(entry)
      ? env.usersById.has(recording.recorderId)
      : entry.type === 'User' && entry.userId === recording.recorderId,
  );
}

function matchesAuthorNotIn(value: unknown, recording: StoredRecording): boolean {
  const entries = entryList(value);
  // Rule 7: excluding `Me` excludes every workspace member, hence everything.
  if (entries.some(isMe)) return false;
  return !entries.some((entry) => entry.type === 'User' && entry.userId === recording.recorderId);
}

function peopleOf(recording: StoredRecording, env: FilterEnv): Person[] {
  const people: Person[] = [...(recording.meeting?.participants ?? [])];
  const recorder = env.usersById.get(recording.recorderId);
  if (!people.some((person) => person.id === recording.recorderId)) {
    people.push({ id: recording.recorderId, email: recorder?.email ?? '', name: recorder?.name ?? '' });
  }
  return people;
}

function personMatches(entry: JsonRecord, person: Person): boolean {
  if (entry.type === 'User') return typeof entry.userId === 'string' && person.id === entry.userId;
  if (entry.type === 'Contact') {
    if (typeof entry.email === 'string' && entry.email !== '')
      return person.email.toLowerCase() === entry.email.toLowerCase();
    return typeof entry.name === 'string' && person.name.toLowerCase() === entry.name.toLowerCase();
  }
  return false;
}

function matchesPeopleIn(value: unknown, people: Person[], env: FilterEnv): boolean {
  const entries = entryList(value);
  if (entries.length === 0) return true;
  return entries.some((entry) =>
    isMe(entry)
      ? people.some(
          (person) =>
            (person.id !== undefined && env.usersById.has(person.id)) ||
            env.memberEmails.has(person.email.toLowerCase()),
        )
      : people.some((person) => personMatches(entry, person)),
  );
}

function matchesPeopleNotIn(value: unknown, people: Person[]): boolean {
  const entries = entryList(value);
  if (entries.some(isMe)) return false;
  return !entries.some((entry) => people.some((person) => personMatches(entry, person)));
}
