import type { EmulatorData } from '../model.js';
import { findVisibleRecording, hasTranscript } from './details.js';
import { signMedia, transcriptPath } from './media.js';
import { notFound, ok, type EndpointResult, type RecordsContext } from './result.js';

/** TRANSCRIPT_URL_TTL_MS is how long a transcript download URL stays valid: 24 hours. */
export const TRANSCRIPT_URL_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * transcript answers `GET /v1/recordings/{recordingId}/transcript` with
 * `{url, expiresAt}`: a signed download URL for the transcript JSON (served by
 * `serveMedia`), valid 24 hours from `ctx.now`. Only `Ready` recordings have a transcript; for the other states the
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
  const path = transcriptPath(recording);
  const signature = signMedia(ctx.mediaSecret, path, expiresAt);
  const url = `${ctx.baseUrl}${path}?expires=${encodeURIComponent(expiresAt)}&signature=${signature}`;
  return ok({ url, expiresAt });
}
