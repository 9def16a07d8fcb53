import { Option } from 'commander';
import type { Command } from 'commander';
import { EXIT } from '../errors.js';
import { planManifests, type TargetSelector } from '../flows/plan-manifests.js';
import { renderPlan, type OutputFormat } from '../render/render-plan.js';
import { formatProblems } from '../text/problem-lines.js';
import { appliedManifests } from '../flows/applied-manifests.js';
import { addConnectionOptions, openConnection } from './connection.js';
import type { ConnectionOptions } from './connection.js';
import { maxPinChangesOption } from './max-pin-changes-option.js';
import { detailsUrlOption } from './details-url-option.js';
import { listenForReads, readStops } from './interrupt.js';
import type { CliIo } from './io.js';
import { ledgerOption, openSweepMemory, type MemoryFileRun } from './ledger-option.js';
import { maxDeletesOption } from './max-deletes-option.js';
import type { Outcome } from './outcome.js';
import { formatOption, textWidth, useColor } from './output.js';
import { progressReporter } from './progress.js';
import {
  addBaseOption,
  addBudgetOptions,
  addReserveOption,
  addSinceAppliedOption,
  type ScopeOptions,
} from './scope-options.js';
import { showWarningsOption } from './show-warnings-option.js';
import { targetOption } from './target-option.js';

interface PlanOptions extends ConnectionOptions, ScopeOptions {
  format: OutputFormat;
  out?: string;
  detailedExitcode?: boolean;
  target?: TargetSelector[];
  maxDeletes: number;
  maxPinChanges: number;
  detailsUrl?: string;
  showWarnings?: boolean;
  ledger?: string;
  pinnedBy?: boolean;
}

/** registerPlanCommand adds `viewctl plan [PATH...]`: validate, read live state, print the plan. Never writes. */
export function registerPlanCommand(program: Command, io: CliIo, outcome: Outcome): void {
  const command = program
    .command('plan')
    .description('validate the manifests, read the live workspace and print what apply would change (never writes)')
    .argument('[paths...]', 'manifest files or folders (every *.yaml / *.yml below)', ['.'])
    .addOption(formatOption())
    .addOption(new Option('--out <file>', 'also write the machine-readable plan (JSON) to FILE'))
    .addOption(new Option('--detailed-exitcode', 'exit 2 when there are changes or drift, or anything is held'))
    .addOption(targetOption())
    .addOption(maxDeletesOption('say in the plan that apply will refuse it when it deletes more than N views'))
    .addOption(
      maxPinChangesOption(
        "say in the plan that apply will refuse it when it rewrites more than N members' pinned lists",
      ),
    )
    .addOption(detailsUrlOption())
    .addOption(showWarningsOption())
    .addOption(ledgerOption())
    .addOption(
      new Option(
        '--pinned-by',
        "when the plan deletes views, read every active member's pinned list of their domains to count who pins them (within --budget and the quota less --reserve; the cost is said first)",
      ),
    );
  addReserveOption(addBudgetOptions(addSinceAppliedOption(addBaseOption(command))));
  addConnectionOptions(command).action(async (paths: string[], options: PlanOptions) => {
    const unwritten = options.out === undefined ? '' : `, not even the plan file ${options.out}`;
    const interrupt = listenForReads(io, unwritten);
    const showWarnings = options.showWarnings === true;
    try {
      // The memory file is opened by the flow's turn (before any request) and saved here, after the output.
      let memoryRun: MemoryFileRun | undefined;
      const { plan, elapsedMs, planFileKept } = await planManifests(
        {
          paths,
          targets: options.target,
          scope: options,
          out: options.out,
          recordTrees: options.out !== undefined || options.format === 'json',
          ledgerFile: options.ledger,
        },
        {
          cwd: io.cwd,
          clock: io.clock,
          // The client too refuses any request that would dip into the reserve (beside the plan's own arithmetic).
          connect: () => openConnection(options, io, { dailyReserve: options.reserve, stop: interrupt.signal }),
          stops: readStops(interrupt, unwritten),
          onWarnings: (warnings) =>
            io.stderr.write(`${formatProblems(warnings, { color: useColor(io.stderr, io.env), showWarnings })}\n`),
          onProgress: progressReporter(io.stderr, 'reading live state'),
          onNotice: (text) => io.stderr.write(`note: ${text}\n`),
          openMemory: async () => (memoryRun = await openSweepMemory(io, options.ledger)),
          lastApplied: (memory) => appliedManifests(memory, options.base, paths, io.cwd),
        },
      );
      io.stdout.write(
        renderPlan(plan, options.format, {
          color: useColor(io.stdout, io.env),
          width: textWidth(io.stdout, io.env),
          elapsedMs,
          rate: options.rate,
          maxDeletes: options.maxDeletes,
          maxPinChanges: options.maxPinChanges,
          planFile: planFileKept ? options.out : undefined,
          detailsUrl: options.detailsUrl,
          showWarnings,
        }),
      );
      // A held target exits 2 too, so a nightly job notices what the plan left out.
      outcome.exitCode =
        options.detailedExitcode === true && (plan.changes.length > 0 || (plan.held?.length ?? 0) > 0)
          ? EXIT.changes
          : EXIT.ok;
      await memoryRun?.save(io);
    } finally {
      interrupt.dispose();
    }
  });
}
