import { afterEach, describe, expect, it } from 'vitest';
import { closedPort } from '../service/helpers.js';
import { runInProcess, scratchDir } from '../support/cli.js';

// A service that cannot be reached mid-run: plan and export stop before anything is
// written, and say so (README, "How requests are spent").

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

describe('a connection failure during plan or export', () => {
  it('says that nothing was written', async () => {
    const { dir, cleanup } = await scratchDir({ 'views.yaml': 'kind: RecordingView\nname: Calls\nfilters: {}\n' });
    cleanups.push(cleanup);
    const env = { VIEWCTL_BASE_URL: `http://127.0.0.1:${await closedPort()}`, VIEWCTL_API_KEY: 'test-key' };
    for (const args of [
      ['plan', '.'],
      ['export', '--out', 'exported'],
    ]) {
      const run = await runInProcess(args, { cwd: dir, env });
      expect(run.code, args.join(' ')).toBe(1);
      expect(run.stderr, args.join(' ')).toMatch(
        /^error\[service\.unreachable\]: cannot reach the service at .*; nothing was written\n/m,
      );
    }
  });
});
