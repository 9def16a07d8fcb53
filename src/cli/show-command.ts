import type { Command } from 'commander';
import { EXIT } from '../errors.js';
import { showPlan } from '../flows/show-plan.js';
import { renderPlan, type OutputFormat } from '../render/render-plan.js';
import { detailsUrlOption } from './details-url-option.js';
import type { CliIo } from './io.js';
import { maxDeletesOption } from './max-deletes-option.js';
import type { Outcome } from './outcome.js';
import { maxPinChangesOption } from './max-pin-changes-option.js';
import { formatOption, textWidth, useColor } from './output.js';
import { showWarningsOption } from './show-warnings-option.js';

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
 * checked as `apply --plan` checks it (`showPlan`); a file apply would refuse is an
 * error here too, exit 1.
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
      const plan = await showPlan(file, io.cwd);
      io.stdout.write(
        renderPlan(plan, options.format, {
          color: useColor(io.stdout, io.env),
          width: textWidth(io.stdout, io.env),
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
