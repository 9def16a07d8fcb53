import { Option } from 'commander';
import type { Command } from 'commander';
import { EXIT } from '../errors.js';
import { exportWorkspace, type PinsMode } from '../flows/export-workspace.js';
import { closingLines } from '../render/export-next.js';
import { exportNotes, exportSummary } from '../render/export-summary.js';
import { formatProblems } from '../text/problem-lines.js';
import { addConnectionOptions, openConnection } from './connection.js';
import type { ConnectionOptions } from './connection.js';
import { listenForReads, readStops } from './interrupt.js';
import type { CliIo } from './io.js';
import type { Outcome } from './outcome.js';
import { parseCount } from './parse-options.js';
import { progressReporter } from './progress.js';
import { addReserveOption } from './scope-options.js';

interface ExportOptions extends ConnectionOptions {
  out: string;
  users?: string[];
  allUsers?: boolean;
  force?: boolean;
  merge?: boolean;
  budget?: number;
  reserve: number;
  /** `--pins exact|include`: how members' pinned lists are written. */
  pins?: PinsMode;
}

/**
 * registerExportCommand adds `viewctl export`: read the live workspace and write
 * manifests that plan finds in sync with it (`exportWorkspace`), then say what was
 * written and the plan to run next. Reads only; never writes to the service.
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
      new Option(
        '--pins <mode>',
        "how pinned lists are written: exact (every tab, in order) or include (mode: include, the public and default tabs, which must stay pinned; the member's other tabs and the order stay theirs)",
      )
        .choices(['exact', 'include'])
        .default('exact'),
    )
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
    );
  addReserveOption(command);
  addConnectionOptions(command).action(async (options: ExportOptions) => {
    const interrupt = listenForReads(io);
    try {
      const exported = await exportWorkspace(options, {
        cwd: io.cwd,
        connect: () => openConnection(options, io, { dailyReserve: options.reserve, stop: interrupt.signal }),
        stops: readStops(interrupt, ''),
        onNotice: (text) => io.stderr.write(text),
        onProgress: progressReporter(io.stderr, 'reading pinned views'),
        onWarnings: (warnings) => io.stderr.write(`${formatProblems(warnings, { color: false })}\n`),
      });
      const notes = exportNotes(exported);
      if (notes !== '') io.stderr.write(notes);
      io.stdout.write(exportSummary(options.out, exported));
      io.stdout.write(closingLines(exported.closing, options));
      outcome.exitCode = EXIT.ok;
    } finally {
      interrupt.dispose();
    }
  });
}
