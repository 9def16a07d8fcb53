import { RECORDING_SOURCES } from '../../domain/domains.js';
import type { FilterEnv } from './filters/env.js';
import { timestamp } from './filters/shared-shapes.js';
import { ownValue } from '../own.js';
import type { EndpointResult } from './result.js';
import { validationError } from '../route-result.js';
import { parseServiceDate, SERVICE_DATE_FORMS } from '../service-date.js';
import type { SortDimension } from './sort.js';
import type { StoredRecording } from './types.js';

/**
 * RECORDING_SORT_PARAMS maps the `sort` query values of `GET /v1/recordings`
 * (the service's "Records") to sort dimensions; without one, list.ts applies DEFAULT_SORT.
 */
const RECORDING_SORT_PARAMS: Record<string, SortDimension[]> = {
  created_asc: [{ field: 'CreatedAt', order: 'Asc' }],
  created_desc: [{ field: 'CreatedAt', order: 'Desc' }],
  duration_asc: [{ field: 'VideoDurationSec', order: 'Asc' }],
  duration_desc: [{ field: 'VideoDurationSec', order: 'Desc' }],
  title_asc: [{ field: 'Title', order: 'Asc' }],
  title_desc: [{ field: 'Title', order: 'Desc' }],
};

/** RecordingQuery is the parsed narrowing part of a recording listing query. */
interface RecordingQuery {
  /** Every narrowing parameter, intersected with the view's filters by the caller. */
  matches: (recording: StoredRecording, env: FilterEnv) => boolean;
  /** The `sort` parameter's order, which overrides the view's; undefined when absent. */
  sort: SortDimension[] | undefined;
}

/**
 * parseRecordingQuery reads `channelId`, `labels`, `recorderId`, `recorderEmail`,
 * `createdAfter`, `createdBefore`, `sources` and `sort`; a malformed value is a 400
 * naming the parameter. Settled details:
 * - `labels` (comma separated) takes label ids or names and matches a recording with
 *   at least one of them; `sources` likewise matches any listed source;
 * - `createdAfter` is inclusive, `createdBefore` exclusive; both take a date that
 *   exists (service-date.ts), else 400;
 * - `recorderEmail` compares case-insensitively; empty parameters are ignored.
 */
export function parseRecordingQuery(query: URLSearchParams): RecordingQuery | EndpointResult {
  const tests: ((recording: StoredRecording, env: FilterEnv) => boolean)[] = [];
  const channelId = param(query, 'channelId');
  if (channelId !== undefined) tests.push((recording) => recording.channelId === channelId);
  const recorderId = param(query, 'recorderId');
  if (recorderId !== undefined) tests.push((recording) => recording.recorderId === recorderId);
  const recorderEmail = param(query, 'recorderEmail')?.toLowerCase();
  if (recorderEmail !== undefined) {
    tests.push((recording, env) => env.usersById.get(recording.recorderId)?.email.toLowerCase() === recorderEmail);
  }
  const labels = list(query, 'labels');
  if (labels !== undefined) {
    tests.push((recording, env) =>
      recording.labelIds.some((id) => labels.includes(id) || labels.includes(env.labelNames.get(id) ?? id)),
    );
  }
  const sources = list(query, 'sources');
  if (sources !== undefined) {
    const unknown = sources.find((source) => !(RECORDING_SOURCES as readonly string[]).includes(source));
    if (unknown !== undefined) {
      return validationError('sources', `unknown source "${unknown}"; expected one of ${RECORDING_SOURCES.join(', ')}`);
    }
    tests.push((recording) => sources.includes(recording.source));
  }
  for (const [name, inclusive] of [
    ['createdAfter', true],
    ['createdBefore', false],
  ] as const) {
    const raw = param(query, name);
    if (raw === undefined) continue;
    const bound = parseServiceDate(raw);
    if (bound === null) return validationError(name, `${name} is not a date that exists; ${SERVICE_DATE_FORMS}`);
    tests.push((recording) => {
      const at = timestamp(recording.createdAt);
      return at !== null && (inclusive ? at >= bound : at < bound);
    });
  }
  const sortParam = param(query, 'sort');
  const sort = sortParam === undefined ? undefined : ownValue(RECORDING_SORT_PARAMS, sortParam);
  if (sortParam !== undefined && sort === undefined) {
    return validationError(
      'sort',
      `unknown sort "${sortParam}"; expected one of ${Object.keys(RECORDING_SORT_PARAMS).join(', ')}`,
    );
  }
  return { matches: (recording, env) => tests.every((test) => test(recording, env)), sort };
}

function param(query: URLSearchParams, name: string): string | undefined {
  const value = query.get(name)?.trim();
  return value === undefined || value === '' ? undefined : value;
}

function list(query: URLSearchParams, name: string): string[] | undefined {
  const values = param(query, name)
    ?.split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  return values === undefined || values.length === 0 ? undefined : values;
}
