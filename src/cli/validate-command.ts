import { Option, type Command } from 'commander';
import { EXIT } from '../errors.js';
import { countProblems, formatProblems } from '../manifest/format-problems.js';
import { plural } from '../text/plural.js';
import { loadManifests, type LoadResult } from '../manifest/load.js';
import { hasErrors } from '../manifest/problems.js';
import { nodeManifestSource } from '../manifest/source.js';
import { validateJson } from '../manifest/problems-json.js';
import { useColor } from './output.js';
import type { CliIo } from './io.js';
import type { Outcome } from './outcome.js';
import { showWarningsOption } from './show-warnings-option.js';

/**
 * validateReport renders the outcome of `viewctl validate`: the problems, then one
 * summary line. Pure, so the golden tests and the command print the same text.
 */
export function validateReport(result: LoadResult, options: { color: boolean; showWarnings?: boolean }): string {
  const lines: string[] = [];
  if (result.problems.length > 0) lines.push(formatProblems(result.problems, options));
  const scope = `${plural(result.documents.length, 'document')} in ${plural(result.files.length, 'file')}`;
  if (hasErrors(result.problems))
    lines.push(`${countProblems(result.problems)} in ${plural(result.files.length, 'file')}`);
  else if (result.problems.length > 0)
    lines.push(
      `${scope} ${result.documents.length === 1 ? 'is' : 'are'} valid (${countProblems(result.problems).split(', ')[1] ?? ''})`,
    );
  else lines.push(`${scope} ${result.documents.length === 1 ? 'is' : 'are'} valid`);
  return `${lines.join('\n')}\n`;
}

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
        'text, or json: {valid, problems: [{file, line, column, code, severity, message, pointer, hint?}]} (exit codes alike)',
      )
        .choices(['text', 'json'])
        .default('text'),
    )
    .action(async (paths: string[], options: { showWarnings?: boolean; format: 'text' | 'json' }) => {
      const result = await loadManifests(paths, nodeManifestSource(io.cwd));
      io.stdout.write(
        options.format === 'json'
          ? validateJson(result)
          : validateReport(result, { color: useColor(io.stdout, io.env), showWarnings: options.showWarnings === true }),
      );
      outcome.exitCode = hasErrors(result.problems) ? EXIT.error : EXIT.ok;
    });
}
