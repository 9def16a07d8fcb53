import { Option } from 'commander';
import type { Command } from 'commander';
import { EXIT } from '../errors.js';
import { exportWorkspace, PIN_LAYOUTS, type PinLayout, type PinsMode } from '../flows/export-workspace.js';
import { UsageError } from '../errors.js';
import { closingLines } from '../render/export-next.js';
import { exportNotes, exportSummary } from '../render/export-summary.js';
import { formatProblems } from '../text/problem-lines.js';
import { addConnectionOptions, openConnection } from './connection.js';
import type { ConnectionOptions } from './connection.js';
import { listenForReads, readStops } from './interrupt.js';
import type { CliIo } from './io.js';
import type { Outcome } from './outcome.js';
import { textWidth } from './output.js';
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
  /** `--pins`: the layout of the pinned lists' documents and their mode, parsed (`parsePins`). */
  pins?: PinsChoice;
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
        '--pins <how>',
        "how pinned lists are written, comma separated: groups (default: one PinnedViews document per list members share, by role, glob or addresses; a member gets their own only for a list nobody shares; lists on the built-in defaults get none) or per-member (one document per member; what --merge and --budget write); and exact (default: every tab, in order) or include (mode: include, the public and default tabs, which must stay pinned; the member's other tabs and the order stay theirs). E.g. --pins per-member,include. --merge and --budget write per-member and refuse groups",
      ).argParser((value: string, previous: PinsChoice | undefined) => parsePins(value, previous)),
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
      const exported = await exportWorkspace(
        { ...options, ...options.pins },
        {
          cwd: io.cwd,
          connect: () => openConnection(options, io, { dailyReserve: options.reserve, stop: interrupt.signal }),
          stops: readStops(interrupt, ''),
          onNotice: (text) => io.stderr.write(text),
          onProgress: progressReporter(io.stderr, 'reading pinned views'),
          onWarnings: (warnings) => io.stderr.write(`${formatProblems(warnings, { color: false })}\n`),
        },
      );
      const notes = exportNotes(exported);
      if (notes !== '') io.stderr.write(notes);
      const width = textWidth(io.stdout, io.env);
      io.stdout.write(exportSummary(options.out, exported, width));
      io.stdout.write(closingLines(exported.closing, options, width));
      outcome.exitCode = EXIT.ok;
    } finally {
      interrupt.dispose();
    }
  });
}

/** PinsChoice is `--pins` parsed: the documents' layout and their mode, each when given. */
interface PinsChoice {
  pinLayout?: PinLayout;
  pinsMode?: PinsMode;
}

const PINS_MODES: readonly PinsMode[] = ['exact', 'include'];

/**
 * parsePins reads `--pins`: comma-separated words, at most one layout (groups,
 * per-member) and one mode (exact, include), across every `--pins` given (`previous`).
 */
function parsePins(value: string, previous: PinsChoice = {}): PinsChoice {
  const choice: PinsChoice = { ...previous };
  for (const word of value.split(',').map((part) => part.trim())) {
    const layout = PIN_LAYOUTS.find((name) => name === word);
    const mode = PINS_MODES.find((name) => name === word);
    if (layout !== undefined && choice.pinLayout === undefined) choice.pinLayout = layout;
    else if (mode !== undefined && choice.pinsMode === undefined) choice.pinsMode = mode;
    else
      throw new UsageError(
        'usage.bad-pins',
        layout !== undefined || mode !== undefined
          ? `--pins names ${word} after another ${layout !== undefined ? 'layout' : 'mode'}: "${value}"`
          : `--pins takes groups or per-member, and exact or include, comma separated; got "${word}"`,
        'pass e.g. --pins groups, --pins per-member, --pins include or --pins per-member,include',
      );
  }
  return choice;
}
