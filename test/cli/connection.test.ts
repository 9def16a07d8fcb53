import { describe, expect, it } from 'vitest';
import { runInProcess } from '../support/cli.js';

describe('the API key from the environment', () => {
  it.each([
    ['unset', {}, 'VIEWCTL_API_KEY is not set'],
    ['empty, as a missing pipeline secret leaves it', { VIEWCTL_API_KEY: '' }, 'VIEWCTL_API_KEY is set but empty'],
    ['blank', { VIEWCTL_API_KEY: '  \n' }, 'VIEWCTL_API_KEY is set but empty'],
  ])('%s: connection.no-key, before any request', async (_label, key, message) => {
    const result = await runInProcess(['plan', 'examples'], {
      env: { VIEWCTL_BASE_URL: 'http://127.0.0.1:1', ...key },
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`error[connection.no-key]: ${message}`);
  });
});

describe('viewctl --help', () => {
  it('names the environment variables and every exit code', async () => {
    const result = await runInProcess(['--help']);
    for (const text of ['VIEWCTL_API_KEY', 'VIEWCTL_BASE_URL', 'FORCE_COLOR', 'Exit codes:'])
      expect(result.stdout).toContain(text);
    for (const code of [0, 1, 2, 3, 4]) expect(result.stdout).toMatch(new RegExp(`^  ${code}  `, 'm'));
  });
});
