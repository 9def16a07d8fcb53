import { execFileSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sinceAppliedBase } from '../../src/flows/plan-since-applied.js';
import { ViewctlError } from '../../src/errors.js';
import { scratchDir } from '../support/cli.js';

/** `plan --since-applied`: which --base a plan takes from the sweep memory's last applied commit (README, "Scoped and budgeted plans"). */

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.email=t@acme.test', '-c', 'user.name=T', ...args], {
    cwd,
    encoding: 'utf8',
  }).trim();
}

/**
 * history lays out main: `applied` (the last applied commit), then a merge changing a
 * manifest, a commit changing only the README, a second merge changing a manifest
 * (`head`), and `side`, a commit off main's history.
 */
async function history(): Promise<{ dir: string; applied: string; readme: string; head: string; side: string }> {
  const made = await scratchDir({ 'm/calls.yaml': 'kind: RecordingView\nname: Calls\n', 'README.md': 'x\n' });
  cleanups.push(made.cleanup);
  const { dir } = made;
  git(dir, 'init', '-q', '--initial-branch=main');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'applied');
  const applied = git(dir, 'rev-parse', 'HEAD');
  const change = async (branch: string, icon: string): Promise<void> => {
    git(dir, 'checkout', '-qb', branch);
    await writeFile(join(dir, 'm', 'calls.yaml'), `kind: RecordingView\nname: Calls\nicon: ${icon}\n`);
    git(dir, 'commit', '-qam', branch);
    git(dir, 'checkout', '-q', 'main');
    git(dir, 'merge', '-q', '--no-ff', '-m', `merge ${branch}`, branch);
  };
  await change('one', 'phone');
  await writeFile(join(dir, 'README.md'), 'y\n');
  git(dir, 'commit', '-qam', 'readme');
  const readme = git(dir, 'rev-parse', 'HEAD');
  await change('two', 'star');
  const head = git(dir, 'rev-parse', 'HEAD');
  git(dir, 'checkout', '-qb', 'side', applied);
  git(dir, 'commit', '-q', '--allow-empty', '-m', 'side');
  const side = git(dir, 'rev-parse', 'HEAD');
  git(dir, 'checkout', '-q', 'main');
  return { dir, applied, readme, head, side };
}

const LEDGER = '.viewctl/ledger.json';
const codeOf = async (run: Promise<unknown>): Promise<string | undefined> =>
  run.then(
    () => undefined,
    (error: unknown) => (error instanceof ViewctlError ? error.code : String(error)),
  );

describe('sinceAppliedBase', () => {
  it('is --base as given without the flag, and needs --ledger with it', async () => {
    expect(await sinceAppliedBase({ base: 'origin/main' }, {}, ['m'], '/nonexistent')).toEqual({
      base: 'origin/main',
      warnings: [],
    });
    expect(await codeOf(sinceAppliedBase({ sinceApplied: true }, { commit: 'a'.repeat(40) }, ['m'], '.'))).toBe(
      'usage.since-applied-without-ledger',
    );
  });

  it('plans from the last applied commit, saying how many merged changes of the manifests it adds', async () => {
    const { dir, applied } = await history();
    const short = applied.slice(0, 7);
    expect(await sinceAppliedBase({ sinceApplied: true }, { ledgerFile: LEDGER, commit: applied }, ['m'], dir)).toEqual(
      {
        base: applied,
        warnings: [
          {
            code: 'plan.includes-unapplied',
            message: `planned from the last applied commit ${short} (sweep memory): includes 2 merged changes never applied since ${short}`,
          },
        ],
      },
    );
    // With --base REF: the same when the commit is an ancestor of REF, named against REF.
    const withBase = await sinceAppliedBase(
      { base: 'main', sinceApplied: true },
      { ledgerFile: LEDGER, commit: applied },
      ['m'],
      dir,
    );
    expect(withBase.base).toBe(applied);
    expect(withBase.warnings[0]?.message).toContain(`(sweep memory), not --base main: includes 2 merged changes`);
  });

  it('keeps --base REF, saying nothing, when REF is the last applied commit, holds the same manifests, or is older', async () => {
    const { dir, applied, readme, head } = await history();
    const memory = { ledgerFile: LEDGER };
    for (const [ref, commit] of [
      [head, head],
      // Only the README changed since the applied commit: REF's plan is the same plan.
      [readme, git(dir, 'rev-parse', `${readme}~1`)],
      // Applied after REF: REF's plan reads more and misses nothing.
      [applied, head],
    ] as const)
      expect(await sinceAppliedBase({ base: ref, sinceApplied: true }, { ...memory, commit }, ['m'], dir)).toEqual({
        base: ref,
        warnings: [],
      });
  });

  it('falls back to --base REF with a warning, or without it fails, when there is no record, the checkout lacks it, or it is off REF', async () => {
    const { dir, side } = await history();
    const cases = [
      [undefined, 'usage.no-applied-commit', 'records no applied commit'],
      ['f'.repeat(40), 'usage.applied-commit-unknown', 'is not in this checkout'],
    ] as const;
    for (const [commit, code, why] of cases) {
      expect(await codeOf(sinceAppliedBase({ sinceApplied: true }, { ledgerFile: LEDGER, commit }, ['m'], dir))).toBe(
        code,
      );
      const fallback = await sinceAppliedBase(
        { base: 'main', sinceApplied: true },
        { ledgerFile: LEDGER, commit },
        ['m'],
        dir,
      );
      expect(fallback.base).toBe('main');
      expect(fallback.warnings.map((warning) => warning.code)).toEqual(['plan.applied-commit-unused']);
      expect(fallback.warnings[0]?.message).toContain(why);
      expect(fallback.warnings[0]?.message).toContain('planned --base main instead');
    }
    const off = await sinceAppliedBase(
      { base: 'main', sinceApplied: true },
      { ledgerFile: LEDGER, commit: side },
      ['m'],
      dir,
    );
    expect(off.base).toBe('main');
    expect(off.warnings[0]?.message).toContain('is not on the history of --base main');
  });
});
