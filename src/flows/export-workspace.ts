import { choosePinLayout, type PinLayout } from '../export/pin-layout.js';
import type { PinsMode } from '../export/pin-documents.js';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { ApiUser } from '../domain/api-types.js';
import { DOMAINS, type Domain } from '../domain/domains.js';
import { UsageError } from '../errors.js';
import { AUTOMATIONS_FILE, exportFiles, PINS_FOLDER, pinStems, WORKSPACE_FILE } from '../export/export-files.js';
import { checkPinBudget, describePinRead, parseEmailList, type PinUserChoice } from '../export/pin-users.js';
import { checkOutFolder, writeExportFiles } from '../export/write-files.js';
import { schemaTexts } from '../manifest/schema-registry.js';
import { readExport } from '../state/read-export.js';
import { exportCeiling, memberSelection } from './export-ceiling.js';
import { exportClosing, type ExportClosing } from './export-closing.js';
import { mergeExport, type ExportEdges, type MergeOutcome } from './export-merge.js';
import { NO_STOPS } from './run-edges.js';

export type { ExportClosing } from './export-closing.js';
export type { ExportEdges, MergeOutcome } from './export-merge.js';
export type { PinsMode } from '../export/pin-documents.js';
export { PIN_LAYOUTS, type PinLayout } from '../export/pin-layout.js';

/** ExportRequest is what `viewctl export` is asked: where to write, whose pinned views, and what it may spend. */
export interface ExportRequest {
  /** `--out DIR` as given (relative to the working directory). */
  out: string;
  /** `--users`, each value a comma-separated list of emails. */
  users?: readonly string[];
  allUsers?: boolean;
  force?: boolean;
  merge?: boolean;
  budget?: number;
  reserve: number;
  /** Requests per second per endpoint, to say how long the pinned views take. */
  rate: number;
  /** `--pins groups|per-member`: one document per list members share (default), or one per member. */
  pinLayout?: PinLayout;
  /** `--pins exact|include`: how members' pinned lists are written. */
  pinsMode?: PinsMode;
}

/** ExportLayout names where a plain export puts the workspace, the automations and the members' pinned views. */
export interface ExportLayout {
  workspaceFile: string;
  automationsFile: string;
  pinsFolder: string;
}

/** PlainExportOutcome is what a plain export wrote: counts per domain, what it left as it was, its notes and its last lines. */
export interface PlainExportOutcome {
  merged: false;
  workspace: { id: string; name: string };
  views: Record<Domain, number>;
  /** Admin automations written; null when the workspace has none to read. */
  automations: number | null;
  pinUsers: number;
  /** How many documents hold the pinned lists: groups members share, and members' own. */
  pinDocuments: { groups: number; members: number };
  /** Files written. */
  written: number;
  /** YAML files in the export's folders this export did not write (left as they were). */
  untouched: string[];
  /** Things a reviewer should know that the files alone do not say. */
  notes: string[];
  /** Some members' pinned views were asked for (`--users` or `--all-users`). */
  pinsChosen: boolean;
  requests: number;
  layout: ExportLayout;
  closing: ExportClosing;
}

/** ExportOutcome is what `viewctl export` did, plainly or with `--merge`. */
export type ExportOutcome = PlainExportOutcome | MergeOutcome;

/**
 * exportWorkspace is `viewctl export`: read the live workspace and write manifests that
 * plan finds in sync with it (with `merge`, only what the folder does not declare yet,
 * in new files: `mergeExport`). The flags are checked, and the folder, before any
 * request; it never writes to the service.
 */
export async function exportWorkspace(request: ExportRequest, edges: ExportEdges): Promise<ExportOutcome> {
  const choice = pinUserChoice(request);
  if (request.budget !== undefined && request.allUsers !== true) {
    throw new UsageError(
      'usage.budget-without-all-users',
      "--budget limits an export of every member's pinned views, but --all-users was not given",
      'add --all-users, or drop --budget',
    );
  }
  const pinLayout = choosePinLayout(request);
  if (request.merge === true) return mergeExport(request, choice, edges);
  const stops = edges.stops ?? NO_STOPS;
  const outDir = resolve(edges.cwd, request.out);
  const { budget } = request;
  const ceiling = exportCeiling(request, choice.kind !== 'none');
  await checkOutFolder(outDir, request.out, request.force === true);
  const connection = await edges.connect();
  const { client } = connection;
  // A member whose pins/ file an earlier run wrote is done; the rest go in email order.
  const exportedBefore = (chosen: readonly ApiUser[]) => {
    const stems = pinStems(chosen);
    return (user: ApiUser): number =>
      existsSync(join(outDir, PINS_FOLDER, `${stems.get(user.id) ?? ''}.yaml`)) ? 0 : DOMAINS.length;
  };
  const members = memberSelection(choice, budget, ceiling, exportedBefore, () => client.stats());
  // Close even when the read fails: with --emulator the connection owns a server.
  const exported = await stops
    .reads(() =>
      readExport(client, {
        checkWorkspace: (workspace) => ceiling.checkWorkspace(workspace, client.stats()),
        ...(choice.kind === 'none' ? {} : { selectUsers: members.select }),
        beforePins: (plan) => {
          checkPinBudget(plan, request.reserve, budget);
          edges.onNotice?.(describePinRead(plan, request.rate));
        },
        ...(edges.onProgress === undefined ? {} : { onProgress: edges.onProgress }),
      }),
    )
    .finally(() => connection.close());
  const { batch } = members;
  const result = exportFiles({
    ...exported,
    ...(request.pinsMode === undefined ? {} : { pinsMode: request.pinsMode }),
    pinLayout,
    ...(exported.live.users === undefined ? {} : { everyone: exported.live.users }),
    schemas: schemaTexts(),
    ...(batch === undefined ? {} : { stemUsers: batch.all }),
  });
  stops.writingFiles(`writing the files to ${request.out}`);
  const report = await writeExportFiles(outDir, result.files);
  // Files of members exported by earlier runs of a budgeted export are its own, not left-overs.
  const untouched =
    batch === undefined ? report.untouched : report.untouched.filter((path) => !path.startsWith(`${PINS_FOLDER}/`));
  const { live } = exported;
  return {
    merged: false,
    workspace: { id: live.workspace.id, name: live.workspace.name },
    ...result.summary,
    written: report.written,
    untouched,
    notes: result.notes,
    pinsChosen: choice.kind !== 'none',
    requests: live.requests.used,
    layout: { workspaceFile: WORKSPACE_FILE, automationsFile: AUTOMATIONS_FILE, pinsFolder: PINS_FOLDER },
    closing: await exportClosing(
      { out: request.out, outDir, cwd: edges.cwd },
      request,
      exported,
      batch,
      ceiling.current,
    ),
  };
}

/** pinUserChoice is whose pinned views the flags ask for: every active member, those listed, or none. */
function pinUserChoice(request: ExportRequest): PinUserChoice {
  if (request.allUsers === true) return { kind: 'all' };
  if (request.users !== undefined) return { kind: 'listed', emails: parseEmailList(request.users) };
  return { kind: 'none' };
}
