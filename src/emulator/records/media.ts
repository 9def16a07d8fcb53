import { createHmac, timingSafeEqual } from 'node:crypto';
import type { EmulatorData } from '../model.js';
import type { StoredRecording } from './types.js';

/**
 * Media downloads: the URLs `GET /v1/recordings/{id}/transcript` hands out. Like the
 * service's pre-signed links they carry their own signature and expiry instead of
 * the API key, so they are served without `X-Service-Key` and outside the API's rate
 * limits. The signing secret lives only as long as the emulator process: a URL from
 * before a restart is refused, as a rotated signing key would refuse it.
 */

/** MediaAnswer is a media response: a JSON document, or an error status with a message. */
export type MediaAnswer = { status: 200; body: unknown } | { status: 403 | 404; message: string };

/** MEDIA_PREFIX starts every media path. */
export const MEDIA_PREFIX = '/media/';

/** transcriptPath is the media path of a recording's transcript. */
export function transcriptPath(recording: StoredRecording): string {
  return `/media/recordings/${encodeURIComponent(recording.id)}/transcript-${recording.langIso2}.json`;
}

/** signMedia signs a media path and its expiry with the emulator's secret. */
export function signMedia(secret: string, path: string, expiresAt: string): string {
  return createHmac('sha256', secret).update(`${path}\n${expiresAt}`).digest('hex');
}

/**
 * serveMedia answers a media URL: 403 when the signature is wrong or the link has
 * expired, 404 when the recording or its transcript is gone, else the transcript JSON.
 */
export function serveMedia(data: EmulatorData, url: URL, now: number, secret: string): MediaAnswer {
  const match = /^\/media\/recordings\/([^/]+)\/transcript-([a-z]{2})\.json$/.exec(url.pathname);
  if (match === null) return { status: 404, message: `no media at ${url.pathname}` };
  const expiresAt = url.searchParams.get('expires') ?? '';
  const given = Buffer.from(url.searchParams.get('signature') ?? '', 'hex');
  const expected = Buffer.from(signMedia(secret, url.pathname, expiresAt), 'hex');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return { status: 403, message: 'the download link is not valid: ask for a new one through /v1/recordings/{id}/transcript' };
  }
  const expiry = Date.parse(expiresAt);
  if (!Number.isFinite(expiry) || expiry <= now) {
    return { status: 403, message: `the download link expired at ${expiresAt}: transcript links are valid 24 hours` };
  }
  const recording = data.recordings.find((candidate) => candidate.id === decodeURIComponent(match[1] ?? ''));
  if (recording === undefined || recording.state !== 'Ready' || recording.langIso2 !== match[2]) {
    return { status: 404, message: 'the transcript no longer exists' };
  }
  return { status: 200, body: transcriptDocument(data, recording) };
}

/**
 * transcriptDocument builds the transcript JSON of a recording, deterministically from
 * what the recording holds: its outline, takeaways and action items spoken in turn by
 * the attending participants (the recorder when nobody else attended), spread evenly
 * over the recording's duration.
 */
export function transcriptDocument(data: EmulatorData, recording: StoredRecording): unknown {
  const speakers = (recording.meeting?.participants ?? []).filter((participant) => participant.attended);
  if (speakers.length === 0) {
    const recorder = data.users.find((user) => user.id === recording.recorderId);
    speakers.push({ attended: true, email: recorder?.email ?? '', name: recorder?.name ?? 'Recorder' });
  }
  const lines = [
    ...recording.outlines.map((outline) => outline.text),
    ...recording.keyTakeaways.map((takeaway) => takeaway.text),
    ...recording.actionItems.flatMap((group) => group.items.map((item) => item.description)),
  ];
  if (lines.length === 0) lines.push(recording.title);
  const slot = recording.durationSeconds / lines.length;
  return {
    recordingId: recording.id,
    langIso2: recording.langIso2,
    segments: lines.map((text, index) => {
      const speaker = speakers[index % speakers.length];
      return {
        speaker: { name: speaker?.name ?? '', email: speaker?.email ?? '' },
        startSeconds: Math.round(index * slot),
        endSeconds: Math.round((index + 1) * slot),
        text,
      };
    }),
  };
}
