import type { EmulatorData } from '../model.js';
import { findVisibleRecording, hasTranscript } from './details.js';
import { notFound, ok, type EndpointResult, type RecordsContext } from './result.js';

/** TRANSCRIPT_URL_TTL_MS is how long a transcript download URL stays valid: 24 hours. */
export const TRANSCRIPT_URL_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * transcript answers `GET /v1/recordings/{recordingId}/transcript` with
 * `{url, expiresAt}`: a download URL for the transcript JSON, valid 24 hours from
 * `ctx.now`. Only `Ready` recordings have a transcript; for the other states the
 * answer is 404 `not_found` saying the transcript does not exist yet (or failed), so
 * a client can tell it from an unknown recording by the message only, as the
 * service does for every missing resource. Private recordings need Full access.
 */
export function transcript(data: EmulatorData, recordingId: string, ctx: RecordsContext): EndpointResult {
  const recording = findVisibleRecording(data, recordingId, ctx);
  if (recording === undefined) return notFound(`recording ${recordingId} not found`);
  if (!hasTranscript(recording)) {
    const reason = recording.state === 'Failed' ? 'its processing failed' : `it is ${recording.state}, not processed yet`;
    return notFound(`recording ${recordingId} has no transcript: ${reason}`);
  }
  const expiresAt = new Date(ctx.now + TRANSCRIPT_URL_TTL_MS).toISOString();
  const url = `${ctx.baseUrl}/media/recordings/${encodeURIComponent(recording.id)}/transcript-${recording.langIso2}.json`
    + `?expires=${encodeURIComponent(expiresAt)}`;
  return ok({ url, expiresAt });
}
