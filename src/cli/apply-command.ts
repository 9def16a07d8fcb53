import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { Option } from 'commander';
import type { Command } from 'commander';
import type { ApplyReport } from '../domain/apply-report.js';
import { renderReportJson, renderReportMarkdown, renderReportText, repairLines } from '../render/apply-report.js';
import { RequestAllowance, withAllowance } from '../service/types.js';
import { askApproval, decideApproval } from './approval.js';
import { loadManifestFiles, planningOptions, resolveScope, type ResolvedScope } from './apply-planning.js';
import { EXIT, systemErrorCode, UsageError, ViewctlError } from '../errors.js';
import {
  loadApplyManifests,
  runApply,
  type ApplyMemory,
  type ApplyResult,
  type RepairChoice,
  type ApplySource,
  type ShownPlan,
} from '../flows/apply-run.js';
import type { TargetSelector } from '../flows/plan-manifests.js';
import { renderPlan, type OutputFormat } from '../render/render-plan.js';
import type { ServiceClient } from '../service/types.js';
import { DEFAULT_RESERVE } from '../domain/domains.js';
import { formatCount } from '../text/plural.js';
import { quoted, safeText } from '../text/safe-text.js';
import { addConnectionOptions, openConnection } from './connection.js';
import type { Connection, ConnectionOptions } from './connection.js';
import { maxPinChangesOption } from './max-pin-changes-option.js';
import { detailsUrlOption } from './details-url-option.js';
import { interruptedError, listenForInterrupt, type Interrupt } from './interrupt.js';
import type { CliIo } from './io.js';
import { ledgerOption, openSweepMemory, type MemoryFileRun } from './ledger-option.js';
import { maxDeletesOption } from './max-deletes-option.js';
import type { Outcome } from './outcome.js';
import { formatOption, useColor } from './output.js';
import { parseCount } from './parse-options.js';
import { progressReporter } from './progress.js';
import { addBaseOption, addBudgetOptions } from './scope-options.js';
import { showWarningsOption } from './show-warnings-option.js';
import { targetOption } from './target-option.js';

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
  const { source, scoped } = await loadSource(paths, options, io);
  const ledger = await openSweepMemory(io, options.ledger);
  let applying: ((done: number, total: number) => void) | undefined;
  let connection: Connection | undefined;
  const json = options.format === 'json';
  // With JSON on stdout, the plan and the prompt go to stderr so stdout stays one document.
  const display = json ? io.stderr : io.stdout;
  try {
    const result = await runApply(
      {
        source,
        cwd: io.cwd,
        ...(ledger === undefined ? {} : { ledger: { ...memorySteps(ledger, io), file: options.ledger } }),
        expectDigest: options.expectDigest,
        maxDeletes: options.maxDeletes,
        maxPinChanges: options.maxPinChanges,
        planning: planningOptions(io, {
          targets: options.target,
          ...(scoped === undefined ? {} : { scoped }),
        }),
        onRecheckProgress: progressReporter(io.stderr, 'checking the plan against live state'),
      },
      {
        connect: async ({ dailyReserve }) => {
          // Self-heal keeps the reserve, as plan does: the client too refuses a request that would dip into it.
          connection = await openConnection(options, io, {
            stop: run.reads.signal,
            ...(dailyReserve === undefined ? {} : { dailyReserve }),
          });
          // Self-heal's --budget N counts every request sent, its writes' retries included.
          const budget = options.plan === undefined && options.budget !== undefined ? options.budget : undefined;
          run.client =
            budget === undefined
              ? connection.client
              : withAllowance(connection.client, new RequestAllowance(budget, `--budget ${formatCount(budget)}`));
          return run.client;
        },
        confirm: async (shown) => {
          if (!json || approval === 'ask')
            display.write(
              repairHeading(shown.repair) + planText(shown, json ? 'text' : options.format, display, options, io),
            );
          if (approval === 'ask' && !(await askApproval(io.stdin, display, interrupt.signal))) {
            throw new ViewctlError('apply.cancelled', 'apply cancelled; nothing was written', {
              hint: 'answer exactly "yes" to apply, or pass --auto-approve',
            });
          }
          // An interrupt that came while the plan was shown stops here, before any write.
          const signal = interrupt.received();
          if (signal !== undefined) throw interruptedError(signal);
        },
        onWriting: (client: ServiceClient) => {
          outcome.writing = true;
          run.writesFrom = client.stats().requests;
        },
        signal: interrupt.signal,
        relistDelaysMs: io.waits?.relistDelaysMs,
        onOutcome: (result, done, total) => {
          applying ??= progressReporter(io.stderr, 'applying');
          applying(done, total);
          if (result.status === 'failed')
            io.stderr.write(
              `failed: ${result.operation.action} ${result.operation.kind} ${quoted(result.operation.name)}: ${safeText(result.error.message)}\n`,
            );
        },
        note: (text) => io.stderr.write(`note: ${text}\n`),
      },
    );
    io.stdout.write(resultText(result, options, io));
    return result.code;
  } finally {
    await connection?.close();
  }
}

/** resultText is what stdout shows of an apply's result, in `--format`. */
function resultText(result: ApplyResult, options: ApplyOptions, io: CliIo): string {
  const color = useColor(io.stdout, io.env);
  if (result.type === 'review-due') return reviewDueText(result, options, io);
  if (options.format === 'json') return renderReportJson(result.report);
  if (result.type === 'nothing') {
    const done =
      result.report.repair === undefined ? 'Nothing to apply.\n' : `${repairLines(result.report.repair).join('\n')}\n`;
    return `${repairHeading(result.shown.repair)}${planText(result.shown, options.format, io.stdout, options, io, false)}${done}`;
  }
  const report = reportText(result.report, options.format, color);
  // A blank line parts the report from the plan shown above it.
  return result.type === 'carried-out' ? `\n${report}` : report;
}

/**
 * reviewDueText is a self-heal night that only swept because a reviewed apply is due:
 * the plan as `plan --budget` shows it (JSON: the plan), then why the review is due and
 * the way out. Nothing was written.
 */
function reviewDueText(result: Extract<ApplyResult, { type: 'review-due' }>, options: ApplyOptions, io: CliIo): string {
  const plan = renderPlan(result.shown.plan, options.format, {
    color: useColor(io.stdout, io.env),
    elapsedMs: result.shown.elapsedMs,
    rate: options.rate,
    maxDeletes: options.maxDeletes,
    maxPinChanges: options.maxPinChanges,
    detailsUrl: options.detailsUrl,
    showWarnings: options.showWarnings,
  });
  if (options.format === 'json') return plan;
  const { lead, why, hint } = result.due;
  const heading = `${lead.charAt(0).toUpperCase()}${lead.slice(1)}`;
  return `Self-heal (apply --budget ${formatCount(options.budget ?? 0)}): ${lead}, so this night only reads and reports, as plan --budget does; nothing was written.\n\n${plan}\n${heading}: ${safeText(why)}.\nWay out: ${safeText(hint)}.\n`;
}

function reportText(report: ApplyReport, format: OutputFormat, color: boolean): string {
  return format === 'markdown' ? renderReportMarkdown(report) : renderReportText(report, { color });
}

/** planText is the plan as shown before an apply (`context: 'apply'`); the details link only when it is about to be carried out. */
function planText(
  shown: ShownPlan,
  format: OutputFormat,
  stream: NodeJS.WritableStream,
  options: ApplyOptions,
  io: CliIo,
  withDetails = true,
): string {
  return renderPlan(shown.plan, format, {
    color: useColor(stream as CliIo['stdout'], io.env),
    elapsedMs: shown.elapsedMs,
    rate: options.rate,
    context: 'apply',
    ...(withDetails ? { detailsUrl: options.detailsUrl } : {}),
    showWarnings: options.showWarnings,
  });
}

/** memorySteps are the sweep memory's steps the apply flow calls, saved with this run's stderr for warnings. */
function memorySteps(ledger: MemoryFileRun, io: CliIo): ApplyMemory {
  return {
    memory: ledger.memory,
    checkWorkspace: (workspace) => ledger.checkWorkspace(workspace),
    observe: (live, pending) => ledger.observe(live, pending),
    landed: (facts) => ledger.landed(facts),
    advance: (applied, held) => ledger.advance(applied, held),
    save: () => ledger.save(io),
  };
}

/** loadSource reads what needs no network: the manifests, or the plan file's text (the saved-plan flow checks it). */
async function loadSource(
  paths: string[],
  options: ApplyOptions,
  io: CliIo,
): Promise<{ source: ApplySource; scoped?: ResolvedScope }> {
  if (options.plan === undefined) {
    const manifests = await loadApplyManifests(paths, io.cwd, () =>
      loadManifestFiles(paths, io, useColor(io.stderr, io.env), options.showWarnings === true),
    );
    const repair = repairRequest(options);
    const scoped = await resolveScope(
      { base: options.base, budget: options.budget, budgetDay: options.budgetDay, reserve: repair?.reserve },
      paths,
      io,
    );
    return {
      source: {
        type: 'manifests',
        manifests,
        targeted: (options.target?.length ?? 0) > 0,
        ...(options.base === undefined ? {} : { base: options.base }),
        ...(repair === undefined ? {} : { repair }),
      },
      scoped,
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
  repairRequest(options);
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
  return { source: { type: 'file', file: { name: file, text } } };
}

/**
 * repairRequest turns `--budget` on apply into self-heal, before any request: it takes
 * no `--base` (it sweeps, as plan --budget does) and keeps `--reserve` (300 unless
 * told). Without `--budget`, apply keeps no reserve and takes no `--reserve`.
 */
function repairRequest(options: ApplyOptions): { reserve: number } | undefined {
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
  return { reserve: options.reserve ?? DEFAULT_RESERVE };
}

/** repairHeading is the line above the plan of a self-heal run: only the repairs of what follows are carried out. */
function repairHeading(repair: RepairChoice | undefined): string {
  if (repair === undefined) return '';
  const { given, reads } = repair.budget;
  return `Self-heal (apply --budget ${formatCount(given)}, reads at most ${formatCount(reads)}): only the repairs of this plan are carried out; deletions are left for a reviewed apply.\n\n`;
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
