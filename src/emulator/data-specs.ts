import {
  DEAL_AI_STATUSES,
  DEAL_STATUSES,
  RECORDING_SOURCES,
  RECORDING_STATES,
  USER_LICENSES,
  USER_ROLES,
  USER_STATES,
} from '../domain/domains.js';
import { isJsonObject } from '../domain/api-types.js';

/**
 * Field specs of the records an emulator data file holds: one small table per record
 * type, naming every field the emulator reads or serves with the shape it must have
 * (model.ts, domain/api-types.ts; the stored record types of records/types.ts are the
 * specs' own types). A file that passes them cannot make a handler crash on a missing
 * or mistyped field. Extra fields are allowed.
 */

/** Fail reports the first problem at a JSON path (`$.recordings[0].state`) and never returns. */
export type Fail = (path: string, message: string) => never;

/**
 * Check checks a value found at `path`, calling `fail` on the first problem. `T`, the
 * type of the values it passes, exists only for the compiler: the record types are the
 * types of their specs (records/types.ts), so the two cannot drift apart.
 */
export type Check<T = unknown> = ((value: unknown, path: string, fail: Fail) => void) & { readonly passes?: T };

/** Checked is the type of the values a check passes. */
export type Checked<C> = C extends Check<infer T> ? T : never;

const kind =
  <T>(test: (value: unknown) => value is T, message: string): Check<T> =>
  (value, path, fail) => {
    if (!test(value)) fail(path, message);
  };

export const str = kind((value) => typeof value === 'string', 'must be a string');
const num = kind((value): value is number => typeof value === 'number' && Number.isFinite(value), 'must be a number');
const bool = kind((value) => typeof value === 'boolean', 'must be a boolean');
export const anyObject = kind(isJsonObject, 'must be an object');
export const count = kind(
  (value): value is number => Number.isSafeInteger(value) && (value as number) >= 0,
  'must be an integer of 0 or more',
);

function oneOf<const A extends readonly string[]>(allowed: A): Check<A[number]> {
  const message = `must be one of ${allowed.join(', ')}`;
  return kind((value): value is A[number] => typeof value === 'string' && allowed.includes(value), message);
}

/** nullable accepts null or what `check` accepts. */
function nullable<T>(check: Check<T>): Check<T | null> {
  return (value, path, fail) => {
    if (value === null) return;
    check(value, path, (at, message) => fail(at, at === path ? `${message} or null` : message));
  };
}

function optional<T>(check: Check<T>): Check<T | undefined> {
  return (value, path, fail) => {
    if (value !== undefined) check(value, path, fail);
  };
}

export function arrayOf<T>(check: Check<T>): Check<T[]> {
  return (value, path, fail) => {
    if (!Array.isArray(value)) fail(path, 'must be an array');
    (value as unknown[]).forEach((entry, index) => {
      check(entry, `${path}[${index}]`, fail);
    });
  };
}

/** object accepts an object whose listed fields pass their checks. */
export function object<F extends Record<string, Check>>(fields: F): Check<Shape<F>> {
  return (value, path, fail) => {
    if (!isJsonObject(value)) fail(path, 'must be an object');
    const record = value as Record<string, unknown>;
    for (const [name, check] of Object.entries(fields)) check(record[name], `${path}.${name}`, fail);
  };
}

// The object type of a field table: a field whose check passes undefined is optional.
type Shape<F extends Record<string, Check>> = Flat<
  { [K in keyof F as undefined extends Checked<F[K]> ? K : never]?: Checked<F[K]> } & {
    [K in keyof F as undefined extends Checked<F[K]> ? never : K]: Checked<F[K]>;
  }
>;
type Flat<T> = { [K in keyof T]: T[K] };

const strings = arrayOf(str);
const time = str;
const optionalTime = nullable(str);

// An insight value is typed by the insight's kind; any JSON scalar or list of strings.
const insightValue = kind(
  (value): value is boolean | number | string | string[] | null =>
    value === null ||
    ['boolean', 'number', 'string'].includes(typeof value) ||
    (Array.isArray(value) && value.every((entry) => typeof entry === 'string')),
  'must be a boolean, number, string, list of strings or null',
);

const textByLanguage = arrayOf(object({ langIso2: str, text: str }));

/** USER_SPEC is an entry of `users` (ApiUser). */
export const USER_SPEC = object({
  id: str,
  email: str,
  name: str,
  license: oneOf(USER_LICENSES),
  role: oneOf(USER_ROLES),
  state: oneOf(USER_STATES),
  isDesktopAppInstalled: bool,
  isMobileAppInstalled: bool,
});

/** VIEW_SPEC is a view of any domain (ApiView); column, filter and sort contents are checked against the view shapes by data-file.ts. */
export const VIEW_SPEC = object({
  viewId: str,
  name: str,
  visibility: oneOf(['Public', 'Private']),
  icon: optional(str),
  isDefault: bool,
  ownerId: str,
  columns: arrayOf(anyObject),
  filters: anyObject,
  sort: arrayOf(anyObject),
});

/** AUTOMATION_SPEC is an entry of `automations` (ApiAdminAutomation). */
export const AUTOMATION_SPEC = object({
  adminAutomationId: str,
  name: str,
  color: str,
  disallowUserOverride: bool,
  filters: arrayOf(anyObject),
  actions: anyObject,
});

/** PARTICIPANT_SPEC is a meeting participant of a recording (StoredParticipant). */
export const PARTICIPANT_SPEC = object({ attended: bool, email: str, id: optional(str), name: str });

/** INSIGHT_SPEC is an AI field value of a recording (StoredInsight). */
export const INSIGHT_SPEC = object({
  fieldId: str,
  title: str,
  kind: oneOf(['boolean', 'date', 'number', 'select', 'string']),
  value: insightValue,
});

/** RECORDING_SPEC is an entry of `recordings` (StoredRecording). */
export const RECORDING_SPEC = object({
  id: str,
  createdAt: time,
  durationSeconds: num,
  state: oneOf(RECORDING_STATES),
  title: str,
  transcriptOnly: bool,
  labelIds: strings,
  recorderId: str,
  recorderAttended: bool,
  channelId: nullable(str),
  companyIds: strings,
  dealId: nullable(str),
  topicIds: strings,
  langIso2: str,
  source: oneOf(RECORDING_SOURCES),
  recordingType: oneOf(['Meeting', 'Clip']),
  isPrivate: bool,
  meeting: nullable(
    object({
      startingAt: time,
      endingAt: time,
      type: str,
      conferenceUrl: str,
      participants: arrayOf(PARTICIPANT_SPEC),
    }),
  ),
  analytics: nullable(
    object({
      interactivityScore: num,
      longestCustomerStorySeconds: num,
      longestMonologueSeconds: num,
      patienceSeconds: num,
      questionsPerHour: num,
      talkingRatio: num,
    }),
  ),
  insights: arrayOf(INSIGHT_SPEC),
  actionItems: arrayOf(object({ langIso2: str, items: arrayOf(object({ isChecked: bool, description: str })) })),
  keyTakeaways: textByLanguage,
  outlines: textByLanguage,
  crm: nullable(str),
});

/** DEAL_SPEC is an entry of `deals` (StoredDeal). */
export const DEAL_SPEC = object({
  id: str,
  name: str,
  status: oneOf(DEAL_STATUSES),
  aiStatus: oneOf(DEAL_AI_STATUSES),
  stage: str,
  pipelineId: str,
  type: str,
  ownerEmail: str,
  ownerName: str,
  amount: nullable(object({ value: num, currency: str })),
  openedAt: time,
  closedAt: optionalTime,
  companyId: nullable(str),
  contactIds: strings,
  hasInteraction: bool,
  lastActivityAt: optionalTime,
});

/** COMPANY_SPEC is an entry of `companies` (StoredCompany). */
export const COMPANY_SPEC = object({
  id: str,
  name: str,
  domain: str,
  contactIds: strings,
  dealIds: strings,
  hasInteraction: bool,
  lastActivityAt: optionalTime,
});

/** CONTACT_SPEC is an entry of `contacts` (StoredContact). */
export const CONTACT_SPEC = object({
  id: str,
  name: str,
  email: str,
  companyId: nullable(str),
  externalities: strings,
  lastActivityAt: optionalTime,
});

const NAMED = object({ id: str, name: str });
const GROUP = object({ id: str, name: str, memberIds: strings });

/**
 * COLLECTION_SPECS are the collections of records with unique `id`s a file may leave
 * out (absent means empty), with the spec of their entries.
 */
export const COLLECTION_SPECS: Record<string, Check> = {
  teams: GROUP,
  userGroups: GROUP,
  labels: NAMED,
  channels: NAMED,
  topics: NAMED,
  recordings: RECORDING_SPEC,
  deals: DEAL_SPEC,
  companies: COMPANY_SPEC,
  contacts: CONTACT_SPEC,
  webhooks: object({ id: str, secret: str, url: optional(str) }),
};
