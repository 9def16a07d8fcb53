import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram, COMMAND_NAMES } from '../../src/cli/program.js';
import { runInProcess } from '../support/cli.js';
import { quietIo } from '../support/cli.js';

/**
 * Commander's own errors read as every user error does (issue 36: `schemas` without
 * `--out` carried no code and no hint), and a command's help names only options it takes.
 */
describe("commander's errors", () => {
  it.each([
    [['schemas'], 'usage.missing-option', "required option '--out <dir>' not specified", 'viewctl schemas --help'],
    [['pull', '--ledger', 'm.json'], 'usage.unknown-option', "unknown option '--ledger'", 'viewctl pull --help'],
    [['plan', '--format', 'yaml'], 'usage.bad-value', "argument 'yaml' is invalid", 'viewctl plan --help'],
    [['plna'], 'usage.unknown-command', "unknown command 'plna'", 'viewctl --help lists the commands'],
    [['show'], 'usage.missing-argument', "missing required argument 'plan'", 'viewctl show --help'],
  ])('viewctl %j: error[%s] with a hint, exit 1, no help dumped', async (args, code, message, hint) => {
    const result = await runInProcess(args);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(new RegExp(`^error\\[${code.replace('.', '\\.')}\\]: `));
    expect(result.stderr).toContain(message);
    expect(result.stderr).toContain(`  hint: ${hint}`);
    expect(result.stderr).not.toContain('Usage:');
  });

  it('still prints help and the version, exit 0', async () => {
    expect(await runInProcess(['plan', '--help'])).toMatchObject({
      code: 0,
      stdout: expect.stringContaining('Usage:'),
    });
    expect((await runInProcess(['--version'])).code).toBe(0);
  });
});

describe('the help of each command', () => {
  it('names only options the command takes (issue 36: pull --help named --ledger, which pull refuses)', async () => {
    const program: Command = await buildProgram(quietIo('.'), { exitCode: 0 }, []);
    const foreign: string[] = [];
    for (const name of COMMAND_NAMES) {
      const command = program.commands.find((candidate) => candidate.name() === name);
      const flags = new Set(command?.options.map((option) => option.long) ?? []);
      for (const option of command?.options ?? []) {
        // An option of another command, quoted with it (`viewctl plan --out`), is no claim about this one.
        const own = option.description.replace(
          /viewctl (\w+)((?: --?[\w-]+(?: [\w.<>]+)?)+)/g,
          (whole, other: string) => (other === name ? whole : ''),
        );
        for (const [named] of own.matchAll(/--[a-z][a-z-]*/g)) {
          if (!flags.has(named) && named !== '--help') foreign.push(`${name} ${option.long}: ${named}`);
        }
      }
    }
    expect(foreign).toEqual([]);
  });
});
