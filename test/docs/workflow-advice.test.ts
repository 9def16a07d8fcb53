import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commandHelp, topLevelCommands } from './cli-help.js';
import { ACTION, REPO, loadAction, loadWorkflow, stepById, stepByName } from './workflow-files.js';

/**
 * The advice the drift issue and the run summaries give must work as written (issue 36:
 * they said to keep an app change with `viewctl export`, which needs `--merge` in an
 * existing folder, and to undo drift with "a pull request (an empty commit will do)",
 * whose plan reads no list and changes nothing). Every `viewctl ...` they quote names a
 * command and options that exist; e2e/drift-advice.test.ts runs them.
 */
const FILES = [
  '.github/actions/viewctl/action.yml',
  'examples/.github/workflows/viewctl-plan.yml',
  'examples/.github/workflows/viewctl-apply.yml',
  'examples/.github/workflows/viewctl-drift.yml',
];

function quotedCommands(text: string): string[] {
  return [...text.matchAll(/`(viewctl [^`]+)`/g)].map((match) => (match[1] ?? '').replace(/\\$/, ''));
}

describe('the advice of the workflows and the action', () => {
  const commands = topLevelCommands();
  const helps = new Map<string, Set<string>>();
  const flagsOf = (command: string): Set<string> => {
    const known = helps.get(command) ?? new Set(commandHelp(command).options.map((option) => option.flag));
    helps.set(command, known);
    return known;
  };

  it.each(FILES)('%s quotes only viewctl commands and options that exist', (file) => {
    for (const quoted of quotedCommands(readFileSync(join(REPO, file), 'utf8'))) {
      const [, command = '', ...words] = quoted.split(/\s+/);
      expect(commands, quoted).toContain(command);
      const flags = flagsOf(command);
      for (const word of words.filter((candidate) => candidate.startsWith('--'))) {
        expect(flags.has(word.split('=')[0] ?? word), `${file}: ${quoted}`).toBe(true);
      }
    }
  });

  it('keeps an app change with viewctl pull, and undoes drift by a repair, never an empty pull request', () => {
    const action = readFileSync(join(REPO, FILES[0] ?? ''), 'utf8');
    const drift = readFileSync(join(REPO, FILES[3] ?? ''), 'utf8');
    for (const text of [action, drift]) {
      expect(text).toMatch(/keep a change made in the application[^.]*`viewctl pull`/i);
      expect(text).toContain('`viewctl apply --target pins/EMAIL`');
      expect(text).not.toContain('`viewctl export`');
      expect(text).not.toMatch(/empty\s+(#\s*)?commit/);
    }
  });

  it('answers a reviewed plan not carried out whole with the recovery the pipeline runs, never "open a pull request to plan again"', () => {
    const text = readFileSync(join(REPO, ACTION), 'utf8');
    expect(text).not.toMatch(/open a pull request to plan|plan main again/);
    const action = loadAction(ACTION);
    const workflow = loadWorkflow(FILES[2] ?? '');
    // The advice names the recover job, its environment and the plan it applies: each exists as named.
    const report = String(stepByName(action, 'Report on the pull requests').with?.script);
    const drift = [
      String(stepById(action, 'drift').run),
      String(stepByName(action, 'Open, update or close the drift issue').with?.script),
    ];
    for (const advice of [report, String(stepById(action, 'recovery-plan').run), ...drift]) {
      expect(advice).toMatch(/approve the recover job|approve its waiting recover job/i);
      expect(advice).toContain('environment viewctl-apply');
    }
    const recover = workflow.jobs.recover;
    expect(recover?.environment).toBe('viewctl-apply');
    expect(recover?.steps.some((step) => step.with?.command === 'recover')).toBe(true);
    // The recovery plans from the memory's last applied commit, with the flags plan has.
    const plan = flagsOf('plan');
    for (const flag of ['--since-applied', '--ledger', '--out']) expect(plan.has(flag), flag).toBe(true);
    expect(flagsOf('apply').has('--expect-digest')).toBe(true);
    expect(String(stepById(action, 'recovery-plan').run)).toContain(
      'viewctl plan "$MANIFESTS" --since-applied --ledger .viewctl/ledger.json',
    );
  });
});
