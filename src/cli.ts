#!/usr/bin/env node
import { run } from './cli/run.js';

// The bin entry: everything, including the exit code, is decided in run().
process.exitCode = await run(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  env: process.env,
  cwd: process.cwd(),
});
