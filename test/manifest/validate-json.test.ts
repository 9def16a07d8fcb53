import { describe, expect, it } from 'vitest';
import { runInProcess, scratchDir } from '../support/cli.js';

/** `validate --format json`, as `terraform validate -json` (issue 36). */
describe('viewctl validate --format json', () => {
  it('lists every problem with file, line, column, code, severity, message and hint; valid false, exit 1', async () => {
    const { dir, cleanup } = await scratchDir({
      'views/a.yaml': 'kind: RecordingView\nname: A\ncolumnz: []\n',
      'views/b.yaml': 'kind: RecordingView\nname: [unclosed\n',
    });
    try {
      const result = await runInProcess(['validate', '.', '--format', 'json'], { cwd: dir });
      expect(result.code).toBe(1);
      const report = JSON.parse(result.stdout);
      expect(report).toMatchObject({ formatVersion: 1, valid: false, files: 2, errorCount: 2, warningCount: 0 });
      expect(report.problems[0]).toEqual({
        file: 'views/a.yaml',
        line: 3,
        column: 1,
        code: 'schema.unknown-attribute',
        severity: 'error',
        message: 'unknown attribute "columnz"',
        pointer: '/columnz',
        hint: 'did you mean "columns"?',
      });
      expect(report.problems[1]).toMatchObject({
        file: 'views/b.yaml',
        line: expect.any(Number),
        code: expect.stringMatching(/^yaml\./),
      });
    } finally {
      await cleanup();
    }
  });

  it('says valid true with no problem, exit 0', async () => {
    const { dir, cleanup } = await scratchDir({ 'a.yaml': 'kind: RecordingView\nname: A\n' });
    try {
      const result = await runInProcess(['validate', '--format', 'json'], { cwd: dir });
      expect(result.code).toBe(0);
      expect(JSON.parse(result.stdout)).toMatchObject({ valid: true, files: 1, documents: 1, problems: [] });
    } finally {
      await cleanup();
    }
  });
});
