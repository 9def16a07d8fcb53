import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { UsageError } from '../errors.js';
import { OutputKindError, writeAtomically, writeFailureReason } from '../export/atomic-file.js';
import { registeredSchemaTexts } from '../manifest/kind-manifests.js';
import { schemaTexts } from '../manifest/schema-registry.js';

/**
 * writeSchemas is `viewctl schemas --out DIR`: it writes the JSON Schemas of the
 * manifests (draft 2020-12) into DIR (relative to `cwd`, created if missing), for
 * editors and other tools, and answers how many it wrote: the built-in kinds' and
 * those of any registered kind that declares manifest kinds of its own (`Manifests`).
 * They reference each other by relative path, so they work from any folder they are
 * written to together.
 */
export async function writeSchemas(out: string, cwd: string): Promise<{ written: number }> {
  const outDir = resolve(cwd, out);
  const texts = new Map([...schemaTexts(), ...registeredSchemaTexts()]);
  try {
    await mkdir(outDir, { recursive: true });
    // Whole files, by the rule every writer follows: a link is replaced, a device written through.
    for (const [file, text] of texts) await writeAtomically(join(outDir, file), text);
  } catch (error) {
    if (!(error instanceof OutputKindError) && typeof (error as NodeJS.ErrnoException).code !== 'string') throw error;
    throw new UsageError(
      'output.write-failed',
      `cannot write the schemas to ${out}: ${writeFailureReason(error)}`,
      'check that the folder can be created and written',
    );
  }
  return { written: texts.size };
}
