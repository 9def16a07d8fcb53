import type { CommanderError } from 'commander';
import { UsageError } from '../errors.js';

/**
 * Commander's own errors (an unknown option, a required option missing, a value not
 * among the choices) reported as every other user error is: `error[CODE]: message`
 * and a hint, exit 1. Commander names its errors by a code of its own; USAGE_CODES
 * maps each to a stable viewctl code (README, "Troubleshooting").
 */
const USAGE_CODES: Readonly<Record<string, string>> = {
  'commander.unknownOption': 'usage.unknown-option',
  'commander.unknownCommand': 'usage.unknown-command',
  'commander.missingMandatoryOptionValue': 'usage.missing-option',
  'commander.optionMissingArgument': 'usage.missing-value',
  'commander.missingArgument': 'usage.missing-argument',
  'commander.excessArguments': 'usage.too-many-arguments',
  'commander.invalidArgument': 'usage.bad-value',
  'commander.conflictingOption': 'usage.conflicting-options',
};

/** COMMANDER_EXITS are commander's ways of ending that are no error: help and the version were printed. */
const COMMANDER_EXITS = new Set(['commander.helpDisplayed', 'commander.help', 'commander.version']);

/**
 * commanderUsageError is the UsageError a commander error stands for, or undefined when
 * commander ended without an error (help, version). `command` is the command the
 * arguments name, if any, for the hint.
 */
export function commanderUsageError(error: CommanderError, command: string | undefined): UsageError | undefined {
  if (error.exitCode === 0 || COMMANDER_EXITS.has(error.code)) return undefined;
  const code = USAGE_CODES[error.code] ?? 'usage.invalid';
  const message = error.message.replace(/^error: /, '');
  const hint =
    command === undefined
      ? 'viewctl --help lists the commands; viewctl COMMAND --help lists the options of one'
      : `viewctl ${command} --help lists its arguments and options`;
  return new UsageError(code, message, hint);
}
