import { afterEach, describe, expect, it } from 'vitest';
import { runInProcess, scratchDir } from '../support/cli.js';

// plan and apply print the manifests' warnings on stderr: one line per code, or each
// with --show-warnings (README, "Warnings").

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

const repeated = (name: string): string =>
  `kind: RecordingView\nname: ${name}\ncolumns:\n  - {type: Default, columnId: title}\n  - {type: Default, columnId: title}\n`;

describe('--show-warnings', () => {
  it("plan and apply print a code's warnings as one line, and each with --show-warnings", async () => {
    const { dir, cleanup } = await scratchDir({
      'workspace.yaml': 'kind: Workspace\ncreatorEmail: adam.reyes@acme.test\n',
      'a.yaml': repeated('Repeat A'),
      'b.yaml': repeated('Repeat B'),
      'c.yaml': repeated('Repeat C'),
    });
    cleanups.push(cleanup);
    const lines = (stderr: string): string[] =>
      stderr.split('\n').filter((line) => line.includes('view.duplicate-column'));
    const grouped = await runInProcess(['plan', '.', '--emulator'], { cwd: dir });
    expect(grouped.code, grouped.stderr).toBe(0);
    expect(lines(grouped.stderr)).toEqual([
      'a.yaml:5:5  view.duplicate-column  warning: column title appears twice in columns at /columns/1; 2 more like it at b.yaml:5:5, c.yaml:5:5 (--show-warnings lists each)',
    ]);
    const each = await runInProcess(['plan', '.', '--emulator', '--show-warnings'], { cwd: dir });
    expect(each.code, each.stderr).toBe(0);
    expect(lines(each.stderr).map((line) => line.split('  ')[0])).toEqual(['a.yaml:5:5', 'b.yaml:5:5', 'c.yaml:5:5']);
    // apply plans the same way, and takes the flag too.
    const applied = await runInProcess(
      ['apply', '.', '--emulator', '--auto-approve', '--rate', '1000', '--show-warnings'],
      { cwd: dir },
    );
    expect(applied.code, applied.stderr).toBe(0);
    expect(lines(applied.stderr)).toHaveLength(3);
  });
});
