import { stat } from 'node:fs/promises';
import { posix, resolve } from 'node:path';
import type { ApiUser } from '../domain/api-types.js';
import { DOMAINS, type Domain } from '../domain/domains.js';
import { UsageError } from '../errors.js';
import { declaredTargets, pinCoverage } from '../export/declared-targets.js';
import { EXPORT_FOLDERS } from '../export/export-files.js';
import { mergeFiles, type MergeResult } from '../export/merge-files.js';
import { skippedRows } from '../export/merge-skipped.js';
import { checkPinBudget, describePinRead, type PinUserChoice } from '../export/pin-users.js';
import { SCHEMAS_FOLDER } from '../export/schema-ref.js';
import { takenPaths, writeNewFiles } from '../export/write-files.js';
import { formatProblems, ManifestInvalidError } from '../manifest/format-problems.js';
import { loadManifests } from '../manifest/load.js';
import { hasErrors } from '../manifest/problems.js';
import { schemaTexts } from '../manifest/schema-registry.js';
import { nodeManifestSource } from '../manifest/source.js';
import type { ManifestDocument } from '../manifest/types.js';
import { readExport } from '../state/read-export.js';
import { plural } from '../text/plural.js';
import { safeText } from '../text/safe-text.js';
import { openConnection, type ConnectionOptions } from './connection.js';
import type { CliIo } from './io.js';
import { progressReporter } from './progress.js';
import { closingLines } from './export-next.js';
import { exportCeiling, memberSelection } from './export-ceiling.js';
import { stopOnInterrupt, type ReadsInterrupt } from './interrupt.js';

/**
 * `viewctl export --merge`: add to an existing manifests folder the documents of the
 * live targets it does not declare yet, each in a new file, and never write to a file
 * that exists (README, "export --merge"). The folder is loaded and checked first, as
 * plan does, so an invalid folder costs no request.
 */

interface MergeOptions extends ConnectionOptions {
  out: string;
  force?: boolean;
  budget?: number;
  /** `--reserve`: requests of what is left today left to the other integrations. */
  reserve: number;
}

/** runExportMerge carries out `export --merge --out DIR` and prints what it wrote and what it skipped. */
export async function runExportMerge(
  options: MergeOptions,
  choice: PinUserChoice,
  io: CliIo,
  interrupt: ReadsInterrupt,
): Promise<void> {
  if (options.force === true) {
    // --force replaces the files export writes; a merge replaces none, so one of the two would be ignored.
    throw new UsageError(
      'usage.conflicting-options',
      '--merge and --force were both given: --merge never replaces a file, --force replaces every file export writes',
      "pass --merge alone to add what no manifest declares yet (existing files stay as they are), or --force alone to re-export the whole workspace over export's files",
    );
  }
  // --budget (checked by the caller, with --all-users) spreads the members over runs: each adds those that fit.
  const { budget } = options;
  const outDir = resolve(io.cwd, options.out);
  const documents = await loadFolder(outDir, options.out, io);
  const declared = declaredTargets(documents);
  const coverage = pinCoverage(declared);
  const ceiling = exportCeiling(options, choice.kind !== 'none');
  const connection = await openConnection(options, io, { dailyReserve: options.reserve, stop: interrupt.signal });
  const { client } = connection;
  // Under --budget, members in email order whose lists no document covers yet, as many as fit.
  const uncovered = (user: ApiUser): Domain[] => DOMAINS.filter((domain) => !coverage(user).has(domain));
  const members = memberSelection(
    choice,
    budget,
    ceiling,
    () => (user) => uncovered(user).length,
    () => client.stats(),
  );
  // Close even when the read fails: with --emulator the connection owns a server.
  const exported = await stopOnInterrupt(interrupt, '', () =>
    readExport(client, {
      // The reads before the pinned views must fit in the ceiling, as any export's.
      checkWorkspace: (workspace) => ceiling.checkWorkspace(workspace, client.stats()),
      ...(choice.kind === 'none' ? {} : { selectUsers: members.select }),
      pinDomains: uncovered,
      beforePins: (plan) => {
        checkPinBudget(plan, options.reserve, budget);
        io.stderr.write(describePinRead(plan, options.rate));
      },
      onProgress: progressReporter(io.stderr, 'reading pinned views'),
    }).finally(() => connection.close()),
  );
  const taken = await takenPaths(outDir, ['.', ...EXPORT_FOLDERS, SCHEMAS_FOLDER]);
  const folder = nodeManifestSource(io.cwd).display(outDir);
  const { batch } = members;
  const result = mergeFiles({
    ...exported,
    declared,
    schemas: schemaTexts(),
    taken,
    folder,
    ...(batch === undefined ? {} : { stemUsers: batch.all }),
  });
  interrupt.writingFiles(`adding the new files to ${options.out}`);
  await writeNewFiles(outDir, result.files);
  for (const note of result.notes) io.stderr.write(`note: ${safeText(note)}\n`);
  if (choice.kind === 'none') {
    io.stderr.write('note: pinned views not merged: name members with --users a@x.com,b@x.com, or pass --all-users\n');
  }
  io.stdout.write(mergeSummary(options.out, exported.live.workspace, result, exported.live.requests.used));
  io.stdout.write(await closingLines(outDir, io.cwd, options, exported, batch, ceiling.current));
}

/**
 * loadFolder loads the manifests of the folder a merge adds to, and refuses before
 * any request when there are none (a mistyped `--out` would otherwise get a second,
 * complete export) or when any has an error (what is declared cannot be told).
 */
async function loadFolder(outDir: string, shown: string, io: CliIo): Promise<ManifestDocument[]> {
  const info = await stat(outDir).catch(() => undefined);
  if (info !== undefined && !info.isDirectory()) {
    throw new UsageError(
      'export.out-not-folder',
      `--out ${shown} is a file, not a folder`,
      'name the folder of manifests to merge into with --out',
    );
  }
  const loaded = info === undefined ? undefined : await loadManifests([outDir], nodeManifestSource(io.cwd));
  if (loaded === undefined || loaded.files.length === 0) {
    throw new UsageError(
      'export.merge-no-manifests',
      `--merge adds to a folder of manifests, and ${shown} ${info === undefined ? 'does not exist' : 'holds no *.yaml or *.yml file'}`,
      'point --out at the folder of manifests to add to, or drop --merge to export into a new folder',
    );
  }
  if (hasErrors(loaded.problems)) throw new ManifestInvalidError(loaded.problems);
  if (loaded.problems.length > 0) io.stderr.write(`${formatProblems(loaded.problems, { color: false })}\n`);
  return loaded.documents;
}

function mergeSummary(
  shown: string,
  workspace: { id: string; name: string },
  result: MergeResult,
  requests: number,
): string {
  const where = (path: string): string => posix.join(shown.split('\\').join('/'), path);
  const lines = [`merged workspace ${JSON.stringify(workspace.name)} (${workspace.id}) into ${shown}`];
  if (result.written.length === 0) lines.push('nothing to add: every live target is declared already');
  else {
    lines.push(`written, ${plural(result.written.length, 'new file')}:`);
    lines.push(...columns(result.written.map((file) => [where(file.path), file.target])));
  }
  if (result.skipped.length > 0) {
    lines.push(`skipped, already declared (${result.skipped.length}):`);
    lines.push(...columns(skippedRows(result.skipped)));
  }
  const copies = Object.keys(result.files).length - result.written.length;
  const schemaNote =
    copies === 0 ? '' : ` (and ${plural(copies, 'JSON Schema copy', 'JSON Schema copies')} into ${SCHEMAS_FOLDER}/)`;
  lines.push(
    `${plural(result.written.length, 'manifest')} written${schemaNote}, no existing file changed, ${plural(requests, 'request')} used; nothing was changed in the workspace`,
  );
  // Names, emails and paths are user and service data: escaped for the terminal.
  return `${lines.map(safeText).join('\n')}\n`;
}

/** columns indents rows of two cells, the first padded to the widest. */
function columns(rows: readonly (readonly [string, string])[]): string[] {
  const width = Math.max(...rows.map(([first]) => first.length));
  return rows.map(([first, second]) => `  ${first.padEnd(width)}  ${second}`);
}
