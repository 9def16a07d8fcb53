import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { SourcePosition } from '../domain/source-position.js';
import type { Domain, ViewKind } from '../domain/domains.js';
import { ViewctlError } from '../errors.js';
import { spliceEdits } from '../export/pull-files.js';
import { renameEdits } from '../export/rename-edits.js';
import { writeAllOrNone } from '../export/write-all-or-none.js';
import { formatProblems, ManifestInvalidError } from '../manifest/format-problems.js';
import { loadManifests } from '../manifest/load.js';
import { overlaySource } from '../manifest/overlay-source.js';
import { hasErrors } from '../manifest/problems.js';
import { nodeManifestSource } from '../manifest/source.js';

/**
 * `viewctl rename KIND "OLD" "NEW" [PATH...]` (README, "Renaming a view"): offline, no
 * key. Renames the view document and rewrites every pinned list of its domain that
 * names it, in place: each value is spliced into its source range as `pull` does
 * (src/manifest/yaml-splice.ts), so every other byte of each file stays. The manifests
 * as they would be are loaded and checked before any file is written, and the files are
 * written all or none.
 */

/** RenameInput is what to rename, where the manifests are, and the working directory. */
export interface RenameInput {
  kind: string;
  from: string;
  to: string;
  paths: readonly string[];
  cwd: string;
  /** Written (false: only planned, for `--dry-run`). */
  write: boolean;
}

/** RenameResult is what the rename changed: each place rewritten and the files. */
export interface RenameResult {
  kind: ViewKind;
  domain: Domain;
  from: string;
  to: string;
  places: SourcePosition[];
  files: string[];
  written: boolean;
}

/** renameView carries out the rename; throws ViewctlError (`rename.*`, `manifest.invalid`) with nothing written. */
export async function renameView(input: RenameInput): Promise<RenameResult> {
  const source = nodeManifestSource(input.cwd);
  const loaded = await loadManifests(input.paths, source);
  if (hasErrors(loaded.problems)) throw new ManifestInvalidError(loaded.problems);
  const planned = renameEdits(loaded.documents, input.kind, input.from, input.to);
  const files = [...new Set(planned.edits.map((edit) => edit.file))];
  const texts = new Map(
    await Promise.all(files.map(async (file) => [file, await readFile(resolve(input.cwd, file), 'utf8')] as const)),
  );
  const spliced = spliceEdits(planned.edits, texts);
  const [stuck] = spliced.notPulled;
  if (stuck !== undefined)
    throw new ViewctlError('rename.cannot-splice', `${stuck.reason}, so nothing was written`, {
      hint: 'rename that entry by hand (an alias or a merge key names it), then run rename again',
    });
  const after = await loadManifests(input.paths, overlaySource(source, spliced.texts));
  const errors = after.problems.filter((problem) => problem.severity === 'error');
  if (errors.length > 0)
    throw new ViewctlError(
      'rename.invalid-result',
      `renaming would make the manifests invalid, so nothing was written:\n${formatProblems(errors, { color: false })}`,
      { hint: 'fix what the problems name, then run rename again' },
    );
  if (input.write)
    await writeAllOrNone(
      [...spliced.texts].map(([file, text]) => ({
        path: resolve(input.cwd, file),
        shown: file,
        before: texts.get(file) ?? '',
        after: text,
      })),
    );
  return {
    kind: planned.kind,
    domain: planned.domain,
    from: input.from,
    to: input.to,
    places: planned.places,
    files: [...spliced.texts.keys()],
    written: input.write,
  };
}
