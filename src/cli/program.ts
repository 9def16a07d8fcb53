import { Command } from 'commander';
import type { CliIo } from './io.js';
import { VERSION } from '../version.js';
import { registerApplyCommand } from './apply-command.js';
import { registerEmulatorCommand } from './emulator-command.js';
import { registerExportCommand } from './export-command.js';
import { registerPlanCommand } from './plan-command.js';
import { registerSchemasCommand } from './schemas-command.js';
import { registerValidateCommand } from './validate-command.js';

/** Outcome carries the exit code a command action decided. */
export interface Outcome {
  exitCode: number;
}

/** ENVIRONMENT_AND_EXIT_CODES closes `viewctl --help`: what is read from the environment, and what each exit code means. */
export const ENVIRONMENT_AND_EXIT_CODES = `
Environment:
  VIEWCTL_API_KEY   the workspace key (required to talk to the service; never a flag, never printed)
  VIEWCTL_BASE_URL  the service root, before /v1 (or pass --base-url, or --emulator)
  NO_COLOR          set to turn colours off; FORCE_COLOR=1 turns them on where stdout is not a terminal

Exit codes:
  0  success (plan: in sync, with --detailed-exitcode)
  1  error before any write: invalid manifests, unreachable service, bad key, a fail-safe rule refused
  2  plan --detailed-exitcode: there are changes to apply or drift to report
  3  apply refused: the plan is stale, not the reviewed one, or breaks --max-deletes; nothing written
  4  apply failed part-way: some writes landed (or may have), others did not; the report lists both
`;

/**
 * buildProgram assembles the commander program. Each command lives in its own file
 * under `src/cli/` and registers itself here; actions set `outcome.exitCode` and
 * throw typed errors for `run()` to report.
 */
export function buildProgram(io: CliIo, outcome: Outcome): Command {
  const program = new Command('viewctl')
    .description('GitOps for the saved views, pinned tabs and admin automations of a workspace')
    .version(VERSION)
    .showHelpAfterError()
    .addHelpText('after', ENVIRONMENT_AND_EXIT_CODES)
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
    });
  registerValidateCommand(program, io, outcome);
  registerPlanCommand(program, io, outcome);
  registerApplyCommand(program, io, outcome);
  registerExportCommand(program, io, outcome);
  registerEmulatorCommand(program, io, outcome);
  registerSchemasCommand(program, io, outcome);
  return program;
}
