import { describe, expect, it } from 'vitest';
import { demoWorkspace } from '../../src/emulator/demo/demo-workspace.js';
import { startEmulator } from '../../src/emulator/server.js';
import { scratchDir } from '../support/cli.js';
import { FAST, inProcess, wrongExit } from './fault-runs.js';

/**
 * Every write's answer lost after the service carried it out: the run must say the
 * write may have landed and exit 4, never "Landed: (none)" and exit 1 while the
 * change is live.
 */
describe('apply when every answer to a write is lost after commit', () => {
  it('lists the update as may have landed and exits 4; the change is live', async () => {
    const emulator = await startEmulator({ data: demoWorkspace(), port: 0, ...FAST, dropAfterCommitRate: 1 });
    const folder = await scratchDir({
      'view.yaml': 'kind: RecordingView\nname: Customer calls\nviewId: rv_customer_calls\nicon: star\n',
    });
    try {
      const result = await inProcess(['apply', folder.dir, '--auto-approve', '--rate', '1000'], {
        VIEWCTL_BASE_URL: emulator.url,
        VIEWCTL_API_KEY: emulator.apiKey,
      });
      expect(result.code, result.stdout + result.stderr).toBe(4);
      expect(result.stdout).toMatch(
        /May have landed \(the next plan shows whether it did\):\n {2}update\s+RecordingView\s+"Customer calls"/,
      );
      expect(wrongExit(result)).toBeUndefined();
      expect(emulator.snapshot().views.recordings.find((view) => view.viewId === 'rv_customer_calls')?.icon).toBe(
        'star',
      );
    } finally {
      await folder.cleanup();
      await emulator.close();
    }
  });

  it("the soak judges exit codes by the run's own account", () => {
    const landed = 'Apply failed part-way: 1 created\nLanded:\n  create  RecordingView  "A"  rv_1\nFailed:\n  (none)\n';
    expect(wrongExit({ code: 1, stdout: landed, stderr: '' })).toBe('exit 1 though writes landed or may have');
    expect(wrongExit({ code: 4, stdout: landed, stderr: '' })).toBeUndefined();
    expect(wrongExit({ code: 0, stdout: landed, stderr: '' })).toBe('exit 0 after a partial run');
    expect(
      wrongExit({ code: 1, stdout: 'Apply failed part-way: 0 created\nLanded:\n  (none)\n', stderr: '' }),
    ).toBeUndefined();
  });
});
