import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commandHelp, topLevelCommands } from './cli-help.js';
import { REPO } from './workflow-files.js';

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
});
