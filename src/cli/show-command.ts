import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { checkPlanIdentity, readPlanFile } from '../apply/gates.js';
import { EXIT, systemErrorCode, UsageError, ViewctlError } from '../errors.js';
import type { Plan } from '../plan/types.js';
import { renderPlan, type OutputFormat } from '../render/render-plan.js';
import { detailsUrlOption } from './details-url-option.js';
import type { CliIo } from './io.js';
import { maxDeletesOption } from './max-deletes-option.js';
import { maxPinChangesOption } from './max-pin-changes-option.js';
import { formatOption, useColor } from './output.js';
import { showWarningsOption } from './show-warnings-option.js';
import type { Outcome } from './outcome.js';

interface ShowOptions {
  format: OutputFormat;
  detailsUrl?: string;
  maxDeletes: number;
  maxPinChanges: number;
  showWarnings?: boolean;
}

/**
 * registerShowCommand adds `viewctl show PLAN.json`: print a plan saved by `plan --out`
 * as text, markdown or JSON, without the service (no network, no key). The file is
 * checked as `apply --plan` checks it before reading anything (its shape, version,
 * digest and that its changes and steps agree), so what is shown is what apply would
 * carry out; a file apply would refuse is an error here too, exit 1.
 */
export function registerShowCommand(program: Command, io: CliIo, outcome: Outcome): void {
  program
    .command('show')
    .description('print a plan saved by viewctl plan --out, as text, markdown or JSON (reads no service)')
    .argument('<plan>', 'the plan file (JSON) written by viewctl plan --out')
    .addOption(formatOption())
    .addOption(detailsUrlOption())
    .addOption(maxDeletesOption('say that apply will refuse the plan when it deletes more than N views'))
    .addOption(
      maxPinChangesOption("say that apply will refuse the plan when it rewrites more than N members' pinned lists"),
    )
    .addOption(showWarningsOption())
    .action(async (file: string, options: ShowOptions) => {
      const plan = await readSavedPlan(file, io);
      io.stdout.write(
        renderPlan(plan, options.format, {
          color: useColor(io.stdout, io.env),
          planFile: file,
          maxDeletes: options.maxDeletes,
          maxPinChanges: options.maxPinChanges,
          detailsUrl: options.detailsUrl,
          showWarnings: options.showWarnings === true,
        }),
      );
      outcome.exitCode = EXIT.ok;
    });
}

/** readSavedPlan reads and checks a plan file as apply does; every problem exits 1, since show refuses nothing. */
async function readSavedPlan(file: string, io: CliIo): Promise<Plan> {
  let text: string;
  try {
    text = await readFile(resolve(io.cwd, file), 'utf8');
  } catch (error) {
    throw new UsageError(
      'plan.unreadable',
      `cannot read the plan file ${file}: ${systemErrorCode(error)}`,
      'pass the file written by viewctl plan --out',
    );
  }
  try {
    const plan = readPlanFile(text, file);
    checkPlanIdentity(plan);
    return plan;
  } catch (error) {
    // apply refuses such a file with exit 3; show refuses nothing, so any problem exits 1 (its message holds for show too).
    if (error instanceof ViewctlError && error.exitCode !== EXIT.error)
      throw new ViewctlError(error.code, error.message, { hint: error.hint });
    throw error;
  }
}
