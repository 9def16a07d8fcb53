import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { redactSecrets, redactingStream } from '../../src/secrets/redact.js';
import { useColor } from '../../src/cli/output.js';
import { progressReporter } from '../../src/cli/progress.js';

describe('redactSecrets', () => {
  it('replaces every occurrence of the key', () => {
    expect(redactSecrets('key sk_live_123 and sk_live_123', 'sk_live_123')).toBe('key [redacted] and [redacted]');
  });
  it('leaves text alone without a key', () => {
    expect(redactSecrets('nothing', undefined)).toBe('nothing');
  });
  it('compares the key trimmed, as the client sends it', () => {
    expect(redactSecrets('sent sk_live_123', ' sk_live_123\n')).toBe('sent [redacted]');
  });
});

describe('redactingStream', () => {
  it('removes the key from strings and buffers written, and keeps the stream itself', () => {
    const target = Object.assign(new PassThrough(), { isTTY: true });
    const chunks: string[] = [];
    target.on('data', (chunk: Buffer) => chunks.push(chunk.toString()));
    const stream = redactingStream(target, 'sk_live_123');
    stream.write('a sk_live_123\n');
    stream.write(Buffer.from('b sk_live_123\n'));
    expect(stream.isTTY).toBe(true);
    expect(chunks.join('')).toBe('a [redacted]\nb [redacted]\n');
  });
});

describe('useColor', () => {
  it('colours a terminal only, and never with NO_COLOR', () => {
    expect(useColor({ isTTY: true }, {})).toBe(true);
    expect(useColor({ isTTY: false }, {})).toBe(false);
    expect(useColor({ isTTY: true }, { NO_COLOR: '1' })).toBe(false);
    expect(useColor({ isTTY: true }, { TERM: 'dumb' })).toBe(false);
  });
});

describe('progressReporter', () => {
  it('stays quiet for short runs and prints quarters for long ones', () => {
    const stream = new PassThrough();
    const chunks: string[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk.toString()));
    const short = progressReporter(stream, 'reading');
    for (let done = 1; done <= 10; done += 1) short(done, 10);
    const long = progressReporter(stream, 'reading');
    for (let done = 1; done <= 40; done += 1) long(done, 40);
    expect(chunks.join('')).toBe(
      'reading: 10/40 requests\nreading: 20/40 requests\nreading: 30/40 requests\nreading: 40/40 requests\n',
    );
  });
});
