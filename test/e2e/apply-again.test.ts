import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EXAMPLES, runBuilt, runCli, tempDirs, withEmulator } from './harness.js';

const { dir, cleanupAll } = tempDirs();
afterEach(cleanupAll);

interface SavedUpdate {
  action: string;
  domain: string;
  id: string;
  name: string;
  before: Record<string, unknown>;
}

/**
 * `apply --plan` of a plan applied before (README, "The plan file and its digest"):
 * applied in full, it says so, exits 0 and writes nothing; applied but for a target
 * since put back as it was, it applies only that one.
 */
describe('viewctl apply --plan of a plan applied before', () => {
  it('says "already applied" and exits 0 without a write, from the one re-read of its targets', async () => {
    const out = await dir({});
    const planFile = join(out, 'plan.json');
    await withEmulator(async (emulator, env) => {
      await runBuilt(['plan', '--rate', '1000', EXAMPLES, '--out', planFile], { env });
      const { digest } = JSON.parse(await readFile(planFile, 'utf8')) as { digest: string };
      const first = await runBuilt(['apply', '--rate', '1000', '--plan', planFile], { env });
      expect(first.code).toBe(0);
      expect(emulator.stats().writes).toBe(5);
      emulator.resetStats();
      const again = await runCli(['apply', '--rate', '1000', '--plan', planFile], { env });
      expect(again.code).toBe(0);
      expect(again.stdout).toContain(`Already applied: plan ${digest}`);
      expect(again.stdout).toContain('nothing was sent');
      expect(emulator.stats().writes).toBe(0);
      const reads = emulator.stats().requests;
      // As JSON: the report says so, lists each change, and counts the same re-reads.
      emulator.resetStats();
      const json = await runBuilt(['apply', '--rate', '1000', '--plan', planFile, '--format', 'json'], { env });
      expect(json.code).toBe(0);
      const report = JSON.parse(json.stdout) as {
        status: string;
        digest: string;
        alreadyApplied: unknown[];
        landed: unknown[];
        requests: number;
      };
      expect(report).toMatchObject({ status: 'already-applied', digest, landed: [] });
      expect(report.alreadyApplied).toHaveLength(5);
      expect(report.requests).toBe(reads);
      expect(emulator.stats().writes).toBe(0);
    });
  });

  it('applies only the target put back as it was, and reports the others as already applied', async () => {
    const out = await dir({});
    const planFile = join(out, 'plan.json');
    await withEmulator(async (emulator, env) => {
      await runBuilt(['plan', '--rate', '1000', EXAMPLES, '--out', planFile], { env });
      expect((await runBuilt(['apply', '--rate', '1000', '--plan', planFile], { env })).code).toBe(0);
      const plan = JSON.parse(await readFile(planFile, 'utf8')) as { changes: SavedUpdate[] };
      const update = plan.changes.find((change) => change.action === 'update');
      if (update === undefined) throw new Error('the examples plan no update');
      // Someone puts the updated view back as it was before the plan, in the app.
      const reverted = await fetch(`${emulator.url}/v1/${update.domain}/views/${update.id}`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json', 'x-service-key': emulator.apiKey },
        body: JSON.stringify({ icon: null, ...update.before }),
      });
      expect(reverted.status).toBe(200);
      emulator.resetStats();
      const again = await runBuilt(['apply', '--rate', '1000', '--plan', planFile, '--format', 'json'], { env });
      expect(again.code).toBe(0);
      const report = JSON.parse(again.stdout) as {
        status: string;
        landed: Array<{ action: string; id?: string }>;
        alreadyApplied: Array<{ action: string }>;
      };
      expect(report.status).toBe('applied');
      expect(report.landed.map((entry) => [entry.action, entry.id])).toEqual([['update', update.id]]);
      expect(report.alreadyApplied.map((entry) => entry.action)).toEqual(['create', 'pin', 'pin', 'pin']);
      expect(emulator.stats().writes).toBe(1);
    });
  });
});
