import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Option } from 'commander';
import type { Command } from 'commander';
import { DOMAINS } from '../domain/domains.js';
import { EXIT, UsageError } from '../errors.js';
import {
  AUTOMATIONS_FILE,
  exportFiles,
  PINS_FOLDER,
  pinStems,
  WORKSPACE_FILE,
  type ExportResult,
} from '../export/export-files.js';
import { checkPinBudget, describePinRead, parseEmailList, type PinUserChoice } from '../export/pin-users.js';
import { choosePinLayout, PIN_LAYOUTS, type PinLayout } from '../export/pin-layout.js';
import { schemaTexts } from '../manifest/schema-registry.js';
import { checkOutFolder, writeExportFiles, type WriteReport } from '../export/write-files.js';
import { readExport } from '../state/read-export.js';
import { addConnectionOptions, openConnection } from './connection.js';
import { runExportMerge } from './export-merge.js';
import type { ConnectionOptions } from './connection.js';
import type { CliIo } from './io.js';
import type { Outcome } from './outcome.js';
import { progressReporter } from './progress.js';
import { listenForReads, stopOnInterrupt, type ReadsInterrupt } from './interrupt.js';
import { parseCount } from './parse-options.js';
import { addReserveOption } from './scope-options.js';
import type { ApiUser } from '../domain/api-types.js';
import { closingLines } from './export-next.js';
import { exportCeiling, memberSelection } from './export-ceiling.js';

interface ExportOptions extends ConnectionOptions {
  out: string;
  users?: string[];
  allUsers?: boolean;
  force?: boolean;
  merge?: boolean;
  budget?: number;
  reserve: number;
  pins?: PinLayout;
}

/**
 * registerExportCommand adds `viewctl export`: read the live workspace and write
 * manifests that plan finds in sync with it. Reads only; never writes to the service.
 */
export function registerExportCommand(program: Command, io: CliIo, outcome: Outcome): void {
  const command = program
    .command('export')
    .description(
      'write manifests that describe the live workspace, so the first plan shows nothing to do (never writes to the service)',
    )
    .addOption(
      new Option(
        '--out <dir>',
        'folder to write the manifests to; must be new or empty unless --force (with --merge: the manifests folder to add to)',
      ).default('.'),
    )
    .addOption(
      new Option(
        '--users <emails>',
        'also export the pinned views of these members (comma separated; may repeat)',
      ).argParser((value: string, previous: string[] | undefined) => [...(previous ?? []), value]),
    )
    .addOption(new Option('--all-users', 'also export the pinned views of every active member').conflicts('users'))
    .addOption(
      new Option('--force', 'write into a non-empty folder: replace the files export writes, leave the others'),
    )
    .addOption(
      new Option(
        '--merge',
        'add to the manifests in --out only what none declares yet, each in a new file; never changes an existing file',
      ),
    )
    .addOption(
      new Option(
        '--budget <n>',
        'with --all-users: spend at most N requests, and never more than what is left today less --reserve, reading members in email order and skipping those already exported; prints the command that continues (--merge --budget, which adds only what is missing)',
      ).argParser((value) => parseCount(value, '--budget')),
    )
    .addOption(
      new Option(
        '--pins <layout>',
        'how pinned lists are written: groups (default: one PinnedViews document per list members share, by role, glob or addresses; a member gets their own only for a list nobody shares; lists on the built-in defaults get none) or per-member (one document per member; what --merge and --budget write)',
      ).choices(PIN_LAYOUTS),
    );
  addReserveOption(command);
  addConnectionOptions(command).action(async (options: ExportOptions) => {
    const interrupt = listenForReads(io);
    try {
      await exportWorkspace(options, io, interrupt);
      outcome.exitCode = EXIT.ok;
    } finally {
      interrupt.dispose();
    }
  });
}

/** exportWorkspace reads the live workspace (until interrupted) and writes its manifests. */
async function exportWorkspace(options: ExportOptions, io: CliIo, interrupt: ReadsInterrupt): Promise<void> {
  const choice = pinUserChoice(options);
  if (options.budget !== undefined && options.allUsers !== true) {
    throw new UsageError(
      'usage.budget-without-all-users',
      "--budget limits an export of every member's pinned views, but --all-users was not given",
      'add --all-users, or drop --budget',
    );
  }
  const pinLayout = choosePinLayout(options);
  if (options.merge === true) {
    await runExportMerge(options, choice, io, interrupt);
    return;
  }
  const outDir = resolve(io.cwd, options.out);
  const budget = options.budget;
  const ceiling = exportCeiling(options, choice.kind !== 'none');
  await checkOutFolder(outDir, options.out, options.force === true);
  const connection = await openConnection(options, io, { dailyReserve: options.reserve, stop: interrupt.signal });
  const { client } = connection;
  // A member whose pins/ file an earlier run wrote is done; the rest go in email order.
  const exportedBefore = (chosen: readonly ApiUser[]) => {
    const stems = pinStems(chosen);
    return (user: ApiUser): number =>
      existsSync(join(outDir, PINS_FOLDER, `${stems.get(user.id) ?? ''}.yaml`)) ? 0 : DOMAINS.length;
  };
  const members = memberSelection(choice, budget, ceiling, exportedBefore, () => client.stats());
  // Close even when the read fails: with --emulator the connection owns a server.
  const exported = await stopOnInterrupt(interrupt, '', () =>
    readExport(client, {
      checkWorkspace: (workspace) => ceiling.checkWorkspace(workspace, client.stats()),
      ...(choice.kind === 'none' ? {} : { selectUsers: members.select }),
      beforePins: (plan) => {
        checkPinBudget(plan, options.reserve, budget);
        io.stderr.write(describePinRead(plan, options.rate));
      },
      onProgress: progressReporter(io.stderr, 'reading pinned views'),
    }).finally(() => connection.close()),
  );
  const { batch } = members;
  const result = exportFiles({
    ...exported,
    schemas: schemaTexts(),
    pinLayout,
    ...(exported.live.users === undefined ? {} : { everyone: exported.live.users }),
    ...(batch === undefined ? {} : { stemUsers: batch.all }),
  });
  interrupt.writingFiles(`writing the files to ${options.out}`);
  const report = await writeExportFiles(outDir, result.files);
  // Files of members exported by earlier runs of a budgeted export are its own, not left-overs.
  if (batch !== undefined) report.untouched = report.untouched.filter((path) => !path.startsWith(`${PINS_FOLDER}/`));
  for (const note of result.notes) io.stderr.write(`note: ${note}\n`);
  if (choice.kind === 'none') {
    io.stderr.write(
      'note: pinned views not exported: name members with --users a@x.com,b@x.com, or pass --all-users\n',
    );
  }
  if (report.untouched.length > 0) {
    io.stderr.write(
      `note: left as they were, not written by this export (plan reads them too): ${report.untouched.join(', ')}\n`,
    );
  }
  io.stdout.write(summaryText(options.out, exported.live.workspace, result, report, exported.live.requests.used));
  io.stdout.write(await closingLines(outDir, io.cwd, options, exported, batch, ceiling.current));
}

function pinUserChoice(options: ExportOptions): PinUserChoice {
  if (options.allUsers === true) return { kind: 'all' };
  if (options.users !== undefined) return { kind: 'listed', emails: parseEmailList(options.users) };
  return { kind: 'none' };
}

function summaryText(
  shown: string,
  workspace: { id: string; name: string },
  result: ExportResult,
  report: WriteReport,
  requests: number,
): string {
  const { views, automations, pinUsers } = result.summary;
  const total = DOMAINS.reduce((sum, domain) => sum + views[domain], 0);
  const perDomain = DOMAINS.map((domain) => `${views[domain]} ${domain}`).join(', ');
  const lines = [
    `exported workspace ${JSON.stringify(workspace.name)} (${workspace.id}) to ${shown}`,
    `  ${WORKSPACE_FILE}`,
    `  ${total} view${total === 1 ? '' : 's'} (${perDomain})`,
  ];
  if (automations !== null)
    lines.push(`  ${AUTOMATIONS_FILE}: ${automations} admin automation${automations === 1 ? '' : 's'}`);
  if (pinUsers > 0) lines.push(`  ${PINS_FOLDER}/: ${pinsLine(pinUsers, result.summary.pinDocuments)}`);
  lines.push(`${report.written} files written, ${requests} requests used; nothing was changed in the workspace`);
  return `${lines.join('\n')}\n`;
}

/** pinsLine says whose pinned views were exported, and in how many documents when they are grouped. */
function pinsLine(members: number, documents: { groups: number; members: number }): string {
  const whose = `pinned views of ${members} member${members === 1 ? '' : 's'}`;
  if (documents.groups === 0 && documents.members === members) return whose;
  return `${whose} in ${documents.groups} group document${documents.groups === 1 ? '' : 's'} and ${documents.members} member document${documents.members === 1 ? '' : 's'}`;
}
