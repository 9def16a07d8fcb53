import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { listenForInterrupt, listenForReads, stopOnInterrupt, type SignalSource } from '../../src/cli/interrupt.js';
import { ServiceError } from '../../src/errors.js';

/** The interrupt handling of every command (interrupt.ts), with signals from a fake source instead of the process. */

function fakeSource(): SignalSource & {
  send(signal: 'SIGINT' | 'SIGTERM'): void;
  exits: number[];
  listeners(): number;
} {
  const emitter = new EventEmitter();
  const exits: number[] = [];
  return {
    on: (signal, listener) => void emitter.on(signal, listener),
    off: (signal, listener) => void emitter.off(signal, listener),
    exit: (code) => void exits.push(code),
    send: (signal) => void emitter.emit(signal),
    exits,
    listeners: () => emitter.listenerCount('SIGINT') + emitter.listenerCount('SIGTERM'),
  };
}

function captured(): { stderr: PassThrough; text(): string } {
  const stderr = new PassThrough();
  let text = '';
  stderr.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return { stderr, text: () => text };
}

describe('listenForInterrupt', () => {
  it('treats SIGTERM as SIGINT: the first stops the run, a second quits at once with the code earned by then', () => {
    const source = fakeSource();
    const io = captured();
    let code = 1;
    let firsts = 0;
    const interrupt = listenForInterrupt(
      io,
      {
        notice: () => 'finishing the requests in flight',
        exitCode: () => code,
        exitNote: (exit) => (exit === 4 ? 'writes may have landed' : 'nothing was written'),
        onFirst: () => void (firsts += 1),
      },
      source,
    );
    source.send('SIGTERM');
    expect(interrupt.signal.aborted).toBe(true);
    expect(interrupt.received()).toBe('SIGTERM');
    expect(firsts).toBe(1);
    expect(source.exits).toEqual([]);
    code = 4;
    source.send('SIGINT');
    expect(source.exits).toEqual([4]);
    expect(io.text()).toBe(
      '\nSIGTERM: finishing the requests in flight (SIGTERM again to quit at once)\n\nSIGINT again: quitting at once (exit 4): writes may have landed\n',
    );
    interrupt.dispose();
    expect(source.listeners()).toBe(0);
  });
});

describe('listenForReads and stopOnInterrupt', () => {
  it.each([
    [undefined, 'stopped while writing plan.json; some files may be written and others not'],
    ['run pull again: it finishes them', 'stopped while writing plan.json; run pull again: it finishes them'],
  ])(
    'says, when a second signal comes while files are written, what the run was doing and what it leaves (%s)',
    (ifQuit, note) => {
      const source = fakeSource();
      const io = captured();
      const interrupt = listenForReads(io, '', source);
      interrupt.writingFiles('writing plan.json', ifQuit);
      source.send('SIGTERM');
      source.send('SIGTERM');
      expect(source.exits).toEqual([1]);
      expect(io.text()).toBe(
        `\nSIGTERM: the reads are done; finishing writing plan.json (SIGTERM again to quit at once)\n\nSIGTERM again: quitting at once (exit 1): ${note}\n`,
      );
      interrupt.dispose();
    },
  );

  it('turn a read cancelled by the signal into run.interrupted, exit 1, and quit with 1 on a second signal', async () => {
    const source = fakeSource();
    const io = captured();
    const interrupt = listenForReads(io, ', not even the plan file plan.json', source);
    const read = stopOnInterrupt(interrupt, ', not even the plan file plan.json', async () => {
      source.send('SIGINT');
      throw new ServiceError('service.aborted', 'GET /v1/workspace was cancelled', { endpoint: 'GET /v1/workspace' });
    });
    await expect(read).rejects.toMatchObject({
      code: 'run.interrupted',
      exitCode: 1,
      message: 'stopped by SIGINT: nothing was written, not even the plan file plan.json',
    });
    source.send('SIGINT');
    expect(source.exits).toEqual([1]);
    expect(io.text()).toContain(
      'SIGINT: stopping the reads; nothing was written, not even the plan file plan.json (Ctrl-C again to quit at once)',
    );
    interrupt.dispose();
  });

  it('refuse a result the reads finished after the signal, and leave a bug as it is', async () => {
    const source = fakeSource();
    const interrupt = listenForReads(captured(), '', source);
    await expect(stopOnInterrupt(interrupt, '', async () => 'done')).resolves.toBe('done');
    source.send('SIGTERM');
    await expect(stopOnInterrupt(interrupt, '', async () => 'late')).rejects.toMatchObject({ code: 'run.interrupted' });
    const bug = new TypeError('x is undefined');
    await expect(stopOnInterrupt(interrupt, '', async () => Promise.reject(bug))).rejects.toBe(bug);
    interrupt.dispose();
  });

  it('once the reads are done, lets the files being written finish', () => {
    const source = fakeSource();
    const io = captured();
    const interrupt = listenForReads(io, '', source);
    interrupt.writingFiles('writing the files to out');
    source.send('SIGTERM');
    expect(io.text()).toContain('SIGTERM: the reads are done; finishing writing the files to out');
    interrupt.dispose();
  });
});
