import type { EmulatorData } from '../model.js';
import { appPagePath, mediaPath, signedMediaUrl, type MediaFile } from './media.js';
import type { EndpointResult, RecordsContext } from './result.js';
import { notFound, success } from '../route-result.js';
import type { StoredInsight, StoredRecording } from './types.js';

/**
 * recordingDetails answers `GET /v1/recordings/{recordingId}` with
 * `{recording: ...}`. A private recording is reported as not found unless the key has
 * Full access (the service's authentication rule 4).
 */
export function recordingDetails(data: EmulatorData, recordingId: string, ctx: RecordsContext): EndpointResult {
  const recording = findVisibleRecording(data, recordingId, ctx);
  if (recording === undefined) return notFound(`recording ${recordingId} not found`);
  return success({ recording: recordingResponse(data, recording, ctx) });
}

/** findVisibleRecording finds a recording the key may see (private ones need Full access). */
export function findVisibleRecording(
  data: EmulatorData,
  recordingId: string,
  ctx: RecordsContext,
): StoredRecording | undefined {
  return data.recordings.find((recording) => recording.id === recordingId && (ctx.fullAccess || !recording.isPrivate));
}

/**
 * recordingResponse builds the service's "Recording details" object. Which
 * fields a state carries (the spec does not show it) is settled here:
 *
 * - every state: `id`, `createdAt`, `durationSeconds`, `state`, `title`, `url`,
 *   `thumbnailUrl`, `transcriptOnly`, `labels` (label names), `recorder`, `workspace`,
 *   `companies`, `source`, `insightTemplates` (always `[]`, deprecated), and when the
 *   recording has them `channel`, `meeting`, `deal` and `crmInfo` (omitted, not null,
 *   when absent);
 * - `Ready` adds what processing produces: `transcripts`, `video` (not for
 *   transcript-only recordings), `analytics`, `aiFields`, `actionItems`,
 *   `keyTakeaways` and `outlines`;
 * - `Empty` (nothing uploaded yet), `Uploaded` (processing) and `Failed` (processing
 *   failed) carry none of the processed fields.
 *
 * Every URL resolves (media.ts): `url` is the recording's app page, the others are
 * media downloads signed for 24 hours from `ctx.now`, as the transcript endpoint's.
 */
export function recordingResponse(
  data: EmulatorData,
  recording: StoredRecording,
  ctx: RecordsContext,
): Record<string, unknown> {
  const recorder = data.users.find((user) => user.id === recording.recorderId);
  const labelNames = new Map(data.labels.map((label) => [label.id, label.name]));
  const media = (file: MediaFile): string => signedMediaUrl(ctx, mediaPath(recording, file)).url;
  const response: Record<string, unknown> = {
    id: recording.id,
    createdAt: recording.createdAt,
    durationSeconds: recording.durationSeconds,
    state: recording.state,
    title: recording.title,
    url: `${ctx.baseUrl}${appPagePath(recording)}`,
    thumbnailUrl: media('thumbnail'),
    transcriptOnly: recording.transcriptOnly,
    labels: recording.labelIds.map((id) => labelNames.get(id) ?? id),
    recorder: {
      attended: recording.recorderAttended,
      email: recorder?.email ?? '',
      id: recording.recorderId,
      name: recorder?.name ?? '',
    },
    workspace: { id: data.workspace.id, name: data.workspace.name },
    companies: recording.companyIds.map((id) => ({
      id,
      name: data.companies.find((company) => company.id === id)?.name ?? '',
    })),
    source: recording.source,
    insightTemplates: [],
  };
  const channel = data.channels.find((candidate) => candidate.id === recording.channelId);
  if (channel !== undefined) response.channel = { id: channel.id, name: channel.name };
  if (recording.meeting !== null) response.meeting = structuredClone(recording.meeting);
  const deal = data.deals.find((candidate) => candidate.id === recording.dealId);
  if (deal !== undefined) {
    response.deal = { id: deal.id, name: deal.name };
    if (recording.crm !== null) response.crmInfo = { crm: recording.crm, deal: { id: deal.id } };
  }
  if (recording.state === 'Ready') Object.assign(response, processedFields(recording, media));
  return response;
}

function processedFields(recording: StoredRecording, media: (file: MediaFile) => string): Record<string, unknown> {
  const fields: Record<string, unknown> = {
    transcripts: [
      {
        textUrl: media('transcript.txt'),
        url: media('transcript.json'),
        isActive: true,
        isTranscript: true,
        langIso2: recording.langIso2,
      },
    ],
    aiFields: recording.insights.flatMap((insight) => {
      const description = describeInsight(insight);
      return description === null ? [] : [{ title: insight.title, description }];
    }),
    actionItems: structuredClone(recording.actionItems),
    keyTakeaways: structuredClone(recording.keyTakeaways),
    outlines: structuredClone(recording.outlines),
  };
  if (!recording.transcriptOnly) fields.video = { url: media('video') };
  if (recording.analytics !== null) fields.analytics = { ...recording.analytics };
  return fields;
}

/**
 * describeInsight renders an insight value as the text `aiFields[].description`
 * shows; null when the insight has no value for this recording.
 */
function describeInsight(insight: StoredInsight): string | null {
  const value = insight.value;
  if (value === null) return null;
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (Array.isArray(value)) return value.join(', ');
  return String(value);
}
