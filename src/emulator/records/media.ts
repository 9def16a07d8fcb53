import { createHmac, timingSafeEqual } from 'node:crypto';
import { safeDecode } from '../http-io.js';
import type { EmulatorData } from '../model.js';
import type { RecordsContext } from './result.js';
import type { StoredRecording } from './types.js';
import { DAY_MS } from '../time.js';

/**
 * Media downloads and app pages: every URL a recording hands out resolves here.
 *
 * - Media (`/media/recordings/{id}/...`): the transcript as JSON (`transcript-xx.json`,
 *   also what `GET /v1/recordings/{id}/transcript` links to) and as text
 *   (`transcript-xx.txt`), a placeholder video (`video.mp4`) and a placeholder
 *   thumbnail (`thumbnail.svg`). Like the service's pre-signed links they carry their
 *   own signature and expiry (24 hours) instead of the API key, so they are served
 *   without `X-Service-Key`, outside the API's rate limits and without its rate-limit
 *   headers: downloads are not API calls. The signing secret lives only as long as
 *   the emulator process: a URL from before a restart is refused, as a rotated
 *   signing key would refuse it.
 * - App pages (`/app/recordings/{id}`, the details' `url`): a small HTML page standing
 *   for the recording in the application. The emulator has no sign-in, so the page
 *   is open like the application would be to a signed-in member.
 */

/** MediaAnswer is a media or app page response: a body and its type, or an error status with a message. */
type MediaAnswer = { status: 200; contentType: string; body: string | Buffer } | { status: 403 | 404; message: string };

/** MEDIA_PREFIX starts every media path; APP_PREFIX every app page path. */
export const MEDIA_PREFIX = '/media/';
export const APP_PREFIX = '/app/';

const MEDIA_URL_TTL_MS = DAY_MS;

/** MediaFile names a file of a recording: the transcript (JSON or text), the video or the thumbnail. */
export type MediaFile = 'transcript.json' | 'transcript.txt' | 'video' | 'thumbnail';

/** mediaPath is the path of one media file of a recording. */
export function mediaPath(recording: StoredRecording, file: MediaFile): string {
  const base = `/media/recordings/${encodeURIComponent(recording.id)}`;
  switch (file) {
    case 'transcript.json':
      return `${base}/transcript-${recording.langIso2}.json`;
    case 'transcript.txt':
      return `${base}/transcript-${recording.langIso2}.txt`;
    case 'video':
      return `${base}/video.mp4`;
    case 'thumbnail':
      return `${base}/thumbnail.svg`;
  }
}

/** appPagePath is the path of a recording's page in the application (the details' `url`). */
export function appPagePath(recording: StoredRecording): string {
  return `/app/recordings/${encodeURIComponent(recording.id)}`;
}

function signMedia(secret: string, path: string, expiresAt: string): string {
  return createHmac('sha256', secret).update(`${path}\n${expiresAt}`).digest('hex');
}

/** signedMediaUrl builds the URL of a media file and when it stops working: MEDIA_URL_TTL_MS from `now`. */
export function signedMediaUrl(ctx: RecordsContext, path: string): { url: string; expiresAt: string } {
  const expiresAt = new Date(ctx.now + MEDIA_URL_TTL_MS).toISOString();
  const signature = signMedia(ctx.mediaSecret, path, expiresAt);
  return { url: `${ctx.baseUrl}${path}?expires=${encodeURIComponent(expiresAt)}&signature=${signature}`, expiresAt };
}

const MEDIA_PATH = /^\/media\/recordings\/([^/]+)\/(transcript-([a-z]{2})\.(json|txt)|video\.mp4|thumbnail\.svg)$/;
const APP_PATH = /^\/app\/recordings\/([^/]+)$/;

/**
 * serveMedia answers a media URL: 403 when the signature is wrong or the link has
 * expired, 404 when the recording or that file of it is gone (a transcript or video
 * exists only for `Ready` recordings, a video not for transcript-only ones).
 */
export function serveMedia(data: EmulatorData, url: URL, now: number, secret: string): MediaAnswer {
  const match = MEDIA_PATH.exec(url.pathname);
  if (match === null) return { status: 404, message: `no media at ${url.pathname}` };
  const expiresAt = url.searchParams.get('expires') ?? '';
  const given = Buffer.from(url.searchParams.get('signature') ?? '', 'hex');
  const expected = Buffer.from(signMedia(secret, url.pathname, expiresAt), 'hex');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return {
      status: 403,
      message:
        'the download link is not valid: ask for a new one through /v1/recordings/{id} or /v1/recordings/{id}/transcript',
    };
  }
  const expiry = Date.parse(expiresAt);
  if (!Number.isFinite(expiry) || expiry <= now) {
    return { status: 403, message: `the download link expired at ${expiresAt}: media links are valid 24 hours` };
  }
  const recording = findRecording(data, match[1] ?? '');
  const file = match[2] ?? '';
  if (recording === undefined) return { status: 404, message: 'the recording no longer exists' };
  if (file === 'thumbnail.svg') return { status: 200, contentType: 'image/svg+xml', body: thumbnailSvg(recording) };
  if (recording.state !== 'Ready')
    return { status: 404, message: `the recording is ${recording.state}: it has no ${file} yet` };
  if (file === 'video.mp4') {
    return recording.transcriptOnly
      ? { status: 404, message: 'the recording is transcript-only: it has no video' }
      : { status: 200, contentType: 'video/mp4', body: placeholderVideo() };
  }
  if (recording.langIso2 !== match[3])
    return { status: 404, message: 'the transcript no longer exists in that language' };
  const document = transcriptDocument(data, recording);
  return match[4] === 'json'
    ? { status: 200, contentType: 'application/json; charset=utf-8', body: JSON.stringify(document) }
    : { status: 200, contentType: 'text/plain; charset=utf-8', body: transcriptText(document) };
}

/** serveAppPage answers a recording's page in the application, or 404 for an unknown recording. */
export function serveAppPage(data: EmulatorData, url: URL): MediaAnswer {
  const match = APP_PATH.exec(url.pathname);
  const recording = match === null ? undefined : findRecording(data, match[1] ?? '');
  if (recording === undefined) return { status: 404, message: `no page at ${url.pathname}` };
  const title = escapeHtml(recording.title);
  const body =
    `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>${title}</title></head>\n` +
    `<body><h1>${title}</h1><p>Recording ${escapeHtml(recording.id)}, ${escapeHtml(recording.state)}, ` +
    `${Math.round(recording.durationSeconds / 60)} min, created ${escapeHtml(recording.createdAt)}.</p>` +
    '<p>Served by the viewctl emulator in place of the application.</p></body></html>\n';
  return { status: 200, contentType: 'text/html; charset=utf-8', body };
}

function findRecording(data: EmulatorData, encodedId: string): StoredRecording | undefined {
  const id = safeDecode(encodedId);
  return id === undefined ? undefined : data.recordings.find((candidate) => candidate.id === id);
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

function thumbnailSvg(recording: StoredRecording): string {
  return (
    '<svg xmlns="http://www.w3.org/2000/svg" width="320" height="180" viewBox="0 0 320 180">' +
    '<rect width="320" height="180" fill="#e5e7eb"/>' +
    `<text x="160" y="95" font-family="sans-serif" font-size="14" text-anchor="middle" fill="#374151">${escapeHtml(recording.title)}</text>` +
    '</svg>\n'
  );
}

// An ISO base media file holding only its type box and a free box that says what it
// is: a placeholder with the right type and signature, not a playable video.
function placeholderVideo(): Buffer {
  const box = (type: string, payload: Buffer): Buffer => {
    const header = Buffer.alloc(8);
    header.writeUInt32BE(8 + payload.length, 0);
    header.write(type, 4, 'latin1');
    return Buffer.concat([header, payload]);
  };
  const ftyp = box(
    'ftyp',
    Buffer.concat([Buffer.from('isom', 'latin1'), Buffer.from([0, 0, 2, 0]), Buffer.from('isomiso2mp41', 'latin1')]),
  );
  return Buffer.concat([ftyp, box('free', Buffer.from('viewctl emulator placeholder video', 'latin1'))]);
}

function transcriptText(document: TranscriptDocument): string {
  return document.segments
    .map((segment) => `${segment.speaker.name}: ${segment.text}`)
    .join('\n')
    .concat('\n');
}

/** TranscriptDocument is the transcript JSON of a recording. */
interface TranscriptDocument {
  recordingId: string;
  langIso2: string;
  segments: { speaker: { name: string; email: string }; startSeconds: number; endSeconds: number; text: string }[];
}

/**
 * transcriptDocument builds the transcript JSON of a recording, deterministically from
 * what the recording holds: its outline, takeaways and action items spoken in turn by
 * the attending participants (the recorder when nobody else attended), spread evenly
 * over the recording's duration.
 */
function transcriptDocument(data: EmulatorData, recording: StoredRecording): TranscriptDocument {
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
