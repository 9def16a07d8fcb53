import type { PinsMode } from '../export/pin-documents.js';
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { ApiUser } from '../domain/api-types.js';
import { DOMAINS, type Domain } from '../domain/domains.js';
import type { SourcePosition } from '../domain/source-position.js';
import { UsageError } from '../errors.js';
import { declaredTargets, pinCoverage } from '../export/declared-targets.js';
import { EXPORT_FOLDERS } from '../export/export-files.js';
import { mergeFiles } from '../export/merge-files.js';
import { checkPinBudget, describePinRead, type PinUserChoice } from '../export/pin-users.js';
import { SCHEMAS_FOLDER } from '../export/schema-ref.js';
import { takenPaths, writeNewFiles } from '../export/write-files.js';
import { ManifestInvalidError } from '../manifest/format-problems.js';
import { loadManifests } from '../manifest/load.js';
import { hasErrors } from '../manifest/problems.js';
import { schemaTexts } from '../manifest/schema-registry.js';
import { nodeManifestSource } from '../manifest/source.js';
import type { ManifestDocument, Problem } from '../manifest/types.js';
import { readExport } from '../state/read-export.js';
import { exportCeiling, memberSelection } from './export-ceiling.js';
import { exportClosing, type ExportClosing } from './export-closing.js';
import { NO_STOPS, type RunStops, type ServiceConnection } from './run-edges.js';

/**
 * `viewctl export --merge`: add to an existing manifests folder the documents of the
 * live targets it does not declare yet, each in a new file, and never write to a file
 * that exists (README, "export --merge"). The folder is loaded and checked first, as
 * plan does, so an invalid folder costs no request.
 */

/** MergeRequest is what `export --merge` is asked: the folder, whether `--force` came too, and what it may spend. */
interface MergeRequest {
  out: string;
  force?: boolean;
  budget?: number;
  /** `--reserve`: requests of what is left today left to the other integrations. */
  reserve: number;
  /** Requests per second per endpoint, to say how long the pinned views take. */
  rate: number;
  /** `--pins exact|include`: how the members' pinned lists are written. */
  pinsMode?: PinsMode;
}

/** ExportEdges are what the export flow touches outside its inputs, passed in (files are written under `cwd`); a merge uses them all. */
export interface ExportEdges {
  cwd: string;
  /** Opens the connection, once every check that needs no request passed. */
  connect(): Promise<ServiceConnection>;
  stops?: RunStops;
  /** What the export layer says before the pinned views are read: how many requests, and about how long. */
  onNotice?(text: string): void;
  onProgress?(done: number, total: number): void;
  /** With `merge`: the folder's manifests' warnings, as soon as they are loaded. */
  onWarnings?(warnings: readonly Problem[]): void;
}

/** MergeOutcome is what a merge added (new files and what each declares), what it skipped as declared already, its notes and last lines. */
export interface MergeOutcome {
  merged: true;
  workspace: { id: string; name: string };
  written: { path: string; target: string }[];
  skipped: { target: string; declaredAt: SourcePosition }[];
  /** JSON Schema copies added beside the new files, into `schemasFolder`. */
  schemaCopies: number;
  schemasFolder: string;
  notes: string[];
  /** Some members' pinned views were asked for (`--users` or `--all-users`). */
  pinsChosen: boolean;
  requests: number;
  closing: ExportClosing;
}

/** mergeExport carries out `export --merge --out DIR` and answers what it wrote and what it skipped. */
export async function mergeExport(
  options: MergeRequest,
  choice: PinUserChoice,
  edges: ExportEdges,
): Promise<MergeOutcome> {
  const stops = edges.stops ?? NO_STOPS;
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
  const outDir = resolve(edges.cwd, options.out);
  const documents = await loadFolder(outDir, options.out, edges);
  const declared = declaredTargets(documents);
  const coverage = pinCoverage(declared);
  const ceiling = exportCeiling(options, choice.kind !== 'none');
  const connection = await edges.connect();
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
  const exported = await stops
    .reads(() =>
      readExport(client, {
        // The reads before the pinned views must fit in the ceiling, as any export's.
        checkWorkspace: (workspace) => ceiling.checkWorkspace(workspace, client.stats()),
        ...(choice.kind === 'none' ? {} : { selectUsers: members.select }),
        pinDomains: uncovered,
        beforePins: (plan) => {
          checkPinBudget(plan, options.reserve, budget);
          edges.onNotice?.(describePinRead(plan, options.rate));
        },
        ...(edges.onProgress === undefined ? {} : { onProgress: edges.onProgress }),
      }),
    )
    .finally(() => connection.close());
  const taken = await takenPaths(outDir, ['.', ...EXPORT_FOLDERS, SCHEMAS_FOLDER]);
  const folder = nodeManifestSource(edges.cwd).display(outDir);
  const { batch } = members;
  const result = mergeFiles({
    ...exported,
    ...(options.pinsMode === undefined ? {} : { pinsMode: options.pinsMode }),
    declared,
    schemas: schemaTexts(),
    taken,
    folder,
    ...(batch === undefined ? {} : { stemUsers: batch.all }),
  });
  stops.writingFiles(`adding the new files to ${options.out}`);
  await writeNewFiles(outDir, result.files);
  const { live } = exported;
  return {
    merged: true,
    workspace: { id: live.workspace.id, name: live.workspace.name },
    written: result.written,
    skipped: result.skipped,
    schemaCopies: Object.keys(result.files).length - result.written.length,
    schemasFolder: SCHEMAS_FOLDER,
    notes: result.notes,
    pinsChosen: choice.kind !== 'none',
    requests: live.requests.used,
    closing: await exportClosing(
      { out: options.out, outDir, cwd: edges.cwd },
      options,
      exported,
      batch,
      ceiling.current,
    ),
  };
}

/**
 * loadFolder loads the manifests of the folder a merge adds to, and refuses before
 * any request when there are none (a mistyped `--out` would otherwise get a second,
 * complete export) or when any has an error (what is declared cannot be told).
 */
async function loadFolder(
  outDir: string,
  shown: string,
  edges: Pick<ExportEdges, 'cwd' | 'onWarnings'>,
): Promise<ManifestDocument[]> {
  const info = await stat(outDir).catch(() => undefined);
  if (info !== undefined && !info.isDirectory()) {
    throw new UsageError(
      'export.out-not-folder',
      `--out ${shown} is a file, not a folder`,
      'name the folder of manifests to merge into with --out',
    );
  }
  const loaded = info === undefined ? undefined : await loadManifests([outDir], nodeManifestSource(edges.cwd));
  if (loaded === undefined || loaded.files.length === 0) {
    throw new UsageError(
      'export.merge-no-manifests',
      `--merge adds to a folder of manifests, and ${shown} ${info === undefined ? 'does not exist' : 'holds no *.yaml or *.yml file'}`,
      'point --out at the folder of manifests to add to, or drop --merge to export into a new folder',
    );
  }
  if (hasErrors(loaded.problems)) throw new ManifestInvalidError(loaded.problems);
  if (loaded.problems.length > 0) edges.onWarnings?.(loaded.problems);
  return loaded.documents;
}
