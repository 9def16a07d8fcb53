import { Option } from 'commander';
import type { Command } from 'commander';
import { EXIT } from '../errors.js';
import type { TargetSelector } from '../flows/plan-manifests.js';
import { pullManifests } from '../flows/pull-manifests.js';
import { jsonReport, textReport } from '../render/pull-report.js';
import { formatProblems } from '../text/problem-lines.js';
import { safeText } from '../text/safe-text.js';
import { addConnectionOptions, openConnection, type ConnectionOptions } from './connection.js';
import { listenForReads, readStops } from './interrupt.js';
import type { CliIo } from './io.js';
import type { Outcome } from './outcome.js';
import { textWidth } from './output.js';
import { progressReporter } from './progress.js';
import { addBaseOption, addBudgetOptions, addReserveOption, type ScopeOptions } from './scope-options.js';
import { targetOption } from './target-option.js';

interface PullOptions extends ConnectionOptions, ScopeOptions {
  format: 'text' | 'json';
  target?: TargetSelector[];
}

const UNWRITTEN = ', and no manifest was changed';

/**
 * registerPullCommand adds `viewctl pull [PATH...] [--target SELECTOR]...` (README,
 * "Keeping the app's version"): the live value of the selected targets written into
 * the manifests that declare them, in place (`pullManifests`), and the report of what
 * was written. It never writes to the service.
 */
export function registerPullCommand(program: Command, io: CliIo, outcome: Outcome): void {
  const command = program
    .command('pull')
    .description(
      'write the live value of the selected targets into the manifests that declare them, in place (never writes to the service)',
    )
    .argument('[paths...]', 'manifest files or folders (every *.yaml / *.yml below)', ['.'])
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'json']).default('text'))
    .addOption(targetOption());
  addReserveOption(addBudgetOptions(addBaseOption(command), false));
  addConnectionOptions(command).action(async (paths: string[], options: PullOptions) => {
    const interrupt = listenForReads(io, UNWRITTEN);
    try {
      const result = await pullManifests(
        { paths, targets: options.target, scope: options },
        {
          cwd: io.cwd,
          clock: io.clock,
          connect: () => openConnection(options, io, { dailyReserve: options.reserve, stop: interrupt.signal }),
          stops: readStops(interrupt, UNWRITTEN),
          onFinished: (files) =>
            io.stderr.write(
              `finished an interrupted pull: replaced ${files.map((file) => safeText(file)).join(', ')}\n`,
            ),
          onWarnings: (warnings) => io.stderr.write(`${formatProblems(warnings, { color: false })}\n`),
          onProgress: progressReporter(io.stderr, 'reading live state'),
        },
      );
      io.stdout.write(
        options.format === 'json'
          ? `${JSON.stringify(jsonReport(result), null, 2)}\n`
          : textReport(result, textWidth(io.stdout, io.env)),
      );
      outcome.exitCode = EXIT.ok;
    } finally {
      interrupt.dispose();
    }
  });
}
