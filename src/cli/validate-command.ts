import { Option, type Command } from 'commander';
import { EXIT } from '../errors.js';
import { validateManifests } from '../flows/validate-manifests.js';
import { validateJson, validateReport } from '../render/validate-report.js';
import type { CliIo } from './io.js';
import type { Outcome } from './outcome.js';
import { textWidth, useColor } from './output.js';
import { showWarningsOption } from './show-warnings-option.js';

/**
 * registerValidateCommand adds `viewctl validate [PATH...]`: schema and semantic
 * checks of the manifests, offline (it never contacts the service). Exit 1 when any
 * error is found; warnings alone exit 0.
 */
export function registerValidateCommand(program: Command, io: CliIo, outcome: Outcome): void {
  program
    .command('validate')
    .description('check manifests offline: schemas and semantic rules, every problem with file:line:column')
    .argument('[paths...]', 'manifest files or folders (every *.yaml / *.yml below them)', ['.'])
    .addOption(showWarningsOption())
    .addOption(
      new Option(
        '--format <format>',
        'text, or json: {formatVersion, valid, files, documents, errorCount, warningCount, problems: [{file, line, column, code, severity, message, pointer, hint?}]} (exit codes alike)',
      )
        .choices(['text', 'json'])
        .default('text'),
    )
    .action(async (paths: string[], options: { showWarnings?: boolean; format: 'text' | 'json' }) => {
      const result = await validateManifests(paths, io.cwd);
      io.stdout.write(
        options.format === 'json'
          ? validateJson(result)
          : validateReport(result, {
              color: useColor(io.stdout, io.env),
              showWarnings: options.showWarnings === true,
              width: textWidth(io.stdout, io.env),
            }),
      );
      outcome.exitCode = result.valid ? EXIT.ok : EXIT.error;
    });
}
