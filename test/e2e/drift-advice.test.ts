import { afterEach, describe, expect, it } from 'vitest';
import { runBuilt, tempDirs, withEmulator } from './harness.js';

const { dir, cleanupAll } = tempDirs();
afterEach(cleanupAll);

const MIA = 'mia.chen@acme.test';

/** A member re-orders their tabs in the app, as drift the nightly check reports. */
async function reorderInApp(emulator: { url: string; apiKey: string }): Promise<void> {
  const response = await fetch(`${emulator.url}/v1/recordings/views/pinned?userEmail=${encodeURIComponent(MIA)}`, {
    method: 'PUT',
    headers: { 'x-service-key': emulator.apiKey, 'content-type': 'application/json' },
    body: JSON.stringify({ viewIds: ['rv_default_all', 'rv_mia_followups'] }),
  });
  expect(response.status).toBe(200);
}

/**
 * The drift issue's advice, run as written (issue 36): `viewctl pull` keeps the app's
 * change (the manifests then plan no change), and `viewctl apply --target pins/EMAIL`
 * undoes it (the workspace then plans no change against the manifests).
 */
describe("the drift issue's advice, as written", () => {
  it('keeps an app change with viewctl pull, and undoes one with viewctl apply --target pins/EMAIL', async () => {
    const root = await dir({});
    await withEmulator(async (emulator, env) => {
      const run = (args: string[]) => runBuilt(args, { env, cwd: root });
      expect((await run(['export', '--out', 'manifests', '--users', MIA])).code).toBe(0);

      await reorderInApp(emulator);
      expect((await run(['plan', 'manifests', '--detailed-exitcode'])).code).toBe(2);
      const undo = await run(['apply', 'manifests', '--target', `pins/${MIA}`, '--auto-approve']);
      expect(undo.code, undo.stdout + undo.stderr).toBe(0);
      expect((await run(['plan', 'manifests', '--detailed-exitcode'])).code).toBe(0);

      await reorderInApp(emulator);
      const keep = await run(['pull', 'manifests', '--target', `pins/${MIA}`]);
      expect(keep.code, keep.stdout + keep.stderr).toBe(0);
      const after = await run(['plan', 'manifests', '--detailed-exitcode']);
      expect(after.code, after.stdout).toBe(0);
    });
  });
});
