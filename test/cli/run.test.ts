import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { redactSecrets, redactingStream } from '../../src/secrets/redact.js';
import { useColor } from '../../src/cli/output.js';
import { progressReporter } from '../../src/cli/progress.js';
import { reportError } from '../../src/cli/run.js';
import { InternalError, ServiceError, ViewctlError } from '../../src/errors.js';

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

describe('progressReporter', () => {
  it('stays quiet for short runs, and in long ones prints a line every 5 s and at the end', () => {
    const stream = new PassThrough();
    const chunks: string[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk.toString()));
    let clock = 0;
    const short = progressReporter(stream, 'reading', () => clock);
    for (let done = 1; done <= 10; done += 1) {
      clock += 10_000;
      short(done, 10);
    }
    // 100 requests, one a second: a line every 5 s however the quarters fall.
    const long = progressReporter(stream, 'writing', () => clock);
    for (let done = 1; done <= 100; done += 1) {
      clock += 1_000;
      long(done, 100);
    }
    const lines = chunks.join('').trimEnd().split('\n');
    expect(lines[0]).toBe('writing: 6/100 requests');
    expect(lines.at(-1)).toBe('writing: 100/100 requests');
    expect(lines).toHaveLength(20);
  });
});

describe('useColor', () => {
  it('colours a terminal only, and never with NO_COLOR', () => {
    expect(useColor({ isTTY: true }, {})).toBe(true);
    expect(useColor({ isTTY: false }, {})).toBe(false);
    expect(useColor({ isTTY: true }, { NO_COLOR: '1' })).toBe(false);
    expect(useColor({ isTTY: true }, { TERM: 'dumb' })).toBe(false);
  });

  it('follows a non-empty FORCE_COLOR first, as Node does: on in a CI log, off with 0 or false', () => {
    expect(useColor({ isTTY: false }, { FORCE_COLOR: '1' })).toBe(true);
    expect(useColor({ isTTY: false }, { FORCE_COLOR: '1', NO_COLOR: '1' })).toBe(true);
    expect(useColor({ isTTY: true }, { FORCE_COLOR: '0' })).toBe(false);
    expect(useColor({ isTTY: true }, { FORCE_COLOR: 'false' })).toBe(false);
    expect(useColor({ isTTY: false }, { FORCE_COLOR: '' })).toBe(false);
  });
});

describe('reportError, the one top-level catch', () => {
  const report = (error: unknown, writing?: boolean): { code: number; text: string } => {
    const stderr = new PassThrough();
    const code = reportError(error, { stderr }, { exitCode: 0, writing });
    return { code, text: String(stderr.read() ?? '') };
  };

  it('prints a user error as its code, message and hint, with its exit code and no stack', () => {
    const { code, text } = report(
      new ViewctlError('apply.stale', 'the plan is stale', { hint: 'plan again', exitCode: 3 }),
    );
    expect([code, text]).toEqual([3, 'error[apply.stale]: the plan is stale\n  hint: plan again\n']);
  });

  it('prints anything else as a bug with its stack, exiting 1 before any write', () => {
    const { code, text } = report(new TypeError("Cannot read properties of undefined (reading 'viewId')"));
    expect(code).toBe(1);
    expect(text).toMatch(
      /^internal error: viewctl hit an unexpected condition\nThis is a bug in viewctl.*\nTypeError: Cannot read properties/s,
    );
    expect(text).toMatch(/\n\s+at /);
    expect(text).not.toContain('may have landed');
  });

  it("says nothing was written after a connection failure before any write, and leaves it to apply's report once writing began", () => {
    const unreachable = new ServiceError(
      'service.unreachable',
      'cannot reach the service at http://127.0.0.1:9 for GET /v1/workspace (ECONNREFUSED)',
      { endpoint: 'GET /v1/workspace', hint: 'check --base-url' },
    );
    expect(report(unreachable).text).toBe(
      'error[service.unreachable]: cannot reach the service at http://127.0.0.1:9 for GET /v1/workspace (ECONNREFUSED); nothing was written\n  hint: check --base-url\n',
    );
    expect(report(new ServiceError('service.timeout', 'no answer', { endpoint: 'GET /v1/users' })).text).toContain(
      'no answer; nothing was written\n',
    );
    expect(report(unreachable, true).text).not.toContain('nothing was written');
    // Not a connection failure: the message says what it says.
    expect(
      report(new ServiceError('service.unauthorized', 'bad key', { endpoint: 'GET /v1/workspace' })).text,
    ).not.toContain('nothing was written');
  });

  it('prints what caused a bug, after its own stack', () => {
    const cause = Object.assign(
      new Error("ENOENT: no such file or directory, open '/pkg/schemas/plan/plan.schema.json'"),
      { code: 'ENOENT' },
    );
    const { code, text } = report(new InternalError('the plan schema cannot be loaded: ENOENT', { cause }));
    expect(code).toBe(1);
    expect(text).toMatch(/^internal error: the plan schema cannot be loaded: ENOENT\nThis is a bug in viewctl/);
    expect(text).toMatch(
      /\ncaused by: Error: ENOENT: no such file or directory, open '\/pkg\/schemas\/plan\/plan\.schema\.json'\n\s+at /,
    );
  });

  it('exits 4 for a bug once apply has begun writing, and says that changes may have landed', () => {
    const { code, text } = report(new TypeError('boom'), true);
    expect(code).toBe(4);
    expect(text).toContain(
      'apply had begun writing: some changes may have landed. Run viewctl plan to see what the workspace holds now, then apply that plan.',
    );
  });
});
