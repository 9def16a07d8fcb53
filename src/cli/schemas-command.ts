import type { Command } from 'commander';
import { EXIT } from '../errors.js';
import { writeSchemas } from '../flows/write-schemas.js';
import type { CliIo } from './io.js';
import type { Outcome } from './outcome.js';

/**
 * registerSchemasCommand adds `viewctl schemas --out DIR`: it writes the JSON Schemas
 * of the manifests for editors (`writeSchemas`) and says how to point an editor at them.
 */
export function registerSchemasCommand(program: Command, io: CliIo, outcome: Outcome): void {
  program
    .command('schemas')
    .description('write the JSON Schemas of the manifests to a folder, for editors (never talks to the service)')
    .requiredOption('--out <dir>', 'folder to write the *.schema.json files to (created if missing)')
    .action(async (options: { out: string }) => {
      const { written } = await writeSchemas(options.out, io.cwd);
      io.stdout.write(
        `wrote ${written} JSON Schemas to ${options.out}; point an editor at them, e.g. # yaml-language-server: $schema=${options.out}/recording-view.schema.json\n`,
      );
      outcome.exitCode = EXIT.ok;
    });
}
