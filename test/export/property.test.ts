import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { startEmulator } from '../../src/emulator/server.js';
import { exportFiles } from '../../src/export/export-files.js';
import { selectPinUsers } from '../../src/export/pin-users.js';
import { memoryManifestSource } from '../../src/manifest/source.js';
import { readExport } from '../../src/state/read-export.js';
import { buildWorkspace, workspaceSeeds } from './arbitraries.js';
import { FAST_LIMITS, clientFor, planManifests } from './helpers.js';

describe.each(['groups', 'per-member'] as const)('export --pins %s then plan, on random workspaces', (pinLayout) => {
  it('validates and plans no change', async () => {
    await fc.assert(
      fc.asyncProperty(workspaceSeeds(), async (seeds) => {
        const emulator = await startEmulator({ data: buildWorkspace(seeds), port: 0, ...FAST_LIMITS });
        try {
          const client = clientFor(emulator);
          const exported = await readExport(client, { selectUsers: (users) => selectPinUsers(users, { kind: 'all' }) });
          const everyone = exported.live.users ?? [];
          const { files } = exportFiles({ ...exported, schemas: new Map(), pinLayout, everyone });
          const { problems, plan } = await planManifests(['.'], memoryManifestSource(files), client);
          expect(problems.filter((problem) => problem.severity === 'error')).toEqual([]);
          expect(plan?.changes).toEqual([]);
          expect(emulator.stats().writes).toBe(0);
        } finally {
          await emulator.close();
        }
      }),
      { numRuns: 8, seed: 20261101, endOnFailure: true },
    );
  });
});
