import { cp, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EXAMPLES, runBuilt, tempDirs, withEmulator } from './harness.js';

const { dir, cleanupAll } = tempDirs();
afterEach(cleanupAll);

describe('viewctl plan --out', () => {
  it('refuses to write over a manifest it read, before any request', async () => {
    const manifests = await dir({});
    await cp(EXAMPLES, manifests, { recursive: true });
    const before = await readFile(join(manifests, 'workspace.yaml'), 'utf8');
    await withEmulator(async (emulator, env) => {
      emulator.resetStats();
      const run = await runBuilt(['plan', '.', '--out', 'workspace.yaml'], { env, cwd: manifests });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain('error[output.overwrites-manifest]: --out workspace.yaml is a manifest this plan read');
      expect(emulator.stats().requests).toBe(0);
    });
    expect(await readFile(join(manifests, 'workspace.yaml'), 'utf8')).toBe(before);
  });

  it('fails on a folder that does not exist before spending any request', async () => {
    await withEmulator(async (emulator, env) => {
      emulator.resetStats();
      const run = await runBuilt(['plan', EXAMPLES, '--out', '/nonexistent/x'], { env });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain('error[output.write-failed]: cannot write /nonexistent/x: ENOENT; nothing was read from the service');
      expect(emulator.stats().requests).toBe(0);
    });
  });
});
