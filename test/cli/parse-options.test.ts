import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { parseCount, parseNumberFlag, parseRate } from '../../src/cli/parse-options.js';
import { runInProcess } from '../support/cli.js';

function refusal(parse: () => number): UsageError {
  try {
    parse();
  } catch (error) {
    if (error instanceof UsageError) return error;
    throw error;
  }
  throw new Error('expected a usage error');
}

describe('numeric flags', () => {
  it('--rate accepts 0.1 to 1000', () => {
    expect(['0.1', '3', ' 2.5 ', '1e2', '1000'].map((value) => parseRate(value))).toEqual([0.1, 3, 2.5, 100, 1000]);
  });

  it.each(['1e-9', '0.001', '0', '-3', 'NaN', 'Infinity', 'abc', '', '0x10', '1000.5', '1e9'])(
    '--rate %j is a usage error naming the range',
    (value) => {
      const error = refusal(() => parseRate(value));
      expect(error.code).toBe('usage.bad-number');
      expect(error.message).toBe(`--rate must be a number from 0.1 to 1000, got "${value}"`);
      expect(error.hint).toBe('for example --rate 3');
    },
  );

  it('counts are whole numbers; other ranges are named', () => {
    expect(parseCount('5', '--max-deletes')).toBe(5);
    expect(refusal(() => parseCount('1.5', '--max-deletes')).code).toBe('usage.bad-count');
    expect(refusal(() => parseNumberFlag('0', '--x', { min: 0, max: 1, aboveMin: true, code: 'x.bad' })).message).toBe(
      '--x must be a number above 0 and at most 1, got "0"',
    );
  });

  it('the CLI refuses --rate 1e-9 before any request, with exit 1', async () => {
    const run = await runInProcess(['plan', '--emulator', '--rate', '1e-9']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('error[usage.bad-number]: --rate must be a number from 0.1 to 1000, got "1e-9"');
  });
});
