import { describe, expect, it } from 'vitest';
import { parseDetailsUrl } from '../../src/cli/details-url-option.js';
import { UsageError } from '../../src/errors.js';

function refusal(value: string): UsageError {
  try {
    parseDetailsUrl(value);
  } catch (error) {
    if (error instanceof UsageError) return error;
    throw error;
  }
  throw new Error(`${value} was accepted`);
}

describe('parseDetailsUrl', () => {
  it('accepts an absolute http(s) URL', () => {
    expect(parseDetailsUrl(' https://github.com/acme/views/actions/runs/9 ')).toBe(
      'https://github.com/acme/views/actions/runs/9',
    );
  });

  it('refuses a URL with credentials without repeating them', () => {
    const error = refusal('https://ci-bot:s3cr3t-token@ci.example.com/runs/9');
    expect(error.code).toBe('usage.details-url');
    expect(error.message).not.toContain('s3cr3t-token');
    expect(error.message).not.toContain('ci-bot');
    expect(error.message).toContain('https://***@ci.example.com/runs/9');
  });

  it('refuses what is not an http(s) URL, quoting it', () => {
    expect(refusal('javascript:alert(1)').message).toContain('got "javascript:alert(1)"');
  });
});
