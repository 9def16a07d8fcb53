import { pendingLists } from '../plan/drift-origins.js';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { Option } from 'commander';
import type { Command } from 'commander';
import { carryOut } from '../apply/carry-out.js';
import type { OperationOutcome } from '../apply/execute.js';
import { askApproval, decideApproval } from '../apply/gates.js';
import { prepareApply } from '../flows/apply-ready.js';
import { prepareSavedPlan, type SavedPlanFile } from '../flows/saved-plan.js';
import type { ApplyReport } from '../apply/report.js';
import {
  alreadyAppliedReport,
  buildReport,
  renderReportJson,
  renderReportMarkdown,
  renderReportText,
  reportExitCode,
} from '../apply/report.js';
import { quoted, safeText } from '../text/safe-text.js';
import { EXIT, InternalError, systemErrorCode, UsageError, ViewctlError } from '../errors.js';
import type { Plan } from '../plan/types.js';
import type { ServiceClient } from '../service/types.js';
import type { Desired } from '../state/types.js';
import { addConnectionOptions, openConnection } from './connection.js';
import type { Connection, ConnectionOptions } from './connection.js';
import type { CliIo } from './io.js';
import { formatOption, useColor } from './output.js';
import { maxDeletesOption } from './max-deletes-option.js';
import { maxPinChangesOption } from './max-pin-changes-option.js';
import { detailsUrlOption } from './details-url-option.js';
import { targetOption } from './target-option.js';
import type { TargetSelector } from '../plan/targets-selection.js';
import { renderPlan, type OutputFormat } from '../render/render-plan.js';
import { loadManifestFiles, planningOptions } from './plan-flow.js';
import type { Outcome } from './outcome.js';
import { addBaseOption, addBudgetOptions, resolveScope, type ResolvedScope } from './scope-options.js';
import { checkRepairBase, type ManifestsCommit, type RepairChoice } from '../apply/repair.js';
import { formatCount } from '../text/plural.js';
import { repairLines, repairSection } from '../apply/repair-report.js';
import { manifestsHead, type ManifestsHead } from '../manifest/git-source.js';
import { DEFAULT_RESERVE } from '../state/read-ceiling.js';
import { parseCount } from './parse-options.js';
import { progressReporter } from './progress.js';
import { showWarningsOption } from './show-warnings-option.js';
import { ledgerOption, openLedger, type LedgerRun } from './ledger-option.js';
import { appliedManifests } from './applied-manifests.js';
import { hasCommit, sameManifestsAt } from '../manifest/git-trees.js';
import type { SweepMemory } from '../state/sweep-memory.js';
import { appliedManifestsCommit, appliedPlanCommit, appliedRepoPaths, scopedPlanCovers } from './ledger-advance.js';
import { landedFacts } from '../apply/landed-facts.js';
import { heldAfterApply } from '../state/ledger-applied.js';
import type { ApiWorkspace } from '../domain/api-types.js';
import { interruptedError, listenForInterrupt, type Interrupt } from './interrupt.js';

interface ApplyOptions extends ConnectionOptions {
  format: OutputFormat;
  base?: string;
  /** `--budget N`: self-heal (README, "Self-heal: `apply --budget`"). */
  budget?: number;
  budgetDay?: string;
  /** `--reserve R`, with `--budget` only (default 300 then). */
  reserve?: number;
  autoApprove?: boolean;
  maxDeletes: number;
  maxPinChanges: number;
  plan?: string;
  expectDigest?: string;
  target?: TargetSelector[];
  detailsUrl?: string;
  showWarnings?: boolean;
  ledger?: string;
}

/** Where the plan comes from: manifests to plan now, or a plan file saved by `plan --out`. */
type PlanSource =
  | {
      type: 'manifests';
      paths: string[];
      desired: Desired;
      scoped: ResolvedScope;
      targets?: TargetSelector[];
      repair?: RepairRequest;
      read: ManifestsHead | undefined;
    }
  | { type: 'file'; file: SavedPlanFile };

/**
 * registerApplyCommand adds `viewctl apply [PATH...]`: plan (or read `--plan FILE`
 * and check it is not stale), pass the safety gates, carry the plan out, verify and
 * report. Exit 0 applied (or nothing to do), 1 error before any write, 3 refused,
 * 4 failed part-way (README, "Exit codes").
 */
export function registerApplyCommand(program: Command, io: CliIo, outcome: Outcome): void {
  const command = program
    .command('apply')
    .description('plan, then carry the plan out (or carry out a saved plan with --plan FILE)')
    .argument('[paths...]', 'manifest files or folders (every *.yaml / *.yml below); default .')
    .addOption(formatOption())
    .addOption(
      new Option(
        '--auto-approve',
        'apply without asking; required when stdin is not a terminal and no --plan is given',
      ),
    )
    .addOption(maxDeletesOption('refuse plans that delete more than N views'))
    .addOption(
      maxPinChangesOption(
        "refuse plans that rewrite more than N members' pinned lists (self-heal repairs the first N and says what it left)",
      ),
    )
    .addOption(targetOption())
    .addOption(detailsUrlOption())
    .addOption(
      new Option('--plan <file>', 'carry out a plan saved by viewctl plan --out, after checking it is not stale'),
    )
    .addOption(
      new Option(
        '--expect-digest <hex>',
        'refuse unless the plan has exactly this digest (the one a reviewer saw)',
      ).argParser(parseDigest),
    )
    .addOption(showWarningsOption())
    .addOption(ledgerOption());
  addBudgetOptions(addBaseOption(command)).addOption(
    new Option(
      '--reserve <n>',
      `with --budget: requests of what the service says is left today to leave to the other integrations that share the quota (default ${DEFAULT_RESERVE}); 0 keeps none`,
    ).argParser((value) => parseCount(value, '--reserve')),
  );
  addConnectionOptions(command).action(async (paths: string[], options: ApplyOptions) => {
    outcome.exitCode = await apply(paths, options, io, outcome);
  });
}

async function apply(paths: string[], options: ApplyOptions, io: CliIo, outcome: Outcome): Promise<number> {
  // Decided first, so a pipeline missing --auto-approve fails before any request.
  const approval = decideApproval({
    autoApprove: options.autoApprove === true,
    fromPlanFile: options.plan !== undefined,
    stdinIsTTY: io.stdin.isTTY === true,
  });
  // Until writing begins an interrupt cancels the reads; from then on it only stops new
  // writes, and the report says what landed.
  const run: ApplyRun = { reads: new AbortController(), client: undefined, writesFrom: undefined };
  const writing = (): boolean => run.writesFrom !== undefined;
  const interrupt = listenForInterrupt(io, {
    notice: () =>
      writing()
        ? 'finishing the requests in flight and starting nothing new; the report follows'
        : 'stopping the reads; nothing was written',
    // Every request sent since writing began is a write or follows one: it may have landed.
    exitCode: () =>
      writing() && (run.client?.stats().requests ?? 0) > (run.writesFrom ?? 0) ? EXIT.partial : EXIT.error,
    exitNote: (code) =>
      code === EXIT.partial
        ? 'writes were sent and may have landed; run viewctl plan to see what the workspace holds now'
        : 'nothing was written',
    onFirst: () => {
      if (!writing()) run.reads.abort();
    },
  });
  try {
    return await applyUntilInterrupted(paths, options, io, outcome, { approval, run, interrupt });
  } catch (error) {
    const signal = interrupt.received();
    // A read cancelled by the interrupt, or the prompt it ended: nothing was written.
    if (signal !== undefined && !writing() && error instanceof ViewctlError) throw interruptedError(signal);
    throw error;
  } finally {
    interrupt.dispose();
  }
}

/** ApplyRun is what the interrupt handler needs to know of a run: how to stop its reads, and whether and since when it writes. */
interface ApplyRun {
  reads: AbortController;
  client: ServiceClient | undefined;
  /** The client's request count when writing began; undefined before. */
  writesFrom: number | undefined;
}

async function applyUntilInterrupted(
  paths: string[],
  options: ApplyOptions,
  io: CliIo,
  outcome: Outcome,
  { approval, run, interrupt }: { approval: ReturnType<typeof decideApproval>; run: ApplyRun; interrupt: Interrupt },
): Promise<number> {
  const loaded = await loadSource(paths, options, io);
  const ledger = await openLedger(io, options.ledger);
  const source = await withAppliedManifests(loaded, ledger?.memory, io.cwd);
  // Self-heal runs only on the manifests last applied: refused before any request.
  if (source.type === 'manifests' && source.repair !== undefined) checkRepairBase(ledger?.memory, source.repair.head);
  let connection: Connection | undefined;
  const connect = async (): Promise<ServiceClient> => {
    // Self-heal keeps the reserve, as plan does: the client too refuses a request that would dip into it.
    const dailyReserve = source.type === 'manifests' ? source.repair?.reserve : undefined;
    connection = await openConnection(options, io, {
      stop: run.reads.signal,
      ...(dailyReserve === undefined ? {} : { dailyReserve }),
    });
    run.client = connection.client;
    return connection.client;
  };
  try {
    const gates = {
      expectDigest: options.expectDigest,
      maxDeletes: options.maxDeletes,
      maxPinChanges: options.maxPinChanges,
    };
    const { plan, live, elapsedMs, operations, alreadyApplied, repair } =
      source.type === 'file'
        ? await prepareSavedPlan(source.file, connect, {
            ...gates,
            onProgress: progressReporter(io.stderr, 'checking the plan against live state'),
            ...(ledger === undefined
              ? {}
              : { onWorkspace: (workspace: ApiWorkspace) => ledger.checkWorkspace(workspace) }),
          })
        : await prepareApply(source.desired, await connect(), {
            ...planningOptions(io, {
              ...source,
              ledger,
              applied: await appliedManifests(ledger?.memory, options.base, paths, io.cwd),
            }),
            ...gates,
            ...repairOptions(source.repair),
          });
    ledger?.observe(live, pendingLists(plan.changes));
    // What was read and what landed is remembered whatever the outcome; the last applied commit only on exit 0.
    const remember = async (code: number): Promise<number> => {
      if (ledger !== undefined) await rememberRun(ledger, code, source, plan, io);
      return code;
    };
    const { client } = run;
    if (client === undefined) throw new InternalError('apply prepared a plan without opening a connection');
    const json = options.format === 'json';
    const color = useColor(io.stdout, io.env);
    if (operations.length === 0 && alreadyApplied.length > 0) {
      // Every change is live as the plan leaves it: say so, send nothing, succeed.
      const report = alreadyAppliedReport(plan, alreadyApplied, { requests: live.requests.used, elapsedMs });
      io.stdout.write(
        json
          ? renderReportJson(report)
          : options.format === 'markdown'
            ? renderReportMarkdown(report)
            : renderReportText(report, { color }),
      );
      return remember(EXIT.ok);
    }
    if (operations.length === 0) {
      const report =
        repair === undefined
          ? emptyReport(plan)
          : { ...emptyReport(plan), repair: repairSection(plan, repair, new Set()) };
      const done = report.repair === undefined ? 'Nothing to apply.\n' : `${repairLines(report.repair).join('\n')}\n`;
      io.stdout.write(
        json
          ? renderReportJson(report)
          : `${repairHeading(repair)}${renderPlan(plan, options.format, { color, elapsedMs, rate: options.rate, context: 'apply', showWarnings: options.showWarnings })}${done}`,
      );
      return remember(EXIT.ok);
    }

    // With JSON on stdout, the plan and the prompt go to stderr so stdout stays one document.
    const display = json ? io.stderr : io.stdout;
    if (!json || approval === 'ask') {
      display.write(
        repairHeading(repair) +
          renderPlan(plan, json ? 'text' : options.format, {
            color: useColor(display, io.env),
            elapsedMs,
            rate: options.rate,
            context: 'apply',
            detailsUrl: options.detailsUrl,
            showWarnings: options.showWarnings,
          }),
      );
    }
    if (approval === 'ask' && !(await askApproval(io.stdin, display, interrupt.signal))) {
      throw new ViewctlError('apply.cancelled', 'apply cancelled; nothing was written', {
        hint: 'answer exactly "yes" to apply, or pass --auto-approve',
      });
    }
    // An interrupt that came while the plan was shown stops here, before any write.
    const signal = interrupt.received();
    if (signal !== undefined) throw interruptedError(signal);
    const progress = progressReporter(io.stderr, 'applying');
    let done = 0;
    outcome.writing = true;
    run.writesFrom = client.stats().requests;
    const report = await carryOut(plan, operations, {
      client,
      live,
      fromPlanFile: source.type === 'file',
      signal: interrupt.signal,
      relistDelaysMs: io.waits?.relistDelaysMs,
      alreadyApplied,
      ...(repair === undefined ? {} : { repair }),
      onOutcome: (result: OperationOutcome) => {
        done += 1;
        progress(done, operations.length);
        if (result.status === 'failed')
          io.stderr.write(
            `failed: ${result.operation.action} ${result.operation.kind} ${quoted(result.operation.name)}: ${safeText(result.error.message)}\n`,
          );
      },
    });
    // A blank line parts the report from the plan shown above it.
    io.stdout.write(
      json
        ? renderReportJson(report)
        : `\n${options.format === 'markdown' ? renderReportMarkdown(report) : renderReportText(report, { color })}`,
    );
    ledger?.landed(landedFacts(plan, report));
    return remember(reportExitCode(report));
  } finally {
    await connection?.close();
  }
}

/** loadSource reads what needs no network: the manifests, or the plan file's text (the saved-plan flow checks it). */
async function loadSource(paths: string[], options: ApplyOptions, io: CliIo): Promise<PlanSource> {
  if (options.plan === undefined) {
    // Where git stood when the files were read: the last applied commit is that one, or none.
    const read = await manifestsHead(paths.length === 0 ? ['.'] : paths, io.cwd);
    const desired = await loadManifestFiles(paths, io, useColor(io.stderr, io.env), options.showWarnings === true);
    const repair = repairRequest(options, read);
    const scoped = await resolveScope(
      { base: options.base, budget: options.budget, budgetDay: options.budgetDay, reserve: repair?.reserve },
      paths,
      io,
    );
    return {
      type: 'manifests',
      paths,
      desired,
      scoped,
      targets: options.target,
      read,
      ...(repair === undefined ? {} : { repair }),
    };
  }
  if (options.budget !== undefined) {
    throw new UsageError(
      'usage.plan-with-budget',
      'apply --plan carries out exactly the saved plan, so it takes no --budget (self-heal plans the manifests itself)',
      'drop --plan to repair within --budget N, or drop --budget to apply the saved plan',
    );
  }
  // Without --budget these keep or date nothing: refused as for the manifests, never silently dropped.
  repairRequest(options, undefined);
  if (options.budgetDay !== undefined) await resolveScope({ budgetDay: options.budgetDay }, paths, io);
  if (options.target !== undefined) {
    throw new UsageError(
      'usage.target-with-plan',
      'apply --plan carries out exactly the saved plan, so it takes no --target',
      'pass --target to viewctl plan --out, then apply that plan file',
    );
  }
  if (options.base !== undefined) {
    throw new UsageError(
      'usage.plan-with-base',
      'apply --plan carries out a saved plan, which was scoped when it was made; --base applies only when apply plans the manifests',
      'drop --base to apply the saved plan, or drop --plan to plan the manifests against --base and apply',
    );
  }
  if (paths.length > 0) {
    throw new UsageError(
      'usage.plan-with-paths',
      `apply --plan reads no manifests, but paths were given: ${paths.join(' ')}`,
      'drop the paths to apply the saved plan, or drop --plan to plan the manifests and apply',
    );
  }
  const file = options.plan;
  let text: string;
  try {
    text = await readFile(resolve(io.cwd, file), 'utf8');
  } catch (error) {
    throw new UsageError(
      'apply.plan-unreadable',
      `cannot read the plan file ${file}: ${systemErrorCode(error)}`,
      'pass the file written by viewctl plan --out',
    );
  }
  return { type: 'file', file: { name: file, text } };
}

/** RepairRequest is what self-heal (`--budget`) needs from the command line: the manifests' commit and the reserve. */
interface RepairRequest {
  head: ManifestsCommit | undefined;
  reserve: number;
}

/**
 * repairRequest turns `--budget` on apply into self-heal, before any request: it takes
 * no `--base` (it sweeps, as plan --budget does), keeps `--reserve` (300 unless told)
 * and takes `head`, the manifests' commit when they were read, which the sweep memory's last applied one must be
 * (`checkRepairBase`, once the memory is read). Without `--budget`, apply keeps no
 * reserve and takes no `--reserve`.
 */
function repairRequest(options: ApplyOptions, head: ManifestsHead | undefined): RepairRequest | undefined {
  if (options.budget === undefined) {
    if (options.reserve === undefined) return undefined;
    throw new UsageError(
      'usage.reserve-without-budget',
      '--reserve keeps requests for the other integrations during apply --budget, but no --budget was given',
      'add --budget N to repair within it, or drop --reserve',
    );
  }
  if (options.base !== undefined) {
    throw new UsageError(
      'usage.budget-with-base',
      'apply --budget repairs what a nightly sweep reads, as plan --budget does; --base scopes the plan of a pull request, which only a reviewed apply carries out',
      'drop --base to repair, or drop --budget to apply the manifests against --base',
    );
  }
  return { head, reserve: options.reserve ?? DEFAULT_RESERVE };
}

/**
 * withAppliedManifests notes on a self-heal's HEAD that its manifests are the memory's
 * last applied commit's, when HEAD is another commit and git finds the manifest paths
 * the same at both (the commits between touched only other files); or that the
 * checkout lacks that commit (a shallow clone), so nothing could be compared.
 */
async function withAppliedManifests(
  source: PlanSource,
  memory: SweepMemory | undefined,
  cwd: string,
): Promise<PlanSource> {
  const head = source.type === 'manifests' ? source.repair?.head : undefined;
  const applied = memory?.lastApplied?.commit;
  if (
    source.type !== 'manifests' ||
    source.repair === undefined ||
    head === undefined ||
    applied === undefined ||
    head.commit === applied
  )
    return source;
  const { repoPaths, folder } = await appliedRepoPaths({}, source.paths, cwd);
  if (await sameManifestsAt(head.commit, applied, repoPaths, folder))
    return { ...source, repair: { ...source.repair, head: { ...head, sameManifestsAs: applied } } };
  // A checkout without the last applied commit cannot compare: the refusal then says to fetch the history.
  if (!(await hasCommit(applied, folder)))
    return { ...source, repair: { ...source.repair, head: { ...head, lacks: applied } } };
  return source;
}

/** repairHeading is the line above the plan of a self-heal run: only the repairs of what follows are carried out. */
function repairHeading(repair: RepairChoice | undefined): string {
  if (repair === undefined) return '';
  const { given, reads } = repair.budget;
  return `Self-heal (apply --budget ${formatCount(given)}, reads at most ${formatCount(reads)}): only the repairs of this plan are carried out; deletions are left for a reviewed apply.\n\n`;
}

/** repairOptions are prepareApply's options for self-heal, when asked for (the memory comes with the ledger's planning options). */
function repairOptions(repair: RepairRequest | undefined): { repair?: { head: ManifestsCommit | undefined } } {
  return repair === undefined ? {} : { repair: { head: repair.head } };
}

/**
 * rememberRun saves the sweep memory after an apply that exited `code`: on 0, with the
 * manifests' commit as the last applied one when it can be known (otherwise stderr says
 * why it was not advanced).
 */
async function rememberRun(ledger: LedgerRun, code: number, source: PlanSource, plan: Plan, io: CliIo): Promise<void> {
  if (code === EXIT.ok) {
    const advance =
      source.type === 'file'
        ? await appliedPlanCommit(plan, io.cwd)
        : await appliedManifestsCommit(source.paths, io.cwd, (source.targets?.length ?? 0) > 0, source.read);
    // A plan scoped to --base REF carried out every merged change only when REF's manifests are the last applied commit's.
    const base = 'commit' in advance ? plan.scope?.base : undefined;
    const manifests =
      base === undefined
        ? undefined
        : await appliedRepoPaths(plan, source.type === 'file' ? undefined : source.paths, io.cwd);
    const uncovered =
      manifests === undefined ? undefined : await scopedPlanCovers(base, ledger.memory.lastApplied?.commit, manifests);
    if (uncovered !== undefined)
      io.stderr.write(`note: the sweep memory's last applied commit was not advanced: ${uncovered}\n`);
    else if ('commit' in advance)
      ledger.advance(advance.commit, heldAfterApply(ledger.memory.lastApplied?.held, appliedTargets(plan, source)));
    else io.stderr.write(`note: the sweep memory's last applied commit was not advanced: ${advance.why}\n`);
  }
  await ledger.save(io);
}

/**
 * appliedTargets are what an apply that exited 0 tells of the held targets: those its plan
 * held, those it changed, and whether it read every target (a reviewed apply of a plan
 * neither scoped by --base nor short of any list; never self-heal, which carries out
 * only repairs and so never a change held before).
 */
function appliedTargets(
  plan: Plan,
  source: PlanSource,
): { held: string[]; changed: string[]; readEverything: boolean } {
  const repair = source.type === 'manifests' && source.repair !== undefined;
  const scope = plan.scope;
  return {
    held: (plan.held ?? []).map((entry) => entry.target),
    changed: repair ? [] : plan.changes.map((change) => change.target),
    readEverything: !repair && (scope === undefined || (scope.base === undefined && scope.unread === 0)),
  };
}

function emptyReport(plan: Plan): ApplyReport {
  return buildReport(
    plan,
    { outcomes: [], stopped: null },
    { problems: [], domainsRead: [] },
    { requests: 0, elapsedMs: 0, fromPlanFile: false },
  );
}

/** parseDigest accepts a full plan digest: 64 hex digits, as plan prints and writes it. */
function parseDigest(value: string): string {
  const digest = value.trim().toLowerCase();
  if (!/^[0-9a-f]{64}$/.test(digest)) {
    throw new UsageError(
      'usage.bad-digest',
      `--expect-digest takes the full 64-hex-digit digest of a plan, got "${value}"`,
      'copy it from the last line of `viewctl plan`, or from the "digest" field of the JSON plan',
    );
  }
  return digest;
}
