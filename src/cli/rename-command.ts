import { Option, type Command } from 'commander';
import { EXIT } from '../errors.js';
import { formatLine } from '../domain/source-position.js';
import { renameView, type RenameResult } from '../flows/rename-view.js';
import { plural } from '../text/plural.js';
import type { CliIo } from './io.js';
import type { Outcome } from './outcome.js';

/**
 * registerRenameCommand adds `viewctl rename KIND OLD NEW [PATH...]` (README, "Renaming
 * a view"): offline, no key; the flow (src/flows/rename-view.ts) renames the view
 * document and every pinned tab naming it, in place, all files or none.
 */
export function registerRenameCommand(program: Command, io: CliIo, outcome: Outcome): void {
  program
    .command('rename')
    .description('rename a view in its document and in every pinned list naming it, in place (offline, no key)')
    .argument('<kind>', 'the view kind: DealView, RecordingView, CompanyView, ContactView')
    .argument('<old>', 'the name the view document has')
    .argument('<new>', 'the name to give it')
    .argument('[paths...]', 'manifest files or folders (every *.yaml / *.yml below)', ['.'])
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'json']).default('text'))
    .option('--dry-run', 'say what would change, write nothing')
    .action(
      async (
        kind: string,
        from: string,
        to: string,
        paths: string[],
        options: { format: 'text' | 'json'; dryRun?: boolean },
      ) => {
        const result = await renameView({ kind, from, to, paths, cwd: io.cwd, write: options.dryRun !== true });
        io.stdout.write(options.format === 'json' ? renameJson(result) : renameText(result));
        outcome.exitCode = EXIT.ok;
      },
    );
}

/**
 * renameText is the report: one line saying what was renamed and where, then each place
 * rewritten (file:line), the view document's name first.
 */
function renameText(result: RenameResult): string {
  const tabs = plural(result.places.length - 1, 'pinned tab');
  const done = result.written ? 'renamed' : 'would be renamed (--dry-run: nothing written)';
  const head = `${result.kind} "${result.from}" ${done} to "${result.to}": its document and ${tabs}, in ${plural(result.files.length, 'file')}`;
  const places = result.places.map((place, index) => `  ${formatLine(place)}  ${index === 0 ? 'name' : 'tab'}`);
  return `${[head, ...places].join('\n')}\n`;
}

/** renameJson is the report as data (`--format json`). */
function renameJson(result: RenameResult): string {
  return `${JSON.stringify(result, null, 2)}\n`;
}
