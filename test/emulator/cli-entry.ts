import { Command } from 'commander';
import { registerEmulatorCommand } from '../../src/cli/emulator-command.js';

// Runs `viewctl emulator` alone in a child process, so the signal test does not depend
// on the lead wiring the command into src/cli/program.ts.
const program = new Command('viewctl').exitOverride();
const outcome = { exitCode: 0 };
registerEmulatorCommand(
  program,
  { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env, cwd: process.cwd() },
  outcome,
);
await program.parseAsync(process.argv.slice(2), { from: 'user' });
process.exitCode = outcome.exitCode;
