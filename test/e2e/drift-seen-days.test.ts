import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { memoryFile } from '../support/memory-file.js';
import { tempDirs, withEmulator } from './harness.js';
import { exampleRepository, simulatedDays } from './days.js';

/**
 * When a view's edit in the app came about, over simulated nights with the sweep memory
 * (README, "Drift: who, what, when"): the memory keeps a digest of each view's
 * attributes as last read or written, so a night that finds an edit reported before
 * says it was already so then, rather than dating it again from its own last read, and
 * an edit made after viewctl repaired the view is new again.
 */

const { dir, cleanupAll } = tempDirs();
afterEach(cleanupAll);

const days = simulatedDays('2026-06-01T05:25:00.000Z');
/** The self-heal follows each night's report two minutes later, as the nightly workflow runs them. */
const heals = simulatedDays('2026-06-01T05:27:00.000Z');
const LEDGER = '.viewctl/ledger.json';
const REPORT = ['plan', 'manifests', '--budget', '1000', '--ledger', LEDGER, '--detailed-exitcode'];
const SELF_HEAL = ['apply', 'manifests', '--budget', '1000', '--ledger', LEDGER, '--auto-approve'];

/** iconInTheApp sets the icon of "Pipeline review", as someone would in the app. */
async function iconInTheApp(env: Record<string, string>, icon: string): Promise<void> {
  const response = await fetch(`${env.VIEWCTL_BASE_URL ?? ''}/v1/deals/views/dv_pipeline_review`, {
    method: 'PATCH',
    headers: { 'X-Service-Key': env.VIEWCTL_API_KEY ?? '', 'content-type': 'application/json' },
    body: JSON.stringify({ icon }),
  });
  expect(response.status).toBe(200);
}

/** when is an ISO time as drift words write it. */
const when = (iso: string): string => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

describe("a view's edit in the app, dated over simulated nights", () => {
  it('is dated between the last sighting and now once, then already so until repaired, and new again when edited after', async () => {
    const root = await exampleRepository(await dir({}));
    await withEmulator(async (_emulator, env) => {
      // Day 1: a reviewed apply; the memory sees "Pipeline review" as the manifests ask.
      expect((await days.run(1, ['apply', 'manifests', '--auto-approve', '--ledger', LEDGER], env, root)).code).toBe(0);
      const seen = (await memoryFile(join(root, LEDGER))).views['view:deals:id:dv_pipeline_review'];
      expect(seen?.digests).toBeDefined();

      // Night 2: its icon was edited in the app since day 1.
      await iconInTheApp(env, 'star');
      const first = await days.run(2, REPORT, env, root);
      expect(first.code).toBe(2);
      expect(first.stdout).toContain('1 DealView: attributes edited in the app');
      expect(first.stdout).toContain(`changed between ${when(days.on(1))} (last seen) and now`);

      // Night 3: the same edit, reported on night 2: already so then, not "between night 2 and now".
      const report = await days.run(3, REPORT, env, root);
      expect(report.stdout).toContain(
        `already so when last seen ${when(days.on(2))}: changed before, not repaired since`,
      );
      expect(report.stdout).not.toContain('changed between');
      // Its self-heal the same night says the same of what it repairs.
      const heal = await heals.run(3, SELF_HEAL, env, root);
      expect(heal.code).toBe(0);
      expect(heal.stdout).toContain(
        `already so when last seen ${when(days.on(3))}: changed before, not repaired since`,
      );
      expect(heal.stdout).not.toContain('changed between');

      // Night 4: edited to the same icon again after the repair: new, dated from the repair (what it wrote is remembered).
      await iconInTheApp(env, 'star');
      const again = await days.run(4, REPORT, env, root);
      expect(again.code).toBe(2);
      expect(again.stdout).toContain(`changed between ${when(heals.on(3))} (last seen) and now`);
      expect(again.stdout).not.toContain('already so');
    });
  });
});
