import type { EmulatorData } from '../model.js';
import { findVisibleRecording } from './details.js';
import { mediaPath, signedMediaUrl } from './media.js';
import type { EndpointResult, RecordsContext } from './result.js';
import { notFound, success } from '../route-result.js';

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
  if (recording.state !== 'Ready') {
    const reason =
      recording.state === 'Failed' ? 'its processing failed' : `it is ${recording.state}, not processed yet`;
    return notFound(`recording ${recordingId} has no transcript: ${reason}`);
  }
  return success(signedMediaUrl(ctx, mediaPath(recording, 'transcript.json')));
}
