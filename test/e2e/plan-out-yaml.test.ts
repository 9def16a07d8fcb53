import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runBuilt, tempDirs, withEmulator } from './harness.js';

const { dir, cleanupAll } = tempDirs();
afterEach(cleanupAll);

describe('plan --out FILE.yaml inside the manifests', () => {
  it('is refused before any request, and nothing is written there', async () => {
    const root = await dir({ 'manifests/workspace.yaml': 'kind: Workspace\n' });
    await withEmulator(async (emulator, env) => {
      const run = await runBuilt(['plan', 'manifests', '--out', 'manifests/plan.yaml'], { env, cwd: root });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain('error[output.in-manifests]: --out manifests/plan.yaml is a YAML file inside');
      expect(run.stderr).toContain('hint: write the plan outside the manifests');
      expect(emulator.stats().requests).toBe(0);
      expect(existsSync(join(root, 'manifests', 'plan.yaml'))).toBe(false);
    });
  });
});
