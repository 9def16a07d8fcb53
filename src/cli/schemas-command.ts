import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { EXIT, UsageError } from '../errors.js';
import { OutputKindError, writeAtomically, writeFailureReason } from '../export/atomic-file.js';
import { schemaTexts } from '../manifest/schema-registry.js';
import type { CliIo } from './io.js';
import type { Outcome } from './outcome.js';

/**
 * registerSchemasCommand adds `viewctl schemas --out DIR`: it writes the JSON Schemas
 * of the manifests (draft 2020-12) for editors and other tools. They reference each
 * other by relative path, so they work from any folder they are written to together.
 */
export function registerSchemasCommand(program: Command, io: CliIo, outcome: Outcome): void {
  program
    .command('schemas')
    .description('write the JSON Schemas of the manifests to a folder, for editors (never talks to the service)')
    .requiredOption('--out <dir>', 'folder to write the *.schema.json files to (created if missing)')
    .action(async (options: { out: string }) => {
      const outDir = resolve(io.cwd, options.out);
      const texts = schemaTexts();
      try {
        await mkdir(outDir, { recursive: true });
        // Whole files, by the rule every writer follows: a link is replaced, a device written through.
        for (const [file, text] of texts) await writeAtomically(join(outDir, file), text);
      } catch (error) {
        if (!(error instanceof OutputKindError) && typeof (error as NodeJS.ErrnoException).code !== 'string')
          throw error;
        throw new UsageError(
          'output.write-failed',
          `cannot write the schemas to ${options.out}: ${writeFailureReason(error)}`,
          'check that the folder can be created and written',
        );
      }
      io.stdout.write(
        `wrote ${texts.size} JSON Schemas to ${options.out}; point an editor at them, e.g. # yaml-language-server: $schema=${options.out}/recording-view.schema.json\n`,
      );
      outcome.exitCode = EXIT.ok;
    });
}
