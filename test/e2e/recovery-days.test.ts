import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/server.js';
import { viewctlInvocations } from '../docs/shell-commands.js';
import { ACTION, loadAction, stepById, type Step } from '../docs/workflow-files.js';
import { memoryFile } from '../support/memory-file.js';
import { exampleRepository, git, simulatedDays } from './days.js';
import { tempDirs, withEmulator } from './harness.js';
import { inTheApp } from './in-the-app.js';

/**
 * The pipeline's recovery from a reviewed plan that is not carried out (issue 33: one
 * stale apply blinded the nightly for a month, and the advice given planned nothing),
 * followed over simulated days as the action runs it: each viewctl command below is
 * the one the action's step runs (read from action.yml, its shell variables filled
 * in as the runner fills them), run through the built CLI against the emulator, in a
 * git repository whose merges the sweep memory records as applied.
 */

const { dir, cleanupAll } = tempDirs();
afterEach(cleanupAll);

const days = simulatedDays('2026-04-01T03:00:00.000Z');
const LEDGER = '.viewctl/ledger.json';
const VIEW = 'manifests/views/recordings/budget-confirmed.yaml';
const MIA = 'mia.chen%40acme.test';
const action = loadAction(ACTION);

/**
 * actionCall is the viewctl command line a step of the action runs (the `nth` of that
 * step's calls), with its shell words filled in: each `"$NAME"` from `values`, and each
 * `"${array[@]}"` from `arrays` (what the script built; none when absent).
 */
function actionCall(
  step: Step,
  nth: number,
  values: Record<string, string>,
  arrays: Record<string, string[]> = {},
): string[] {
  const call = viewctlInvocations(step.run ?? '')[nth];
  if (call?.subcommand === undefined) throw new Error(`${step.name} has no viewctl call ${nth}`);
  return [call.subcommand, ...call.args].flatMap((word) => {
    const array = /^\$\{(\w+)\[@\]\}$/.exec(word);
    if (array !== null) return arrays[array[1] ?? ''] ?? [];
    return [word.replace(/\$(\w+)/g, (_, name: string) => values[name] ?? `$${name}`)];
  });
}

const LIMITS = { MANIFESTS: 'manifests', MAX_DELETES: '5', MAX_PIN_CHANGES: '100' };

/** prPlan is the pull request job's plan, as the action runs it with the memory restored: `--base BASE --since-applied` (a first plan: every list). */
const prPlan = (base?: string): string[] =>
  actionCall(stepById(action, 'plan'), 0, LIMITS, {
    scope: base === undefined ? [] : ['--base', base, '--since-applied'],
  });
/** reviewedApply is the apply job's apply of a downloaded reviewed plan. */
const reviewedApply = (digest: string): string[] =>
  actionCall(stepById(action, 'apply'), 0, { ...LIMITS, pr: '5', digest });
/** recoveryPlan is the apply job's plan of the recovery (its first call: --since-applied). */
const recoveryPlan = (): string[] => actionCall(stepById(action, 'recovery-plan'), 0, LIMITS);
/** recoveryApply is the recover job's apply of the approved recovery plan. */
const recoveryApply = (digest: string): string[] =>
  actionCall(stepById(action, 'recover'), 0, { ...LIMITS, DIGEST: digest });
/** selfHeal is the nightly drift job with repair: true. */
const selfHeal = (): string[] => actionCall(stepById(action, 'drift'), 0, LIMITS, { budget: ['--budget', '1000'] });

async function liveName(emulator: RunningEmulator, id: string): Promise<string | undefined> {
  const response = await fetch(`${emulator.url}/v1/recordings/views`, {
    headers: { 'x-service-key': emulator.apiKey },
  });
  const body = (await response.json()) as { result: { viewId: string; name: string }[] };
  return body.result.find((view) => view.viewId === id)?.name;
}

const digestOf = async (root: string, file: string): Promise<string> =>
  (JSON.parse(await readFile(join(root, file), 'utf8')) as { digest: string }).digest;

/** pullRequest commits a change on a branch and checks it out, as the plan job's checkout of the merge would hold it. */
async function pullRequest(root: string, branch: string, change: () => Promise<void>): Promise<void> {
  git(root, 'checkout', '--quiet', '-b', branch, 'main');
  await change();
  git(root, 'commit', '--quiet', '-am', branch);
}

/** merge merges the branch into main with a merge commit (the push the apply job runs on) and answers it. */
function merge(root: string, branch: string): string {
  git(root, 'checkout', '--quiet', 'main');
  git(root, 'merge', '--quiet', '--no-ff', '-m', `Merge ${branch}`, branch);
  return git(root, 'rev-parse', 'HEAD');
}

async function rename(root: string, name: string): Promise<void> {
  const path = join(root, VIEW);
  await writeFile(path, (await readFile(path, 'utf8')).replace('name: Budget confirmed', `name: ${name}`));
}

/** day1 is the first reviewed apply: a pull request's plan, merged, applied with the memory; answers the commit it records. */
async function day1(root: string, env: Record<string, string>): Promise<string> {
  await mkdir(join(root, 'reviewed', '5'), { recursive: true });
  const planned = await days.run(1, prPlan(), env, root);
  expect(planned.code, planned.stderr).toBe(2);
  await writeFile(join(root, 'reviewed/5/plan.json'), await readFile(join(root, 'plan.json')));
  const applied = await days.run(1, reviewedApply(await digestOf(root, 'plan.json')), env, root);
  expect(applied.code, applied.stderr).toBe(0);
  const head = git(root, 'rev-parse', 'HEAD');
  expect((await memoryFile(join(root, LEDGER))).lastApplied?.commit).toBe(head);
  return head;
}

/**
 * staleReviewedApply plans a pull request renaming "Budget confirmed" on day 2, lets a
 * person change that view in the app before the merge's apply, and runs the apply:
 * refused as stale (exit 3), or, where stale targets are held instead, applied without
 * them (exit 0, the memory recording them as held). Answers the merge commit.
 */
async function staleReviewedApply(root: string, emulator: RunningEmulator, env: Record<string, string>) {
  const base = git(root, 'rev-parse', 'main');
  await pullRequest(root, 'rename', () => rename(root, 'Budget OK'));
  const planned = await days.run(2, prPlan(base), env, root);
  expect(planned.code, planned.stderr).toBe(2);
  // The memory's last applied commit is the base: nothing merged is left unapplied, so nothing is said.
  expect(planned.stdout).not.toContain('never applied since');
  await writeFile(join(root, 'reviewed/5/plan.json'), await readFile(join(root, 'plan.json')));
  await inTheApp(emulator, 'PATCH', '/v1/recordings/views/rv_budget_confirmed', { icon: 'star' });
  const merged = merge(root, 'rename');
  const applied = await days.run(2, reviewedApply(await digestOf(root, 'plan.json')), env, root);
  const memory = await memoryFile(join(root, LEDGER));
  if (applied.code === 3) {
    expect(applied.stderr).toContain('rv_budget_confirmed');
    expect(memory.lastApplied?.commit).toBe(base);
  } else {
    expect(applied.code, applied.stderr).toBe(0);
    expect(memory.lastApplied?.held?.length ?? 0).toBeGreaterThan(0);
  }
  expect(await liveName(emulator, 'rv_budget_confirmed')).toBe('Budget confirmed');
  return { base, merged, refused: applied.code === 3 };
}

describe('the recovery from a stale apply, as the action runs it (issue 33)', () => {
  it('the recovery plan from the last applied commit shows the merged change; approved, it applies, advances the record, and the next night sweeps and repairs', async () => {
    const root = await exampleRepository(await dir({}));
    await withEmulator(async (emulator, env) => {
      await day1(root, env);
      const { base, merged, refused } = await staleReviewedApply(root, emulator, env);

      // Until the recovery, a repair night only sweeps and reports: a reviewed apply is due (or the target is held).
      if (refused) {
        const blind = await days.run(2, selfHeal(), env, root);
        expect(blind.code, blind.stderr).toBe(2);
        expect(blind.stdout).toContain('A reviewed apply is due');
      }

      // The apply job's recovery: main's manifests planned from the last applied commit, with the memory.
      await mkdir(join(root, 'recovery'), { recursive: true });
      const recovery = await days.run(2, recoveryPlan(), env, root);
      expect(recovery.code, recovery.stderr).toBe(2);
      expect(recovery.stdout).toContain('Budget OK');
      const plan = JSON.parse(await readFile(join(root, 'recovery/plan.json'), 'utf8')) as {
        digest: string;
        scope?: { base?: { commit: string } };
      };
      const applied = (await memoryFile(join(root, LEDGER))).lastApplied?.commit;
      expect(plan.scope?.base?.commit).toBe(applied);
      if (refused) {
        expect(applied).toBe(base);
        // What it costs: the lists changed since that commit, not every list; and it says what it adds.
        expect(recovery.stdout).toContain(`includes 1 merged change never applied since ${base.slice(0, 7)}`);
      }

      // Approved: the recover job applies exactly that plan; exit 0 records the merge as applied.
      const recovered = await days.run(2, recoveryApply(plan.digest), env, root);
      expect(recovered.code, recovered.stderr).toBe(0);
      expect(await liveName(emulator, 'rv_budget_confirmed')).toBe('Budget OK');
      const record = (await memoryFile(join(root, LEDGER))).lastApplied;
      expect(record?.commit).toBe(merged);
      expect(record?.held ?? []).toEqual([]);

      // Day 3: Mia re-orders her tabs in the app; the nightly self-heal is no longer review-due: it sweeps and repairs.
      await inTheApp(emulator, 'PUT', `/v1/recordings/views/pinned?userEmail=${MIA}`, {
        viewIds: ['rv_video_meetings', 'rv_mia_followups'],
      });
      const night = await days.run(3, selfHeal(), env, root);
      expect(night.code, night.stderr).toBe(0);
      expect(night.stdout).not.toContain('A reviewed apply is due');
      expect(night.stdout).toMatch(/Repaired: .*mia\.chen@acme\.test/);
    });
  });

  it('left to the next merge: the next pull request plans from the last applied commit, says so, and its apply lands both and advances the record', async () => {
    const root = await exampleRepository(await dir({}));
    await withEmulator(async (emulator, env) => {
      await day1(root, env);
      const { base, refused } = await staleReviewedApply(root, emulator, env);

      // The recovery is rejected; the next pull request changes Mia's tabs, planned on main with the memory.
      const mainNow = git(root, 'rev-parse', 'main');
      await pullRequest(root, 'mia', async () => {
        const path = join(root, 'manifests/pins/mia.yaml');
        await writeFile(
          path,
          (await readFile(path, 'utf8')).replace('  - Team calls\n', '  - Team calls\n  - Customer calls\n'),
        );
      });
      const planned = await days.run(2, prPlan(mainNow), env, root);
      expect(planned.code, planned.stderr).toBe(2);
      expect(planned.stdout).toContain('Budget OK');
      if (refused)
        expect(planned.stdout).toContain(
          `planned from the last applied commit ${base.slice(0, 7)} (sweep memory), not --base ${mainNow}: includes 1 merged change never applied since ${base.slice(0, 7)}`,
        );
      await writeFile(join(root, 'reviewed/5/plan.json'), await readFile(join(root, 'plan.json')));
      const merged = merge(root, 'mia');
      const applied = await days.run(3, reviewedApply(await digestOf(root, 'plan.json')), env, root);
      expect(applied.code, applied.stderr).toBe(0);
      expect(applied.stderr).not.toContain('was not advanced');
      expect(await liveName(emulator, 'rv_budget_confirmed')).toBe('Budget OK');
      expect((await memoryFile(join(root, LEDGER))).lastApplied?.commit).toBe(merged);
      const night = await days.run(3, selfHeal(), env, root);
      expect(night.code, night.stderr).toBe(0);
      expect(night.stdout).not.toContain('A reviewed apply is due');
    });
  });
});
