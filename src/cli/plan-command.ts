import { pendingLists } from '../plan/drift-origins.js';
import { Option } from 'commander';
import type { Command } from 'commander';
import { EXIT } from '../errors.js';
import { renderJson } from '../render/json.js';
import { renderPlan, type OutputFormat } from '../render/render-plan.js';
import { addConnectionOptions, openConnection } from './connection.js';
import type { ConnectionOptions } from './connection.js';
import type { CliIo } from './io.js';
import { formatOption, useColor, writeFileAtomically } from './output.js';
import { listenForReads, stopOnInterrupt } from './interrupt.js';
import { checkOutputPath, loadManifestSet, planAgainst } from './plan-flow.js';
import { checkOutOfManifests } from '../flows/plan-out-path.js';
import type { Outcome } from './outcome.js';
import { maxDeletesOption } from './max-deletes-option.js';
import { detailsUrlOption } from './details-url-option.js';
import { targetOption } from './target-option.js';
import { showWarningsOption } from './show-warnings-option.js';
import type { TargetSelector } from '../plan/targets-selection.js';
import { ledgerOption, openLedger } from './ledger-option.js';
import { appliedManifests } from './applied-manifests.js';
import { manifestTrees } from '../manifest/git-trees.js';
import { addBaseOption, addBudgetOptions, addReserveOption, resolveScope, type ScopeOptions } from './scope-options.js';

interface PlanOptions extends ConnectionOptions, ScopeOptions {
  format: OutputFormat;
  out?: string;
  detailedExitcode?: boolean;
  target?: TargetSelector[];
  maxDeletes: number;
  detailsUrl?: string;
  showWarnings?: boolean;
  ledger?: string;
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
    .addOption(detailsUrlOption())
    .addOption(showWarningsOption())
    .addOption(ledgerOption());
  addReserveOption(addBudgetOptions(addBaseOption(command)));
  addConnectionOptions(command).action(async (paths: string[], options: PlanOptions) => {
    const color = useColor(io.stdout, io.env);
    const unwritten = options.out === undefined ? '' : `, not even the plan file ${options.out}`;
    // A YAML plan file inside the manifests would be loaded as one: refused before reading any.
    if (options.out !== undefined) checkOutOfManifests(options.out, paths, io.cwd);
    const interrupt = listenForReads(io, unwritten);
    try {
      const showWarnings = options.showWarnings === true;
      const { desired, files } = await loadManifestSet(paths, io, useColor(io.stderr, io.env), showWarnings);
      // A plan written through to a device or a pipe is not kept: the output then says how to save one.
      const planFile =
        options.out !== undefined && (await checkOutputPath(io, options.out, files, options.ledger))
          ? options.out
          : undefined;
      const scoped = await resolveScope(options, paths, io);
      // What the plan file (--out, or the JSON plan) records of the manifests' git state, and the sweep memory: both before any request.
      const trees =
        options.out !== undefined || options.format === 'json' ? await manifestTrees(paths, io.cwd) : undefined;
      const ledger = await openLedger(io, options.ledger);
      // Without --base, drift is labelled against the memory's last applied commit, found through git before any request.
      const applied = await appliedManifests(ledger?.memory, options.base, paths, io.cwd);
      // The client too refuses any request that would dip into the reserve (beside the plan's own arithmetic).
      const connection = await openConnection(options, io, { dailyReserve: options.reserve, stop: interrupt.signal });
      try {
        const {
          plan: planned,
          live,
          elapsedMs,
        } = await stopOnInterrupt(interrupt, unwritten, () =>
          planAgainst(desired, connection.client, io, { scoped, targets: options.target, ledger, applied }),
        );
        ledger?.observe(live, pendingLists(planned.changes));
        // Only a clean checkout's ids say which manifests the plan was made from (apply --plan compares them with HEAD's).
        const plan = trees?.clean === true ? { ...planned, manifests: { trees: trees.trees } } : planned;
        if (options.out !== undefined) {
          interrupt.writingFiles(`writing ${options.out}`);
          await writeFileAtomically(io, options.out, renderJson(plan));
        }
        io.stdout.write(
          renderPlan(plan, options.format, {
            color,
            elapsedMs,
            rate: options.rate,
            maxDeletes: options.maxDeletes,
            planFile,
            detailsUrl: options.detailsUrl,
            showWarnings,
          }),
        );
        // A held target exits 2 too, so a nightly job notices what the plan left out.
        outcome.exitCode =
          options.detailedExitcode === true && (plan.changes.length > 0 || (plan.held?.length ?? 0) > 0)
            ? EXIT.changes
            : EXIT.ok;
        await ledger?.save(io);
      } finally {
        await connection.close();
      }
    } finally {
      interrupt.dispose();
    }
  });
}
