import { ownValue } from '../own.js';
import type { StoredCompany, StoredContact, StoredDeal, StoredRecording } from './types.js';
import { dealOf, type FilterEnv } from './filters/env.js';
import { dealAgeDays, timestamp, type JsonRecord } from './filters/shared-shapes.js';
import { isJsonObject } from '../../domain/api-types.js';

/** SortKey is one comparable value of a record; null sorts last in both orders. */
type SortKey = string | number | null;

/** SortDimension is a view sort entry: `{field, order, insight?: {fieldId}}`. */
export interface SortDimension {
  field: string;
  order: 'Asc' | 'Desc';
  insight?: { fieldId: string };
}

type KeyReader<T> = (record: T, env: FilterEnv, dimension: SortDimension) => SortKey;

/**
 * sortRecords returns the records ordered by the dimensions, in turn, then by id
 * ascending so every order is total and pages never overlap. Missing values sort
 * last whatever the order (as "nulls last" in the application's tables). A field the
 * domain has no data for (e.g. `Manual`) compares equal, leaving the id order.
 */
export function sortRecords<T extends { id: string }>(
  records: readonly T[],
  dimensions: readonly SortDimension[],
  readers: Record<string, KeyReader<T>>,
  env: FilterEnv,
): T[] {
  const decorated = records.map((record) => ({
    record,
    keys: dimensions.map((dimension) => ownValue(readers, dimension.field)?.(record, env, dimension) ?? null),
  }));
  decorated.sort((a, b) => {
    for (const [index, dimension] of dimensions.entries()) {
      const order = compareKeys(a.keys[index] ?? null, b.keys[index] ?? null, dimension.order);
      if (order !== 0) return order;
    }
    return a.record.id < b.record.id ? -1 : a.record.id > b.record.id ? 1 : 0;
  });
  return decorated.map((entry) => entry.record);
}

/** sortDimensions reads a view's stored `sort` array, dropping malformed entries. */
export function sortDimensions(sort: readonly unknown[]): SortDimension[] {
  return sort.filter(isJsonObject).flatMap((entry: JsonRecord): SortDimension[] => {
    if (typeof entry.field !== 'string') return [];
    const order = entry.order === 'Desc' ? 'Desc' : 'Asc';
    const fieldId =
      isJsonObject(entry.insight) && typeof entry.insight.fieldId === 'string' ? entry.insight.fieldId : undefined;
    return [
      fieldId === undefined ? { field: entry.field, order } : { field: entry.field, order, insight: { fieldId } },
    ];
  });
}

function compareKeys(a: SortKey, b: SortKey, order: 'Asc' | 'Desc'): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
  let result: number;
  if (typeof a === 'number' && typeof b === 'number') result = a - b;
  else result = String(a).localeCompare(String(b), 'en', { sensitivity: 'base' });
  return order === 'Desc' ? -result : result;
}

function firstName(ids: readonly string[], nameOf: (id: string) => string | undefined): SortKey {
  const sorted = ids.map((id) => nameOf(id) ?? id).sort((a, b) => a.localeCompare(b, 'en'));
  return sorted[0] ?? null;
}

function insightKey(recording: StoredRecording, dimension: SortDimension): SortKey {
  const insight = recording.insights.find((candidate) => candidate.fieldId === dimension.insight?.fieldId);
  const value = insight?.value ?? null;
  if (value === null) return null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (insight?.kind === 'date' && typeof value === 'string') return timestamp(value);
  return Array.isArray(value) ? value.join(', ') : value;
}

/**
 * DEAL_SORT maps deal sort fields. Only `AmountCurrency` is shown in the spec; the rest
 * follow the recording enum's `Deal*` fields without the prefix (`Title`, `Stage`,
 * `AmountValue`, ...) plus `Name`, `AiStatus`, `Pipeline` and `Company`.
 */
export const DEAL_SORT: Record<string, KeyReader<StoredDeal>> = {
  Age: (deal, env) => dealAgeDays(deal.openedAt, deal.closedAt, env.now),
  AiStatus: (deal) => deal.aiStatus,
  Amount: (deal) => deal.amount?.value ?? null,
  AmountCurrency: (deal) => deal.amount?.currency ?? null,
  AmountValue: (deal) => deal.amount?.value ?? null,
  ClosedAt: (deal) => timestamp(deal.closedAt),
  Company: (deal, env) => (deal.companyId === null ? null : (env.companiesById.get(deal.companyId)?.name ?? null)),
  LastActivityAt: (deal) => timestamp(deal.lastActivityAt),
  Name: (deal) => deal.name,
  OpenedAt: (deal) => timestamp(deal.openedAt),
  OwnerName: (deal) => deal.ownerName,
  Pipeline: (deal) => deal.pipelineId,
  Stage: (deal) => deal.stage,
  Status: (deal) => deal.status,
  Title: (deal) => deal.name,
  Type: (deal) => deal.type,
};

// The `Deal<field>` sort fields of recordings: DEAL_SORT's `<field>` of the linked deal.
function ofLinkedDeal(fields: readonly string[]): Record<string, KeyReader<StoredRecording>> {
  const viaDeal = (field: string): KeyReader<StoredRecording> => {
    // Checked when the module loads, so a misspelt field fails every run instead of sorting on nothing.
    const read = ownValue(DEAL_SORT, field);
    if (read === undefined) throw new Error(`DEAL_SORT has no field ${field}`);
    return (recording, env, dimension) => {
      const deal = dealOf(recording, env);
      return deal === undefined ? null : read(deal, env, dimension);
    };
  };
  return Object.fromEntries(fields.map((field) => [`Deal${field}`, viaDeal(field)]));
}

/**
 * RECORDING_SORT maps the recording sort fields that have data in the emulator to a
 * key. Deal fields are the deal sort fields of the linked deal (`DealStage` is its
 * `Stage`, missing without a deal); `Company`, `Label` and `Topic` use the first
 * name in alphabetical order; `People` counts the meeting participants; `Insight` reads
 * the value of `insight.fieldId`.
 */
export const RECORDING_SORT: Record<string, KeyReader<StoredRecording>> = {
  Author: (recording, env) => env.usersById.get(recording.recorderId)?.name ?? null,
  Company: (recording, env) => firstName(recording.companyIds, (id) => env.companiesById.get(id)?.name),
  CreatedAt: (recording) => timestamp(recording.createdAt),
  ...ofLinkedDeal([
    'Age',
    'Amount',
    'AmountCurrency',
    'AmountValue',
    'ClosedAt',
    'OpenedAt',
    'OwnerName',
    'Stage',
    'Status',
    'Title',
    'Type',
  ]),
  Insight: (recording, _env, dimension) => insightKey(recording, dimension),
  InteractivityScore: (recording) => recording.analytics?.interactivityScore ?? null,
  Label: (recording, env) => firstName(recording.labelIds, (id) => env.labelNames.get(id)),
  LastActivityAt: (recording, env) => timestamp(dealOf(recording, env)?.lastActivityAt ?? recording.createdAt),
  LongestCustomerStory: (recording) => recording.analytics?.longestCustomerStorySeconds ?? null,
  LongestMonologue: (recording) => recording.analytics?.longestMonologueSeconds ?? null,
  Patience: (recording) => recording.analytics?.patienceSeconds ?? null,
  People: (recording) => recording.meeting?.participants.length ?? null,
  QuestionsPerHour: (recording) => recording.analytics?.questionsPerHour ?? null,
  TalkingRatio: (recording) => recording.analytics?.talkingRatio ?? null,
  Title: (recording) => recording.title,
  Topic: (recording, env) => firstName(recording.topicIds, (id) => env.topicNames.get(id)),
  VideoDurationSec: (recording) => recording.durationSeconds,
};

/**
 * COMPANY_SORT maps company sort fields; `ContactName` (seen in the spec) is the first
 * contact name in alphabetical order.
 */
export const COMPANY_SORT: Record<string, KeyReader<StoredCompany>> = {
  ContactName: (company, env) => firstName(company.contactIds, (id) => env.contactsById.get(id)?.name),
  Domain: (company) => company.domain,
  LastActivityAt: (company) => timestamp(company.lastActivityAt),
  Name: (company) => company.name,
};

/** CONTACT_SORT maps contact sort fields (`Name` is seen in the spec). */
export const CONTACT_SORT: Record<string, KeyReader<StoredContact>> = {
  Company: (contact, env) =>
    contact.companyId === null ? null : (env.companiesById.get(contact.companyId)?.name ?? null),
  Email: (contact) => contact.email,
  LastActivityAt: (contact) => timestamp(contact.lastActivityAt),
  Name: (contact) => contact.name,
};
