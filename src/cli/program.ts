import { Command } from 'commander';
import type { CliIo } from './io.js';
import type { Outcome } from './outcome.js';
import { VERSION } from '../version.js';

/** ENVIRONMENT_AND_EXIT_CODES closes `viewctl --help`: what is read from the environment, and what each exit code means. */
const ENVIRONMENT_AND_EXIT_CODES = `
Environment:
  VIEWCTL_API_KEY   the workspace key (required to talk to the service; never a flag, never printed)
  VIEWCTL_BASE_URL  the service root, before /v1 (or pass --base-url, or --emulator)
  NO_COLOR          set to turn colours off; FORCE_COLOR=1 turns them on where stdout is not a terminal

Exit codes:
  0  success (plan: in sync, with --detailed-exitcode)
  1  error before any write: invalid manifests, unreachable service, bad key, a fail-safe rule refused
  2  plan --detailed-exitcode: there are changes to apply, drift to report, or a target held
  3  apply refused: the plan is not the reviewed one, or breaks --max-deletes or --max-pin-changes; nothing written
     (a target changed since the plan is held, the rest applied: exit 0)
  4  apply failed part-way: some writes landed (or may have), others did not; the report lists both
`;

type Register = (program: Command, io: CliIo, outcome: Outcome) => void;

/**
 * COMMANDS are the commands, in the order help lists them, each loaded on demand: a
 * run imports only the module of the command it runs (`validate` never loads the
 * emulator, the HTTP client or apply), which is most of a short command's start-up.
 */
const COMMANDS: readonly (readonly [name: string, load: () => Promise<Register>])[] = [
  ['validate', async () => (await import('./validate-command.js')).registerValidateCommand],
  ['plan', async () => (await import('./plan-command.js')).registerPlanCommand],
  ['apply', async () => (await import('./apply-command.js')).registerApplyCommand],
  ['pull', async () => (await import('./pull-command.js')).registerPullCommand],
  ['rename', async () => (await import('./rename-command.js')).registerRenameCommand],
  ['show', async () => (await import('./show-command.js')).registerShowCommand],
  ['export', async () => (await import('./export-command.js')).registerExportCommand],
  ['emulator', async () => (await import('./emulator-command.js')).registerEmulatorCommand],
  ['schemas', async () => (await import('./schemas-command.js')).registerSchemasCommand],
];

/** COMMAND_NAMES are the commands' names, for messages. */
export const COMMAND_NAMES: readonly string[] = COMMANDS.map(([name]) => name);

/**
 * commandsFor are the commands `argv` needs: none for `--version`, the one it names
 * (also as `help NAME`), or all of them (top-level help, an unknown command).
 */
function commandsFor(argv: readonly string[]): (typeof COMMANDS)[number][] {
  const [first, second] = argv;
  if (first === '--version' || first === '-V') return [];
  const named = first === 'help' ? second : first;
  const one = COMMANDS.find(([name]) => name === named);
  return one === undefined ? [...COMMANDS] : [one];
}

/**
 * buildProgram assembles the commander program for `argv`. Each command lives in its
 * own file under `src/cli/` and registers itself here; actions set `outcome.exitCode`
 * and throw typed errors for `run()` to report.
 */
export async function buildProgram(io: CliIo, outcome: Outcome, argv: readonly string[]): Promise<Command> {
  const program = new Command('viewctl')
    .description('GitOps for the saved views, pinned tabs and admin automations of a workspace')
    .version(VERSION)
    .addHelpText('after', ENVIRONMENT_AND_EXIT_CODES)
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
      // run() reports commander's errors with a code and a hint, as every user error.
      outputError: () => undefined,
    });
  const registers = await Promise.all(commandsFor(argv).map(([, load]) => load()));
  for (const register of registers) register(program, io, outcome);
  return program;
}
