import { cp } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writeSplicedFiles } from '../../src/export/pull-files.js';
import { NODE_PULL_FILE_SYSTEM, type PullFileSystem } from '../../src/export/pull-journal.js';
import { snapshot } from './folder-bytes.js';
import { EXAMPLES, runBuilt, tempDirs, withEmulator } from './harness.js';

/**
 * pull killed part-way converges, through the built CLI against the emulator: a view
 * renamed in the app is pulled into its document and the pins documents naming it; a
 * pull killed after the first of those renames (the state a SIGKILL leaves) does not
 * load (the pins name a view that no longer exists), and the next pull finishes it.
 */

const { dir, cleanupAll } = tempDirs();
afterEach(cleanupAll);

const TARGETS = ['--target', 'RecordingView/Customer calls', '--target', 'pins/adam.reyes@acme.test'];

/** killedAfter is the node file system until `writes` writes were made; then it does nothing more, as a killed process. */
function killedAfter(writes: number): PullFileSystem {
  let left = writes;
  const step = async (run: () => Promise<void>): Promise<void> => {
    if (left <= 0) throw new Error('killed');
    left -= 1;
    await run();
  };
  return {
    writeFile: (path, text, mode) => step(() => NODE_PULL_FILE_SYSTEM.writeFile(path, text, mode)),
    rename: (from, to) => step(() => NODE_PULL_FILE_SYSTEM.rename(from, to)),
    remove: (path) => step(() => NODE_PULL_FILE_SYSTEM.remove(path)),
  };
}

describe('viewctl pull killed part-way', () => {
  it('is finished by the next pull: the manifests are then all as pulled, and load', async () => {
    const root = await dir({});
    const manifests = join(root, 'manifests');
    const pulled = join(root, 'pulled');
    await cp(EXAMPLES, manifests, { recursive: true });
    await withEmulator(async (emulator, env) => {
      expect((await runBuilt(['apply', manifests, '--auto-approve'], { env })).code).toBe(0);
      const response = await fetch(`${emulator.url}/v1/recordings/views/rv_customer_calls`, {
        method: 'PATCH',
        headers: { 'x-service-key': emulator.apiKey, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Phone calls' }),
      });
      expect(response.status).toBe(200);

      // What a whole pull writes, in a copy.
      await cp(manifests, pulled, { recursive: true });
      const whole = await runBuilt(['pull', pulled, ...TARGETS], { env });
      expect(whole.code, whole.stderr).toBe(0);
      const before = await snapshot(manifests);
      const after = await snapshot(pulled);
      const changed = [...before.keys()].filter(
        (path) => !after.get(path)?.equals(before.get(path) ?? Buffer.alloc(0)),
      );
      expect(changed.sort()).toEqual(['pins/adam.yaml', 'views/recordings/customer-calls.yaml']);

      // The same pull killed after its first rename: the view's document renamed, Adam's pins not.
      const texts = new Map(changed.map((path) => [`manifests/${path}`, after.get(path)?.toString('utf8') ?? '']));
      await writeSplicedFiles(texts, root, { roots: ['manifests'], fs: killedAfter(changed.length + 3) }).catch(
        () => undefined,
      );
      const half = await snapshot(manifests);
      expect(changed.filter((path) => half.get(path)?.equals(after.get(path) ?? Buffer.alloc(0)))).toHaveLength(1);
      // Half pulled: Adam's tabs name the view as the app does, its document the old way, so a
      // plan would rename the view back (the old name resolves, with a warning, since rename).
      const stuck = await runBuilt(['plan', manifests], { env });
      expect(stuck.code, stuck.stderr).toBe(0);
      expect(stuck.stdout).toContain('+ name: Customer calls');
      expect(stuck.stdout).toContain('"Phone calls" in the recordings tabs of adam.reyes@acme.test is the old name');

      // Run again as the hint says (the view now has its new name in its document, finished or not).
      const next = await runBuilt(['pull', manifests, '--target', 'RecordingView/Phone calls'], { env });
      expect(next.code, next.stderr).toBe(0);
      expect(next.stderr).toMatch(/^finished an interrupted pull: replaced /m);
      const finished = await snapshot(manifests);
      expect([...finished.keys()].sort()).toEqual([...after.keys()].sort());
      for (const [path, bytes] of after) expect(finished.get(path)?.equals(bytes), path).toBe(true);
    });
  });
});
