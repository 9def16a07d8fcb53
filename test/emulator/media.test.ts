import { describe, expect, it } from 'vitest';
import { demoWorkspace } from '../../src/emulator/demo/demo-workspace.js';
import { call, useEmulator } from './helpers.js';

const start = useEmulator();
const DAY_MS = 24 * 60 * 60 * 1000;

describe('transcript download links (GET /v1/recordings/{id}/transcript)', () => {
  it('serve the transcript JSON without the API key, as a pre-signed link', async () => {
    const data = demoWorkspace();
    const ready = data.recordings.find((recording) => recording.state === 'Ready' && !recording.isPrivate);
    if (ready === undefined) throw new Error('demo has a ready recording');
    const emulator = await start({ data });
    const link = await call(emulator, 'GET', `/v1/recordings/${ready.id}/transcript`);
    expect(link.status).toBe(200);
    const download = await fetch(link.body.result.url as string);
    expect(download.status).toBe(200);
    const transcript = (await download.json()) as {
      recordingId: string;
      segments: Array<{ text: string; endSeconds: number }>;
    };
    expect(transcript.recordingId).toBe(ready.id);
    expect(transcript.segments.length).toBeGreaterThan(0);
    expect(transcript.segments.at(-1)?.endSeconds).toBe(ready.durationSeconds);
    // Downloads are not API requests: they spend no quota.
    expect(emulator.stats().requests).toBe(1);
  });

  it('refuse a forged signature and an expired link with 403', async () => {
    const data = demoWorkspace();
    const ready = data.recordings.find((recording) => recording.state === 'Ready' && !recording.isPrivate);
    if (ready === undefined) throw new Error('demo has a ready recording');
    let now = Date.parse('2026-11-20T12:00:00Z');
    const emulator = await start({ data, now: () => now });
    const url = new URL(
      (await call(emulator, 'GET', `/v1/recordings/${ready.id}/transcript`)).body.result.url as string,
    );
    const forged = new URL(url);
    forged.searchParams.set('expires', '2099-01-01T00:00:00.000Z');
    expect((await fetch(forged)).status).toBe(403);
    now += DAY_MS - 1000;
    expect((await fetch(url)).status).toBe(200);
    now += 2000;
    const expired = await fetch(url);
    expect(expired.status).toBe(403);
    expect(((await expired.json()) as { error: { message: string } }).error.message).toContain('expired');
  });
});

describe('every URL of the recording details resolves', () => {
  // The meeting's conference link is the workspace's own data (the provider's page),
  // served as stored; every other URL is the emulator's and must lead somewhere.
  const urlsOf = (value: unknown, path: string[] = []): { path: string; url: string }[] => {
    if (typeof value === 'string') return /^https?:\/\//.test(value) ? [{ path: path.join('.'), url: value }] : [];
    if (Array.isArray(value)) return value.flatMap((item, index) => urlsOf(item, [...path, String(index)]));
    if (typeof value === 'object' && value !== null)
      return Object.entries(value).flatMap(([key, item]) => urlsOf(item, [...path, key]));
    return [];
  };
  const TYPES: [RegExp, string][] = [
    [/\/app\/recordings\/[^/?]+$/, 'text/html'],
    [/\.json\?/, 'application/json'],
    [/\.txt\?/, 'text/plain'],
    [/\.mp4\?/, 'video/mp4'],
    [/\.svg\?/, 'image/svg+xml'],
  ];

  it('app pages, signed transcripts (JSON and text), placeholder videos and thumbnails, in every state', async () => {
    const data = demoWorkspace();
    expect(new Set(data.recordings.map((recording) => recording.state))).toEqual(
      new Set(['Empty', 'Uploaded', 'Ready', 'Failed']),
    );
    const emulator = await start({ data });
    const listed = await call(emulator, 'GET', '/v1/recordings?limit=100');
    const urls = urlsOf(listed.body.result.recordings).filter((entry) => !entry.path.endsWith('meeting.conferenceUrl'));
    expect(new Set(urls.map((entry) => entry.path.replace(/^\d+\./, '')))).toEqual(
      new Set(['url', 'thumbnailUrl', 'transcripts.0.url', 'transcripts.0.textUrl', 'video.url']),
    );
    for (const { path, url } of urls) {
      expect(url.startsWith(`${emulator.url}/`), path).toBe(true);
      const answer = await fetch(url);
      expect(answer.status, `${path} ${url}`).toBe(200);
      const type = TYPES.find(([pattern]) => pattern.test(url))?.[1];
      expect(answer.headers.get('content-type'), url).toContain(type);
      expect((await answer.arrayBuffer()).byteLength, url).toBeGreaterThan(0);
    }
    // Following links is not an API call.
    expect(emulator.stats().requests).toBe(1);
  });
});
