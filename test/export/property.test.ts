import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { startEmulator } from '../../src/emulator/server.js';
import { exportWorkspace } from '../../src/flows/export-workspace.js';
import { connected } from '../../src/flows/run-edges.js';
import { nodeManifestSource } from '../../src/manifest/source.js';
import { buildWorkspace, workspaceSeeds } from './arbitraries.js';
import { FAST_LIMITS, clientFor, planManifests } from './helpers.js';

describe.each(['groups', 'per-member'] as const)('export --pins %s then plan, on random workspaces', (pinLayout) => {
  it('validates and plans no change', async () => {
    await fc.assert(
      fc.asyncProperty(workspaceSeeds(), async (seeds) => {
        const emulator = await startEmulator({ data: buildWorkspace(seeds), port: 0, ...FAST_LIMITS });
        const dir = await mkdtemp(join(tmpdir(), 'viewctl-export-property-'));
        try {
          const client = clientFor(emulator);
          // The flows `viewctl export --all-users` and `viewctl plan` call, as they call them.
          await exportWorkspace(
            { out: 'm', allUsers: true, reserve: 0, rate: 1000, pinLayout },
            { cwd: dir, connect: connected(client) },
          );
          const { problems, plan } = await planManifests(['m'], nodeManifestSource(dir), client);
          expect(problems.filter((problem) => problem.severity === 'error')).toEqual([]);
          expect(plan?.changes).toEqual([]);
          expect(emulator.stats().writes).toBe(0);
        } finally {
          await emulator.close();
          await rm(dir, { recursive: true, force: true });
        }
      }),
      { numRuns: 8, seed: 20261101, endOnFailure: true },
    );
    // Eight exports written to disk and planned: a loaded machine needs more than the default.
  }, 60_000);
});
