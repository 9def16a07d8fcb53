import { Option } from 'commander';
import type { Command } from 'commander';
import { applyResultText, failedWriteLine, shownBeforeApply, type ApplyOutputOptions } from '../render/apply-output.js';
import { RequestAllowance, withAllowance } from '../service/types.js';
import { askApproval, decideApproval } from './approval.js';
import { loadManifestFiles, planningOptions } from './apply-planning.js';
import { UsageError, ViewctlError } from '../errors.js';
import { runApply, type ApplyMemory } from '../flows/apply-run.js';
import { applySource } from '../flows/apply-source.js';
import type { TargetSelector } from '../flows/plan-manifests.js';
import type { OutputFormat } from '../render/render-plan.js';
import type { ServiceClient } from '../service/types.js';
import { DEFAULT_RESERVE } from '../domain/domains.js';
import { formatCount } from '../text/plural.js';
import { whileInterruptible, type ApplyRun } from './apply-interrupt.js';
import { addConnectionOptions, openConnection } from './connection.js';
import type { Connection, ConnectionOptions } from './connection.js';
import { maxPinChangesOption } from './max-pin-changes-option.js';
import { detailsUrlOption } from './details-url-option.js';
import { interruptedError, type Interrupt } from './interrupt.js';
import type { CliIo } from './io.js';
import { ledgerOption, openSweepMemory, type MemoryFileRun } from './ledger-option.js';
import { maxDeletesOption } from './max-deletes-option.js';
import type { Outcome } from './outcome.js';
import { formatOption, textWidth, useColor } from './output.js';
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
 * and re-check each target: one changed since is held with what depends on it), pass the safety gates, carry the plan out, verify and
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
      new Option(
        '--plan <file>',
        'carry out a plan saved by viewctl plan --out, after re-checking each target: one changed since the plan is held with what depends on it, the rest carried out',
      ),
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
  return whileInterruptible(io, (run, interrupt) =>
    applyUntilInterrupted(paths, options, io, outcome, { approval, run, interrupt }),
  );
}

async function applyUntilInterrupted(
  paths: string[],
  options: ApplyOptions,
  io: CliIo,
  outcome: Outcome,
  { approval, run, interrupt }: { approval: ReturnType<typeof decideApproval>; run: ApplyRun; interrupt: Interrupt },
): Promise<number> {
  const { source, scoped } = await applySource(
    {
      paths,
      plan: options.plan,
      base: options.base,
      budget: options.budget,
      budgetDay: options.budgetDay,
      reserve: options.reserve,
      targets: options.target,
    },
    {
      cwd: io.cwd,
      ...(io.clock === undefined ? {} : { clock: io.clock }),
      load: () => loadManifestFiles(paths, io, useColor(io.stderr, io.env), options.showWarnings === true),
    },
  );
  const memoryRun = await openSweepMemory(io, options.ledger);
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
        ...(memoryRun === undefined ? {} : { memoryRun: { ...memorySteps(memoryRun, io), file: options.ledger } }),
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
              shownBeforeApply(shown, {
                ...outputOptions(options),
                format: json ? 'text' : options.format,
                color: useColor(display, io.env),
                ...widthOf(display, io),
              }),
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
          if (result.status === 'failed') io.stderr.write(failedWriteLine(result.operation, result.error.message));
        },
        note: (text) => io.stderr.write(`note: ${text}\n`),
      },
    );
    io.stdout.write(
      applyResultText(result, {
        ...outputOptions(options),
        color: useColor(io.stdout, io.env),
        ...widthOf(io.stdout, io),
      }),
    );
    return result.code;
  } finally {
    await connection?.close();
  }
}

/** widthOf is the width text wraps to on `stream`: the terminal's, or none off a terminal (src/cli/output.ts). */
function widthOf(stream: { isTTY?: boolean; columns?: number }, io: CliIo): { width?: number } {
  const width = textWidth(stream, io.env);
  return width === undefined ? {} : { width };
}

/** outputOptions are the flags apply's output follows (src/render/apply-output.ts); the caller says the stream's colour. */
function outputOptions(options: ApplyOptions): Omit<ApplyOutputOptions, 'color'> {
  return {
    format: options.format,
    rate: options.rate,
    maxDeletes: options.maxDeletes,
    maxPinChanges: options.maxPinChanges,
    detailsUrl: options.detailsUrl,
    showWarnings: options.showWarnings,
    budget: options.budget,
  };
}

/** memorySteps are the sweep memory's steps the apply flow calls, saved with this run's stderr for warnings. */
function memorySteps(memoryRun: MemoryFileRun, io: CliIo): ApplyMemory {
  return {
    memory: memoryRun.memory,
    checkWorkspace: (workspace) => memoryRun.checkWorkspace(workspace),
    observe: (live, pending) => memoryRun.observe(live, pending),
    rememberWrites: (facts) => memoryRun.rememberWrites(facts),
    endHolds: (targets) => memoryRun.endHolds(targets),
    advance: (applied, held) => memoryRun.advance(applied, held),
    save: () => memoryRun.save(io),
  };
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
