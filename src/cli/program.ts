import { Command } from 'commander';
import type { CliIo } from './io.js';
import { VERSION } from '../version.js';
import { registerApplyCommand } from './apply-command.js';
import { registerEmulatorCommand } from './emulator-command.js';
import { registerExportCommand } from './export-command.js';
import { registerPlanCommand } from './plan-command.js';
import { registerValidateCommand } from './validate-command.js';

/** Outcome carries the exit code a command action decided. */
export interface Outcome {
  exitCode: number;
}

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
  return program;
}
